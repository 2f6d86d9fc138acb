import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../../graphql/helpers.js';
import { createCustomer, expectSuccess } from '../../rest/helpers.js';
import { ledgerViolations } from '../../support/ledger-invariants.js';
import { startTestService, type TestService } from '../../support/service.js';

/**
 * A statement of an account on a product shows the period's interest, its fees and the annual percentage yield earned
 * (Reg DD 12 CFR 1030.7(c), Appendix A Part II), in JSON, CSV, PDF and GraphQL; a statement of any other account is as
 * it was. The APY
 * earned is computed here from the appendix's formula, checked first against the appendix's worked example; the
 * average daily balance here from the statement's own entries.
 */

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.stop());

const DAY_MS = 86_400_000;

/** Appendix A, Part II: APY earned = 100 [(1 + interest earned / balance)^(365 / days in period) − 1], to two decimals. */
const apyEarnedPercent = (interest: number, balance: number, days: number): string =>
  (100 * ((1 + interest / balance) ** (365 / days) - 1)).toFixed(2);

describe("Reg DD Appendix A's formula, as this test computes it", () => {
  it("gives the appendix's worked example: $5.25 on an average daily balance of $1,000 over 30 days is 6.58 %", () => {
    expect(apyEarnedPercent(5.25, 1000, 30)).toBe('6.58');
  });
});

async function openAccount(productCode?: string): Promise<string> {
  const { customerId } = await createCustomer(service);
  const res = await service.call('POST', '/sandbox/account', {
    body: {
      associatedCustomerIds: [customerId],
      name: 'Savings',
      currency: 'USD',
      type: 'SAVINGS',
      ...(productCode && { productCode }),
    },
  });
  expectSuccess(res, 'account', 201);
  return res.json.data.accountId as string;
}

const deposit = async (accountId: string, amount: number) =>
  expectSuccess(
    await service.call('POST', `/sandbox/account/${accountId}/transaction`, { body: { type: 'CREDIT', amount } }),
    'account',
    201,
  );

let onProduct: string;
let plain: string;
let from: string;
let to: string;

beforeAll(async () => {
  const product = {
    code: 'STATEMENT_SAVINGS',
    name: 'Statement savings',
    accountType: 'SAVINGS',
    currency: 'USD',
    interest: {
      tiers: [{ minimumBalance: '0', annualRate: '0.06' }],
      dayCount: 'ACTUAL_365',
      balanceBasis: 'END_OF_DAY',
      compounding: 'DAILY',
      posting: 'MONTHLY',
    },
    // Never waived: the month's end charges it.
    fees: { monthlyMaintenance: { amount: '2.5' } },
  };
  expectSuccess(await service.call('POST', '/sandbox/product', { body: product }), 'account', 201);
  onProduct = await openAccount('STATEMENT_SAVINGS');
  plain = await openAccount();
  from = (await service.call('GET', '/sandbox/clock')).json.data.now as string;
  await deposit(onProduct, 1000);
  await deposit(plain, 1000);
  // 45 days always cross a month's end: the end of day posts the month's interest. A withdrawal on the 10th day
  // gives the average a balance of its own for some of the days.
  expectSuccess(await service.call('POST', '/sandbox/clock/advance', { body: { days: 10 } }), 'customer', 200);
  expectSuccess(
    await service.call('POST', `/sandbox/account/${onProduct}/transaction`, { body: { type: 'DEBIT', amount: 200 } }),
    'account',
    201,
  );
  expectSuccess(await service.call('POST', '/sandbox/clock/advance', { body: { days: 35 } }), 'customer', 200);
  to = (await service.call('GET', '/sandbox/clock')).json.data.now as string;
}, 120_000);

