import { describe, expect, it } from 'vitest';
import type { Account } from '../../src/features/accounts/account.js';
import type { Customer } from '../../src/features/customers/customer.js';
import { envelope, envelopeFamilyOf, envelopePieces, LIST_ITEMS_PER_PIECE } from '../../src/rest/envelope.js';
import { presentAccount } from '../../src/features/accounts/account.presenter.js';
import { presentCustomer } from '../../src/features/customers/customer.presenter.js';
import { ACCOUNT_DATA_KEYS, CUSTOMER_DATA_KEYS } from './helpers.js';

// Domain objects carrying extra keys, as a future domain field (or a store bug) would: none may leave.
const customer = {
  customerId: '0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8e',
  accountIds: ['0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8f'],
  preferredName: 'Alex',
  firstName: 'Alexandra',
  middleName: '',
  lastName: 'Doe',
  dateOfBirth: '1985-04-12',
  emails: ['alex@example.com'],
  phoneNumbers: [{ type: 'MOBILE', number: '+1 555 0100', verifiedAt: '2024-01-01' }],
  addresses: [{ type: 'HOME', street: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701', geo: [1, 2] }],
  socialSecurityNumber: '123-45-6789',
  documentLocatorNumber: 12345678901,
  ssnCiphertext: 'AAAA',
} as unknown as Customer;

const account = {
  accountId: '0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8f',
  type: 'CHECKING',
  name: 'Everyday',
  amount: '-12.500000',
  currency: 'USD',
  customerIds: ['0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8e'],
  transactions: [],
  flags: ['FROZEN'],
  environment: 'sandbox',
  createdAt: new Date(),
} as unknown as Account;

describe('presentCustomer', () => {
  it('emits exactly the contract fields, nested objects included', () => {
    const data = presentCustomer(customer);
    expect(Object.keys(data).sort()).toEqual([...CUSTOMER_DATA_KEYS].sort());
    expect(Object.keys(data.phoneNumbers[0]!).sort()).toEqual(['number', 'type']);
    expect(Object.keys(data.addresses[0]!).sort()).toEqual(['city', 'state', 'street', 'type', 'zip']);
    const text = JSON.stringify(data);
    for (const secret of ['123-45-6789', '12345678901', 'AAAA', 'verifiedAt', 'geo'])
      expect(text).not.toContain(secret);
  });

  it('copies arrays, so later changes to the domain object cannot alter a response', () => {
    const data = presentCustomer(customer);
    expect(data.accountIds).not.toBe(customer.accountIds);
    expect(data.emails).not.toBe(customer.emails);
  });
});

describe('presentAccount', () => {
  it('emits exactly the contract fields, customers as id strings and amount as a JSON number', () => {
    const data = presentAccount(account);
    expect(Object.keys(data).sort()).toEqual([...ACCOUNT_DATA_KEYS].sort());
    expect(data).toEqual({
      accountId: account.accountId,
      type: 'CHECKING',
      name: 'Everyday',
      amount: -12.5,
      currency: 'USD',
      customers: ['0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8e'],
      transactions: [],
      flags: ['FROZEN'],
    });
    expect(JSON.stringify(data)).toContain('"amount":-12.5,');
  });
});

describe('envelope', () => {
  it('uses log_ref_id for customers and logRefId for accounts, in the contract order', () => {
    expect(Object.keys(envelope('customer', 'r1', { data: {} }))).toEqual([
      'data',
      'success',
      'error',
      'requestId',
      'log_ref_id',
    ]);
    expect(Object.keys(envelope('account', 'r1', { data: {} }))).toEqual([
      'data',
      'success',
      'error',
      'requestId',
      'logRefId',
    ]);
    expect(envelope('account', 'r1', { error: { code: 'X', message: 'm' } })).toEqual({
      data: null,
      success: false,
      error: { code: 'X', message: 'm' },
      requestId: 'r1',
      logRefId: 'r1',
    });
  });

  it('chooses the family of an unclaimed path by its resource segment', () => {
    expect(envelopeFamilyOf('/sandbox/account')).toBe('account');
    expect(envelopeFamilyOf('/sandbox/account/x/y?z=1')).toBe('account');
    expect(envelopeFamilyOf('/sandbox/customer/x')).toBe('customer');
    expect(envelopeFamilyOf('/sandbox/accounts')).toBe('customer');
    expect(envelopeFamilyOf('/')).toBe('customer');
  });

  it("writes a long list in pieces that join to exactly the envelope, none of them one of V8's large objects", () => {
    const entry = (i: number) => ({
      transactionId: `0190a8f2-9d7e-7cc4-8f5e-${String(i).padStart(12, '0')}`,
      type: i % 2 ? 'CREDIT' : 'DEBIT',
      amount: i / 100,
      description: 'a "quoted" \u2028 café',
      sequence: String(i),
    });
    const statementOf = (count: number) => ({
      accountId: 'a',
      openingBalance: 1.5,
      entries: Array.from({ length: count }, (_, i) => entry(i)),
    });
    for (const family of ['account', 'customer'] as const) {
      for (const count of [0, 1, LIST_ITEMS_PER_PIECE, LIST_ITEMS_PER_PIECE + 1, 3 * LIST_ITEMS_PER_PIECE, 1_234]) {
        const data = statementOf(count);
        const pieces = envelopePieces(family, 'r1', data, 'entries');
        expect(pieces.join(''), `${family} ${count}`).toBe(JSON.stringify(envelope(family, 'r1', { data })));
        expect(pieces.length, `${family} ${count}`).toBe(
          count <= LIST_ITEMS_PER_PIECE ? 1 : Math.ceil(count / LIST_ITEMS_PER_PIECE) + 2,
        );
      }
    }
    const pieces = envelopePieces('account', 'r1', statementOf(10_000), 'entries');
    expect(Math.max(...pieces.map((piece) => Buffer.byteLength(piece)))).toBeLessThan(128 * 1024);
    // Only a list that is data's last field is cut: any other answer is the envelope in one piece.
    const notLast = { entries: statementOf(500).entries, accountId: 'a' };
    expect(envelopePieces('account', 'r1', notLast, 'entries')).toEqual([
      JSON.stringify(envelope('account', 'r1', { data: notLast })),
    ]);
    // An object inside data that ends as the list's own field does is not taken for it.
    const lookalike = { inner: { entries: [] }, success: true, entries: statementOf(500).entries };
    expect(envelopePieces('account', 'r1', lookalike, 'entries').join('')).toBe(
      JSON.stringify(envelope('account', 'r1', { data: lookalike })),
    );
  });
});
