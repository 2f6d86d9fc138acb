import { randomInt } from 'node:crypto';
import { expect } from 'vitest';
import { SENSITIVE_VALUES } from '../../support/factories.js';
import type { TestService } from '../../support/service.js';

/**
 * A unique EIN (NN-NNNNNNN), remembered in both spellings with the test SSNs: every answer, log line and audit
 * row the test service writes is checked for them (test/support/service.ts).
 */
export function uniqueEin(): string {
  for (;;) {
    const ein = `${randomInt(10, 100)}-${String(randomInt(0, 10_000_000)).padStart(7, '0')}`;
    if (!SENSITIVE_VALUES.has(ein)) {
      SENSITIVE_VALUES.add(ein);
      SENSITIVE_VALUES.add(ein.replace('-', ''));
      return ein;
    }
  }
}

export interface BusinessInput {
  customerType: 'BUSINESS';
  legalName: string;
  doingBusinessAs?: string | null;
  taxId: string;
  entityType: string;
  formationDate: string;
  formationState?: string | null;
  formationCountry: string;
  industry?: string | null;
  website?: string | null;
  emails: string[];
  phoneNumbers: { type: string; number: string }[];
  addresses: { type: string; street: string; city: string; state: string; zip: string }[];
  [field: string]: unknown;
}

export function buildBusinessInput(overrides: Partial<BusinessInput> = {}): BusinessInput {
  return {
    customerType: 'BUSINESS',
    legalName: `Acme Widgets ${randomInt(1_000_000)} LLC`,
    doingBusinessAs: 'Acme',
    taxId: uniqueEin(),
    entityType: 'LLC',
    formationDate: '2015-03-01',
    formationState: 'DE',
    formationCountry: 'US',
    industry: '332710',
    website: 'https://acme.example.com',
    emails: ['ops@acme.example.com'],
    phoneNumbers: [{ type: 'WORK', number: '+1 202 555 0142' }],
    addresses: [{ type: 'OFFICE', street: '1 Main St', city: 'Dover', state: 'DE', zip: '19901' }],
    ...overrides,
  };
}

/** What a business answers, exactly (no person field, never the tax id). */
export const BUSINESS_DATA_KEYS = [
  'customerId',
  'customerType',
  'legalName',
  'doingBusinessAs',
  'entityType',
  'formationDate',
  'formationState',
  'formationCountry',
  'industry',
  'website',
  'beneficialOwnerIds',
  'accountIds',
  'emails',
  'phoneNumbers',
  'addresses',
].sort();

/** Rows of every table a customer's write touches: a refusal must leave them all as they were. */
export async function writeCounts(service: TestService): Promise<Record<string, number>> {
  const { rows } = await service.database.pool.query<Record<string, string>>(
    `SELECT (SELECT count(*) FROM customers) AS customers, (SELECT count(*) FROM business_profiles) AS profiles,
            (SELECT count(*) FROM events) AS events, (SELECT count(*) FROM idempotency_keys) AS keys,
            (SELECT md5(coalesce(string_agg(concat_ws(':', customer_id, legal_name, doing_business_as, website, industry), ',' ORDER BY customer_id), '')) FROM business_profiles) AS digest,
            (SELECT md5(coalesce(string_agg(concat_ws(':', id, version, emails::text, external_id), ',' ORDER BY id), '')) FROM customers) AS customers_digest`,
  );
  const row = rows[0]!;
  return Object.fromEntries(
    Object.entries(row).map(([key, value]) => [key, key.endsWith('digest') ? value : Number(value)]),
  ) as Record<string, number>;
}

/** Runs a request that must be refused, and asserts that no customer, profile, event or key changed. */
export async function expectNothingChanged<T>(service: TestService, request: () => Promise<T>): Promise<T> {
  const before = await writeCounts(service);
  const result = await request();
  expect(await writeCounts(service)).toEqual(before);
  return result;
}
