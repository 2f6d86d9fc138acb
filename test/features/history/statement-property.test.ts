import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerViolations } from '../../support/ledger-invariants.js';
import { startTestService, type TestService } from '../../support/service.js';
import { createCustomer } from '../../rest/helpers.js';

/**
 * Property tests over random postings against the real service on PostgreSQL: deposits, withdrawals, holds
 * (posted in full or in part, or voided), reversals and transfers between two accounts, in any order. After
 * each run, for random periods cut at the postings' own instants: every statement adds up (opening + credits −
 * debits = closing, and each entry's balanceAfter follows from the one before), consecutive statements chain,
 * the balance as of any moment is the statement's closing balance up to it, and the environment's export
 * balances per currency.
 */
let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.stop());

/** Exact decimal text or JSON number → integer micro-units (the ledger stores six decimals). */
function micros(value: string | number): bigint {
  const text = typeof value === 'number' ? value.toFixed(6) : value;
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = (negative ? text.slice(1) : text).split('.');
  const units = BigInt(whole!) * 1_000_000n + BigInt(fraction.padEnd(6, '0').slice(0, 6));
  return negative ? -units : units;
}

type Step =
  | { kind: 'deposit' | 'withdraw'; account: 0 | 1; cents: number }
  | { kind: 'hold'; account: 0 | 1; cents: number; then: 'post' | 'part' | 'void' | 'leave' }
  | { kind: 'reverse'; account: 0 | 1 }
  | { kind: 'transfer'; from: 0 | 1; cents: number };

const account = fc.constantFrom<0 | 1>(0, 1);
const cents = fc.integer({ min: 1, max: 50_000 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constantFrom<'deposit' | 'withdraw'>('deposit', 'withdraw'), account, cents }),
  fc.record({
    kind: fc.constant<'hold'>('hold'),
    account,
    cents,
    then: fc.constantFrom<'post' | 'part' | 'void' | 'leave'>('post', 'part', 'void', 'leave'),
  }),
  fc.record({ kind: fc.constant<'reverse'>('reverse'), account }),
  fc.record({ kind: fc.constant<'transfer'>('transfer'), from: account, cents }),
);

async function apply(accounts: readonly string[], steps: readonly Step[]): Promise<string[]> {
  const instants: string[] = [];
  const posted: string[][] = [[], []];
  const call = async (path: string, body: unknown) => {
    const res = await service.call('POST', path, { body });
    if (res.status < 300) {
      const data = res.json.data;
      for (const transaction of data.debit ? [data.debit, data.credit] : [data]) {
        if (transaction.postedAt) instants.push(transaction.postedAt);
        if (transaction.status === 'POSTED' && !transaction.reversesTransactionId)
          posted[accounts.indexOf(transaction.accountId)]?.push(transaction.transactionId);
      }
    }
    return res;
  };
  for (const s of steps) {
    const amount = (value: number) => value / 100;
    if (s.kind === 'deposit' || s.kind === 'withdraw') {
      await call(`/sandbox/account/${accounts[s.account]}/transaction`, {
        type: s.kind === 'deposit' ? 'CREDIT' : 'DEBIT',
        amount: amount(s.cents),
      });
    } else if (s.kind === 'hold') {
      const res = await call(`/sandbox/account/${accounts[s.account]}/transaction`, {
        type: s.cents % 2 ? 'DEBIT' : 'CREDIT',
        amount: amount(s.cents),
        hold: true,
      });
      if (res.status !== 201 || s.then === 'leave') continue;
      const path = `/sandbox/account/${accounts[s.account]}/transaction/${res.json.data.transactionId}`;
      if (s.then === 'void') await call(`${path}/void`, {});
      else
        await call(`${path}/post`, s.then === 'part' ? { amount: amount(Math.max(1, Math.floor(s.cents / 2))) } : {});
    } else if (s.kind === 'reverse') {
      const candidates = posted[s.account]!;
      const target = candidates.pop();
      if (target) await call(`/sandbox/account/${accounts[s.account]}/transaction/${target}/reverse`, {});
    } else if (s.kind === 'transfer') {
      await call('/sandbox/transfer', {
        fromAccountId: accounts[s.from],
        toAccountId: accounts[1 - s.from],
        amount: amount(s.cents),
      });
    }
  }
  return instants;
}

