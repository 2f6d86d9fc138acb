import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DomainHarness, createDomainHarness } from '../../support/domain.js';
import { buildAccountInput, buildCustomerInput, uniqueSsn } from '../../support/factories.js';

/**
 * Races against the real database: the rules must hold when requests overlap, not only one at a time.
 * Every outcome is checked against the final state, so a lost update or a phantom link cannot hide.
 */
let h: DomainHarness;
beforeAll(async () => {
  h = await createDomainHarness();
});
afterAll(async () => h.close());

type Outcome<T> = { ok: true; value: T } | { ok: false; code: string };

const settle = <T>(promise: Promise<T>): Promise<Outcome<T>> =>
  promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, code: (error as { code?: string }).code ?? String(error) }),
  );

describe('concurrent requests', () => {
  it('enrols an SSN once when 16 creates race with it, whatever its form', async () => {
    const ssn = uniqueSsn();
    const outcomes = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        settle(
          h.services.customers
            .create(h.caller(), buildCustomerInput({ socialSecurityNumber: i % 2 ? ssn : ssn.replaceAll('-', '') }))
            .then((c) => c.value),
        ),
      ),
    );
    const created = outcomes.filter((o) => o.ok);
    expect(created).toHaveLength(1);
    expect(outcomes.filter((o) => !o.ok).map((o) => (o as { code: string }).code)).toEqual(
      Array(15).fill('CUSTOMER_ALREADY_EXISTS'),
    );

    const { rows } = await h.pool.query<{ id: string }>(
      'SELECT id::text FROM customers WHERE environment = $1 AND ssn_blind_index = $2',
      ['sandbox', h.cipher.blindIndex('sandbox', ssn.replaceAll('-', ''))],
    );
    expect(rows.map((row) => row.id)).toEqual([(created[0] as { value: { customerId: string } }).value.customerId]);
  });

  it('never leaves an account linked to a deleted customer when deletion races account creation', async () => {
    const CREATES = 10;
    const seen = { deleted: 0, kept: 0 };
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    // Rounds alternate between issuing the delete just before and just after the burst of creates,
    // with a small random head start, until both outcomes have happened: each is a race the
    // invariants below must survive, and a run that saw only one outcome did not test the other.
    for (let round = 0; round < 60 && (round < 10 || seen.deleted === 0 || seen.kept === 0); round++) {
      const {
        value: { customerId },
      } = await h.services.customers.create(h.caller(), buildCustomerInput());
      const deleteCustomer = () => settle(h.services.customers.delete(h.caller(), customerId));
      const createAccounts = () =>
        Array.from({ length: CREATES }, (_, i) =>
          settle(
            h.services.accounts
              .create(h.caller(), buildAccountInput([customerId], { name: `Round ${round} #${i}` }))
              .then((c) => c.value),
          ),
        );
      const headStart = Math.floor(Math.random() * 6);
      let deletion: Promise<Outcome<void>>;
      let creates: Promise<Outcome<{ accountId: string }>>[];
      if (round % 2 === 0) {
        deletion = deleteCustomer();
        await pause(headStart);
        creates = createAccounts();
      } else {
        creates = createAccounts();
        await pause(headStart);
        deletion = deleteCustomer();
      }
      const [deleted, accountOutcomes] = await Promise.all([deletion, Promise.all(creates)]);

      const customerRows = (await h.pool.query('SELECT 1 FROM customers WHERE id = $1', [customerId])).rows;
      const linkedAccounts = (
        await h.pool.query<{ account_id: string }>(
          'SELECT account_id::text FROM account_customers WHERE customer_id = $1',
          [customerId],
        )
      ).rows
        .map((row) => row.account_id)
        .sort();
      const succeeded = accountOutcomes
        .filter((o) => o.ok)
        .map((o) => (o as { value: { accountId: string } }).value.accountId)
        .sort();
      const failures = accountOutcomes.filter((o) => !o.ok).map((o) => (o as { code: string }).code);

      // Each account that was reported created exists, linked to this customer; nothing else was linked.
      expect(linkedAccounts).toEqual(succeeded);
      if (deleted.ok) {
        // The customer is gone, so no account may have been created for it: all were refused as missing.
        seen.deleted++;
        expect(customerRows).toEqual([]);
        expect(succeeded).toEqual([]);
        expect(failures).toEqual(Array(CREATES).fill('CUSTOMER_NOT_FOUND'));
      } else {
        // Deletion lost the race only because an account was committed first; every create succeeded.
        seen.kept++;
        expect(deleted.code).toBe('CUSTOMER_HAS_ACCOUNTS');
        expect(customerRows).toHaveLength(1);
        expect(succeeded.length).toBeGreaterThan(0);
        expect(failures).toEqual([]);
      }
    }

    // Across the whole database: no link to a missing customer, no account without a customer.
    const { rows: orphans } = await h.pool.query(`
      SELECT 'link' AS kind FROM account_customers l LEFT JOIN customers c ON c.id = l.customer_id AND c.environment = l.environment WHERE c.id IS NULL
      UNION ALL
      SELECT 'account' FROM accounts a WHERE NOT EXISTS (SELECT 1 FROM account_customers l WHERE l.account_id = a.id)`);
    expect(orphans).toEqual([]);
    expect(seen.deleted).toBeGreaterThan(0);
    expect(seen.kept).toBeGreaterThan(0);
  });

  it('keeps a joint account creation atomic when one of its customers is deleted meanwhile', async () => {
    for (let round = 0; round < 6; round++) {
      const [stays, goes] = [
        (await h.services.customers.create(h.caller(), buildCustomerInput())).value.customerId,
        (await h.services.customers.create(h.caller(), buildCustomerInput())).value.customerId,
      ];
      const [created, deleted] = await Promise.all([
        settle(h.services.accounts.create(h.caller(), buildAccountInput([stays, goes])).then((c) => c.value)),
        settle(h.services.customers.delete(h.caller(), goes)),
      ]);
      const links = (
        await h.pool.query('SELECT 1 FROM account_customers WHERE customer_id = ANY($1::uuid[])', [[stays, goes]])
      ).rows;
      if (created.ok) {
        expect(deleted).toEqual({ ok: false, code: 'CUSTOMER_HAS_ACCOUNTS' });
        expect(links).toHaveLength(2);
      } else {
        expect(created.code).toBe('CUSTOMER_NOT_FOUND');
        expect(deleted.ok).toBe(true);
        expect(links).toEqual([]);
      }
    }
  });
});