const statementPath = (accountId: string) =>
  `/sandbox/account/${accountId}/statement?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;

/** The statement's balance at the end of each day of [from, to) (the last cut at `to`), averaged: Reg DD's figure. */
function averageOfDayEnds(
  statement: { openingBalance: number; entries: { postedAt: string; balanceAfter: number }[] },
  from: string,
  to: string,
): number {
  const days = Math.ceil((Date.parse(to) - Date.parse(from)) / DAY_MS);
  let sum = 0;
  for (let k = 1; k <= days; k++) {
    const end = Math.min(Date.parse(from) + k * DAY_MS, Date.parse(to));
    const before = statement.entries.filter((entry) => Date.parse(entry.postedAt) < end);
    sum += before.length ? before[before.length - 1]!.balanceAfter : statement.openingBalance;
  }
  return sum / days;
}

describe('a statement of an account on a product', () => {
  it('JSON: the interest credited in the period, the average daily balance and the APY earned', async () => {
    const res = await service.call('GET', statementPath(onProduct));
    expectSuccess(res, 'account', 200);
    const statement = res.json.data;
    // The interest earned: the period's credits that are interest postings, as interest_postings records them.
    const { rows } = await service.database.pool.query<{ posted: string }>(
      `SELECT coalesce(sum(x.posted), 0)::text AS posted FROM interest_postings x JOIN ledger_entries e ON e.id = x.transaction_id
        WHERE x.account_id = $1 AND e.posted_at >= $2 AND e.posted_at < $3`,
      [onProduct, from, to],
    );
    expect(Number(rows[0]!.posted)).toBeGreaterThan(0);
    expect(statement.interestEarned).toBe(Number(rows[0]!.posted));

    // The average daily balance, from the statement's own entries: the balance at the end of each day of the period.
    const days = Math.ceil((Date.parse(to) - Date.parse(from)) / DAY_MS);
    expect(statement.daysInPeriod).toBe(days);
    // The deposit, the withdrawal, the month's interest and its fee.
    expect(statement.entries.length).toBe(4);
    expect(statement.averageDailyBalance).toBeCloseTo(averageOfDayEnds(statement, from, to), 2);

    const expected = apyEarnedPercent(statement.interestEarned, statement.averageDailyBalance, days);
    expect((Number(statement.annualPercentageYieldEarned) * 100).toFixed(2)).toBe(expected);
    expect(statement.annualPercentageYieldEarned).toMatch(/^0\.\d{1,4}$/);

    // The fees: the month's maintenance fee, as its assessment recorded it; none in a period before the month's end.
    const { rows: fees } = await service.database.pool.query<{ charged: string }>(
      "SELECT trim_scale(sum(charged))::text AS charged FROM maintenance_fee_assessments WHERE account_id = $1 AND outcome = 'CHARGED'",
      [onProduct],
    );
    expect(fees[0]!.charged).toBe('2.5');
    expect(statement.feesCharged).toBe(2.5);
    const early = await service.call(
      'GET',
      `/sandbox/account/${onProduct}/statement?from=${encodeURIComponent(from)}&to=${encodeURIComponent(new Date(Date.parse(from) + 5 * DAY_MS).toISOString())}`,
    );
    expectSuccess(early, 'account', 200);
    expect(early.json.data).toMatchObject({ interestEarned: 0, feesCharged: 0 });
    expect(statement.openingBalance + statement.totalCredits - statement.totalDebits).toBeCloseTo(
      statement.closingBalance,
      6,
    );
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });

  it('a period of decades averages its day ends from its entries (no look-up per day), with the opening balance before them', async () => {
    const since = '2000-01-01T00:00:00.000Z';
    const res = await service.call(
      'GET',
      `/sandbox/account/${onProduct}/statement?from=${encodeURIComponent(since)}&to=${encodeURIComponent(to)}`,
    );
    expectSuccess(res, 'account', 200);
    const statement = res.json.data;
    expect(statement.daysInPeriod).toBeGreaterThan(9000);
    expect(statement.averageDailyBalance).toBeCloseTo(averageOfDayEnds(statement, since, to), 2);
    // And a period that starts after the first entry: its opening balance holds until the next.
    const later = new Date(Date.parse(from) + 3 * DAY_MS).toISOString();
    const partial = (
      await service.call(
        'GET',
        `/sandbox/account/${onProduct}/statement?from=${encodeURIComponent(later)}&to=${encodeURIComponent(to)}`,
      )
    ).json.data;
    expect(partial.openingBalance).toBe(1000);
    expect(partial.averageDailyBalance).toBeCloseTo(averageOfDayEnds(partial, later, to), 2);
  });

  it('CSV: INTEREST_EARNED, FEES_CHARGED, AVERAGE_DAILY_BALANCE and ANNUAL_PERCENTAGE_YIELD_EARNED after CLOSING_BALANCE', async () => {
    const json = (await service.call('GET', statementPath(onProduct))).json.data;
    const csv = await service.call('GET', statementPath(onProduct), { headers: { accept: 'text/csv' } });
    expect(csv.status).toBe(200);
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines.at(-5)).toMatch(/^CLOSING_BALANCE,/);
    expect(lines.at(-4)!.split(',')).toEqual([
      'INTEREST_EARNED',
      json.to,
      '',
      '',
      String(json.interestEarned),
      '',
      'USD',
      '',
    ]);
    expect(lines.at(-3)!.split(',')).toEqual(['FEES_CHARGED', json.to, '', '', '2.5', '', 'USD', '']);
    expect(lines.at(-2)!.split(',')[0]).toBe('AVERAGE_DAILY_BALANCE');
    expect(Number(lines.at(-2)!.split(',')[5])).toBe(json.averageDailyBalance);
    expect(lines.at(-1)!.split(',')).toEqual([
      'ANNUAL_PERCENTAGE_YIELD_EARNED',
      json.to,
      '',
      '',
      json.annualPercentageYieldEarned,
      '',
      '',
      '',
    ]);
  });

  it('PDF: the interest earned and the APY earned as a percentage', async () => {
    const json = (await service.call('GET', statementPath(onProduct))).json.data;
    const response = await fetch(`${service.url}${statementPath(onProduct)}`, {
      headers: { authorization: `Bearer ${service.token}`, accept: 'application/pdf' },
    });
    expect(response.status).toBe(200);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cas-statement-apy-'));
    try {
      writeFileSync(path.join(dir, 'statement.pdf'), Buffer.from(await response.arrayBuffer()));
      const text = execFileSync('pdftotext', ['-layout', path.join(dir, 'statement.pdf'), '-']).toString('utf8');
      expect(text).toMatch(new RegExp(`Interest earned\\s+${json.interestEarned.toFixed(2)} USD`));
      expect(text).toMatch(/Fees charged\s+2\.50 USD/);
      const percent = (Number(json.annualPercentageYieldEarned) * 100).toFixed(2);
      expect(text).toMatch(
        new RegExp(`Annual percentage yield earned: ${percent.replace('.', '\\.')}% over ${json.daysInPeriod} days`),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a statement in GraphQL', () => {
  it("Statement.interest answers REST's figures for an account on a product, null for one on no product", async () => {
    const json = (await service.call('GET', statementPath(onProduct))).json.data;
    const res = await graphql(
      service,
      `
        query ($id: ID!, $plain: ID!, $from: String!, $to: String!) {
          account(accountId: $id) {
            statement(from: $from, to: $to) {
              closingBalance
              interest {
                interestEarned
                feesCharged
                averageDailyBalance
                daysInPeriod
                annualPercentageYieldEarned
              }
            }
          }
          plain: account(accountId: $plain) {
            statement(from: $from, to: $to) {
              closingBalance
              interest {
                interestEarned
              }
            }
          }
        }
      `,
      { id: onProduct, plain, from, to },
    );
    expect(res.json.errors).toBeUndefined();
    expect(res.json.data.account.statement.interest).toEqual({
      interestEarned: String(json.interestEarned),
      feesCharged: '2.5',
      averageDailyBalance: String(json.averageDailyBalance),
      daysInPeriod: json.daysInPeriod,
      annualPercentageYieldEarned: json.annualPercentageYieldEarned,
    });
    expect(res.json.data.plain.statement.interest).toBeNull();
  });
});

describe('a reversed fee', () => {
  it('nets out of the fees of a period that holds both, and the ledger still sums to zero', async () => {
    const { rows } = await service.database.pool.query<{ transaction_id: string }>(
      "SELECT transaction_id FROM maintenance_fee_assessments WHERE account_id = $1 AND outcome = 'CHARGED'",
      [onProduct],
    );
    const reversal = await service.call(
      'POST',
      `/sandbox/account/${onProduct}/transaction/${rows[0]!.transaction_id}/reverse`,
      {
        body: { description: 'Fee refunded' },
      },
    );
    expect(reversal.status, reversal.text).toBe(201);
    const now = (await service.call('GET', '/sandbox/clock')).json.data.now as string;
    const after = new Date(Date.parse(now) + 1000).toISOString();
    const res = await service.call(
      'GET',
      `/sandbox/account/${onProduct}/statement?from=${encodeURIComponent(from)}&to=${encodeURIComponent(after)}`,
    );
    expectSuccess(res, 'account', 200);
    expect(res.json.data.entries).toHaveLength(5);
    expect(res.json.data.feesCharged).toBe(0);
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });
});

describe('a statement of an account on no product', () => {
  it('has none of these fields, rows or lines: the contract unchanged', async () => {
    const res = await service.call('GET', statementPath(plain));
    expectSuccess(res, 'account', 200);
    expect(Object.keys(res.json.data).sort()).toEqual(
      [
        'accountId',
        'currency',
        'from',
        'to',
        'asOfSequence',
        'openingBalance',
        'closingBalance',
        'totalCredits',
        'totalDebits',
        'entries',
      ].sort(),
    );
    const csv = await service.call('GET', statementPath(plain), { headers: { accept: 'text/csv' } });
    expect(csv.text.trimEnd().split('\r\n').at(-1)).toMatch(/^CLOSING_BALANCE,/);
    expect(csv.text).not.toContain('INTEREST_EARNED');
  });
});
