import { expect } from 'vitest';
import { buildAccountInput, buildCustomerInput, type CustomerInput } from '../support/factories.js';
import type { CallResult, TestService } from '../support/service.js';

export type Family = 'customer' | 'account';

export const CUSTOMER_DATA_KEYS = [
  'customerId',
  'accountIds',
  'addresses',
  'dateOfBirth',
  'emails',
  'firstName',
  'lastName',
  'middleName',
  'phoneNumbers',
  'preferredName',
];
export const ACCOUNT_DATA_KEYS = [
  'accountId',
  'type',
  'name',
  'amount',
  'currency',
  'customers',
  'transactions',
  'flags',
];

const LOG_REF_KEY: Record<Family, string> = { customer: 'log_ref_id', account: 'logRefId' };
const OTHER_LOG_REF_KEY: Record<Family, string> = { customer: 'logRefId', account: 'log_ref_id' };

/** The envelope of the contract, with the family's log reference name only, equal to requestId and X-Request-Id. */
export function expectEnvelope(res: CallResult, family: Family): void {
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(Object.keys(res.json).sort()).toEqual(['data', 'error', 'requestId', 'success', LOG_REF_KEY[family]].sort());
  expect(res.json).not.toHaveProperty(OTHER_LOG_REF_KEY[family]);
  expect(typeof res.json.requestId).toBe('string');
  expect(res.json[LOG_REF_KEY[family]]).toBe(res.json.requestId);
  expect(res.headers.get('x-request-id')).toBe(res.json.requestId);
}

export function expectSuccess(res: CallResult, family: Family, status: 200 | 201): void {
  expect(res.status, res.text).toBe(status);
  expectEnvelope(res, family);
  expect(res.json.success).toBe(true);
  expect(res.json.error).toBeNull();
}

export function expectFailure(res: CallResult, family: Family, status: number, code: string): void {
  expect(res.status, res.text).toBe(status);
  expectEnvelope(res, family);
  expect(res.json.success).toBe(false);
  expect(res.json.data).toBeNull();
  expect(res.json.error.code).toBe(code);
  expect(typeof res.json.error.message).toBe('string');
  const errorKeys = Object.keys(res.json.error).sort();
  expect(errorKeys.filter((key) => !['code', 'details', 'message'].includes(key))).toEqual([]);
  for (const detail of res.json.error.details ?? []) {
    expect(Object.keys(detail).filter((key) => !['code', 'field', 'message', 'value'].includes(key))).toEqual([]);
  }
}

export async function createCustomer(
  service: TestService,
  overrides: Partial<CustomerInput> = {},
  environment = 'sandbox',
): Promise<{ customerId: string; input: CustomerInput }> {
  const input = buildCustomerInput(overrides);
  const res = await service.call('POST', `/${environment}/customer`, { body: input });
  expectSuccess(res, 'customer', 201);
  return { customerId: res.json.data.customerId, input };
}

/* eslint-disable @typescript-eslint/no-explicit-any -- the answer's JSON, as each test reads it */
export async function createAccount(
  service: TestService,
  customerIds: string[],
  environment = 'sandbox',
): Promise<any> {
  /* eslint-enable @typescript-eslint/no-explicit-any */
  const res = await service.call('POST', `/${environment}/account`, { body: buildAccountInput(customerIds) });
  expectSuccess(res, 'account', 201);
  return res.json.data;
}

/** The service's log lines, parsed. */
export const parsedLogLines = (service: TestService): Record<string, unknown>[] =>
  service.logLines.map((line) => JSON.parse(line) as Record<string, unknown>);

/** One line of the ledger export (GET /{environment}/ledger-entries, NDJSON), the fields the tests read. */
export interface ExportedLedgerLine {
  postingId: string;
  accountId: string;
  accountKind: string;
  direction: string;
}

/** The sandbox's whole ledger export as NDJSON, line by line, read with the service's own token. */
export async function exportedLedgerLines(service: TestService): Promise<ExportedLedgerLine[]> {
  const response = await fetch(`${service.url}/sandbox/ledger-entries`, {
    headers: { authorization: `Bearer ${service.token}`, accept: 'application/x-ndjson' },
  });
  if (response.status !== 200) throw new Error(`the ledger export answered ${response.status}`);
  return (await response.text())
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ExportedLedgerLine);
}

/** A posting's lines as `<accountKind> <direction>`, sorted: e.g. ['CUSTOMER CREDIT', 'INTEREST_EXPENSE DEBIT']. */
export const sidesOf = (lines: readonly ExportedLedgerLine[], postingId: string): string[] =>
  lines
    .filter((line) => line.postingId === postingId)
    .map(({ accountKind, direction }) => `${accountKind} ${direction}`)
    .sort();