describe('statements add up, over random postings', () => {
  it('opening + credits − debits = closing for every period; statements chain; the balance as of a moment agrees; the export balances', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 14 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
        async (steps, cuts) => {
          const { customerId } = await createCustomer(service);
          const accounts: string[] = [];
          for (let i = 0; i < 2; i++) {
            const res = await service.call('POST', '/sandbox/account', {
              body: { associatedCustomerIds: [customerId], name: `Property ${i}`, currency: 'USD', type: 'CHECKING' },
            });
            accounts.push(res.json.data.accountId);
          }
          // Some money first, so that debits mostly post.
          await service.call('POST', `/sandbox/account/${accounts[0]}/transaction`, {
            body: { type: 'CREDIT', amount: 300 },
          });
          const start = new Date(Date.now() - 1000).toISOString();
          const instants = await apply(accounts, steps);
          const end = new Date(Date.now() + 1000).toISOString();
          // Cut points: the period's ends and some posting instants (an entry at a cut belongs to the later period).
          const sorted = [...instants].sort();
          const boundaries = [
            ...new Set([start, ...cuts.map((cut) => sorted[cut % Math.max(1, sorted.length)] ?? start), end]),
          ].sort();

          for (const accountId of accounts) {
            let previousClosing: bigint | undefined;
            for (let i = 0; i + 1 < boundaries.length; i++) {
              const [from, to] = [boundaries[i]!, boundaries[i + 1]!];
              const res = await service.call('GET', `/sandbox/account/${accountId}/statement?from=${from}&to=${to}`);
              expect(res.status, res.text).toBe(200);
              const statement = res.json.data;
              const opening = micros(statement.openingBalance);
              const closing = micros(statement.closingBalance);
              expect(opening + micros(statement.totalCredits) - micros(statement.totalDebits)).toBe(closing);
              let running = opening;
              for (const entry of statement.entries) {
                running += entry.type === 'CREDIT' ? micros(entry.amount) : -micros(entry.amount);
                expect(micros(entry.balanceAfter)).toBe(running);
              }
              expect(running).toBe(closing);
              if (previousClosing !== undefined) expect(opening).toBe(previousClosing);
              previousClosing = closing;
              // The balance as of the last instant before `to` is the closing balance.
              const asOf = new Date(new Date(to).getTime() - 1).toISOString();
              const balance = await service.call('GET', `/sandbox/account/${accountId}/balance?asOf=${asOf}`);
              expect(micros(balance.json.data.posted)).toBe(closing);
            }
            const now = await service.call('GET', `/sandbox/account/${accountId}`);
            expect(micros(now.json.data.amount)).toBe(previousClosing);
          }

          // The environment's export of each period balances per currency: the legs of a posting share their instant.
          for (let i = 0; i + 1 < boundaries.length; i++) {
            const exported = await fetch(
              `${service.url}/sandbox/ledger-entries?from=${boundaries[i]}&to=${boundaries[i + 1]}`,
              { headers: { authorization: `Bearer ${service.token}` } },
            );
            const sums = new Map<string, bigint>();
            for (const line of (await exported.text()).split('\n').filter(Boolean)) {
              const entry = JSON.parse(line);
              sums.set(
                entry.currency,
                (sums.get(entry.currency) ?? 0n) +
                  (entry.direction === 'CREDIT' ? micros(entry.amount) : -micros(entry.amount)),
              );
            }
            for (const [currency, sum] of sums) expect(sum, currency).toBe(0n);
          }
        },
      ),
      { numRuns: 12, seed: 31_2026 },
    );
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });
});
