/**
 * The examples of the REST reference: the ids every example uses and the request bodies. (A 400's example is the
 * same for every operation: the real refusal of a field no request takes, UNKNOWN_FIELD in failures.ts.)
 */

/** The ids used in the examples. */
export const EXAMPLE_IDS = {
  customerId: '0193a5c2-7f3e-7c41-9d2a-5b8e4f1c2a10',
  otherCustomerId: '0193a5c2-8a11-7e02-8f6b-1c3d5e7f9a21',
  accountId: '0193a5c3-0b42-7d15-a7c9-3e5f7a9b1c32',
  otherAccountId: '0193a5c3-1c53-7e26-b8da-4f6a8b0c2d43',
  transactionId: '0193a5c4-2d64-7f37-89eb-5a7b9c1d3e54',
  endpointId: '0193a5c5-3e75-7a48-9afc-6b8cad2e4f65',
  eventId: '0193a5c6-4f86-7b59-8b0d-7c9dbe3f5a76',
} as const;

/** Request examples. The SSN is the well-known documentation example (area 123), never a real person's. */
export const EXAMPLE_CREATE_CUSTOMER = {
  socialSecurityNumber: '123-45-6789',
  dateOfBirth: '1985-04-12',
  documentLocatorNumber: 12345678901,
  preferredName: 'Alex',
  firstName: 'Alexandra',
  middleName: 'Jane',
  lastName: 'Doe',
  emails: ['alex.doe@example.com'],
  phoneNumbers: [{ type: 'MOBILE', number: '+1 555 010 1234' }],
  addresses: [{ type: 'HOME', street: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' }],
};
export const EXAMPLE_UPDATE_CUSTOMER = { preferredName: 'Sandy', emails: ['sandy.doe@example.com'] };
export const EXAMPLE_CREATE_ACCOUNT = {
  associatedCustomerIds: [EXAMPLE_IDS.customerId, EXAMPLE_IDS.otherCustomerId],
  name: 'Joint Checking',
  currency: 'USD',
  type: 'CHECKING',
};
export const EXAMPLE_UPDATE_ACCOUNT = { name: 'Household Checking', currency: 'USD' };
export const EXAMPLE_POST_TRANSACTION = { type: 'CREDIT', amount: 25.5, description: 'Payroll deposit' };
export const EXAMPLE_TRANSFER = {
  fromAccountId: EXAMPLE_IDS.accountId,
  toAccountId: EXAMPLE_IDS.otherAccountId,
  amount: 100,
  description: 'Rent share',
};
