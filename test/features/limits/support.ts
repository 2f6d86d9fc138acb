import { expect } from 'vitest';
import { createCustomer, expectSuccess } from '../../rest/helpers.js';
import { expectNoChange } from '../../support/database.js';
import { ledgerViolations } from '../../support/ledger-invariants.js';
import type { CallResult, TestService } from '../../support/service.js';
import { errorCodes, graphql } from '../../graphql/helpers.js';

/**
 * What the tests of a product's minimums and limits share (docs/adr/0114): products under fresh codes, accounts on
 * them (or on none), postings and transfers through REST and GraphQL, and the proof that a refusal changed nothing.
 */

let codes = 0;

/** Defines a USD SAVINGS product with `terms` (minimumBalance, minimumOpeningDeposit, limits) under a fresh code. */
export async function product(service: TestService, terms: Record<string, unknown>): Promise<string> {
  const code = `LIMITS_${++codes}_${Date.now().toString(36).toUpperCase()}`;
  const body = { code, name: 'Limited savings', accountType: 'SAVINGS', currency: 'USD', ...terms };
  expectSuccess(await service.call('POST', '/sandbox/product', { body }), 'account', 201);
  return code;
}

/** A USD SAVINGS account on `productCode` (null: on none), with `overdraftLimit` when given. */
export async function account(
  service: TestService,
  productCode: string | null,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const { customerId } = await createCustomer(service);
  const body = {
    associatedCustomerIds: [customerId],
    name: 'Savings',
    currency: 'USD',
    type: 'SAVINGS',
    ...(productCode !== null && { productCode }),
    ...extra,
  };
  const res = await service.call('POST', '/sandbox/account', { body });
  expectSuccess(res, 'account', 201);
  return res.json.data.accountId as string;
}

export const post = (service: TestService, accountId: string, body: Record<string, unknown>): Promise<CallResult> =>
  service.call('POST', `/sandbox/account/${accountId}/transaction`, { body });

export const transfer = (service: TestService, fromAccountId: string, toAccountId: string, amount: string) =>
  service.call('POST', '/sandbox/transfer', { body: { fromAccountId, toAccountId, amount } });

/** Posts and expects it written. */
export async function posted(service: TestService, accountId: string, body: Record<string, unknown>) {
  const res = await post(service, accountId, body);
  expectSuccess(res, 'account', 201);
  return res.json.data as { transactionId: string };
}

const GQL_POST = `mutation Post($accountId: ID!, $input: PostTransactionInput!) {
  postTransaction(accountId: $accountId, input: $input) { transactionId }
}`;
const GQL_TRANSFER = `mutation Transfer($input: TransferInput!) { transfer(input: $input) { transferId } }`;

export const graphqlPost = (service: TestService, accountId: string, input: Record<string, unknown>) =>
  graphql(service, GQL_POST, { accountId, input });

export const graphqlTransfer = (service: TestService, fromAccountId: string, toAccountId: string, amount: string) =>
  graphql(service, GQL_TRANSFER, { input: { fromAccountId, toAccountId, amount } });

/** The single GraphQL error of a refused mutation: its code and its details. */
export function graphqlRefusal(result: CallResult, code: string): { code: string; value?: string }[] {
  expect(result.status).toBe(200);
  expect(errorCodes(result)).toEqual([code]);
  expect(result.json.data).toBeNull();
  return result.json.errors[0].extensions.details;
}

/** Each detail's value by its code. */
export const valuesOf = (details: { code: string; value?: string }[]): Record<string, string | undefined> =>
  Object.fromEntries(details.map((detail) => [detail.code, detail.value]));

/**
 * Runs a request that must be refused and proves it changed nothing: rows of every ledger table, balances, the
 * accounts' rows (their withdrawal counters included), audit rows and events.
 */
export async function refusedUnchanged<T>(service: TestService, request: () => Promise<T>): Promise<T> {
  const { pool } = service.database;
  const state = async () =>
    (
      await pool.query<Record<string, string>>(
        `SELECT (SELECT count(*)::text FROM audit_events) AS audit, (SELECT count(*)::text FROM events) AS events,
                (SELECT count(*)::text FROM ledger_entries) AS entries,
                (SELECT md5(coalesce(string_agg(to_jsonb(a)::text, ',' ORDER BY a.id), '')) FROM accounts a) AS accounts,
                (SELECT md5(coalesce(string_agg(to_jsonb(s)::text, ',' ORDER BY s.id), '')) FROM ledger_settlement_accounts s) AS settlement`,
      )
    ).rows[0]!;
  const before = await state();
  const result = await expectNoChange(pool, request);
  expect(await state()).toEqual(before);
  return result;
}

export async function expectSoundLedger(service: TestService): Promise<void> {
  expect(await ledgerViolations(service.database.pool)).toEqual([]);
}

/** The account's posted balance and available balance (posted - pending debits), as exact decimal text. */
export async function balances(
  service: TestService,
  accountId: string,
): Promise<{ amount: string; available: string }> {
  const { rows } = await service.database.pool.query<{ amount: string; available: string }>(
    'SELECT trim_scale(amount)::text AS amount, trim_scale(amount - pending_debits)::text AS available FROM accounts WHERE id = $1',
    [accountId],
  );
  return rows[0]!;
}
