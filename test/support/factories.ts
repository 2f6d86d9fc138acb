import { randomInt } from 'node:crypto';
import { EXAMPLE_CREATE_CUSTOMER } from '../../src/rest/routes.js';

/**
 * Test data builders. Every SSN and document locator number handed out is remembered in
 * SENSITIVE_VALUES so that helpers can assert none of them ever appears in a response or log line.
 */
export const SENSITIVE_VALUES = new Set<string>();

/** A valid, unique-per-run SSN in dashed form (area 001–665, group 01–99, serial 0001–9999). */
export function uniqueSsn(): string {
  for (;;) {
    const area = String(randomInt(1, 666)).padStart(3, '0');
    const group = String(randomInt(1, 100)).padStart(2, '0');
    const serial = String(randomInt(1, 10_000)).padStart(4, '0');
    const ssn = `${area}-${group}-${serial}`;
    if (!SENSITIVE_VALUES.has(ssn)) {
      SENSITIVE_VALUES.add(ssn);
      SENSITIVE_VALUES.add(ssn.replaceAll('-', ''));
      return ssn;
    }
  }
}

/** A document locator number long enough that finding it in output cannot be a coincidence. */
export function uniqueDocumentLocatorNumber(): number {
  const dln = randomInt(10_000_000_000, 99_999_999_999);
  SENSITIVE_VALUES.add(String(dln));
  return dln;
}

export interface CustomerInput {
  socialSecurityNumber: string;
  dateOfBirth: string;
  documentLocatorNumber: number;
  preferredName: string;
  firstName: string;
  middleName: string;
  lastName: string;
  emails: string[];
  phoneNumbers: { type: string; number: string }[];
  addresses: { type: string; street: string; city: string; state: string; zip: string }[];
}

/**
 * The reference's example customer (src/rest/routes.ts), with an SSN and a document locator number of its own;
 * a copy, so a test that changes its lists changes no other test's.
 */
export function buildCustomerInput(overrides: Partial<CustomerInput> = {}): CustomerInput {
  return {
    ...structuredClone(EXAMPLE_CREATE_CUSTOMER),
    socialSecurityNumber: uniqueSsn(),
    documentLocatorNumber: uniqueDocumentLocatorNumber(),
    ...overrides,
  };
}

export interface AccountInput {
  associatedCustomerIds: string[];
  name: string;
  currency: string;
  type: string;
}

export function buildAccountInput(
  associatedCustomerIds: string[],
  overrides: Partial<AccountInput> = {},
): AccountInput {
  return { associatedCustomerIds, name: 'Everyday Checking', currency: 'USD', type: 'CHECKING', ...overrides };
}

/** Fails with the offending value's kind (never the value itself) if `text` contains a sensitive value. */
export function assertNoSensitiveValues(text: string, where: string): void {
  for (const value of SENSITIVE_VALUES) {
    if (text.includes(value)) throw new Error(`A test SSN or document locator number appeared in ${where}`);
  }
}
