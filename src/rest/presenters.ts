import type { Account } from '../domain/accounts/account.js';
import type { AuditPage } from '../domain/audit/audit.service.js';
import type { Address, Customer, Phone } from '../domain/customers/customer.js';

/**
 * What leaves the service over REST, field by field. Whitelisting here (rather than spreading domain
 * objects) means a field added to the domain can never reach a client by accident.
 */

export interface CustomerData {
  customerId: string;
  accountIds: string[];
  addresses: Address[];
  dateOfBirth: string;
  emails: string[];
  firstName: string;
  lastName: string;
  middleName: string;
  phoneNumbers: Phone[];
  preferredName: string;
}

export interface AccountData {
  accountId: string;
  type: string;
  name: string;
  amount: number;
  currency: string;
  customers: string[];
  transactions: never[];
  flags: string[];
}

const presentPhone = (phone: Phone): Phone => ({ type: phone.type, number: phone.number });

const presentAddress = (address: Address): Address => ({
  type: address.type,
  street: address.street,
  city: address.city,
  state: address.state,
  zip: address.zip,
});

export const presentCustomer = (customer: Customer): CustomerData => ({
  customerId: customer.customerId,
  accountIds: [...customer.accountIds],
  addresses: customer.addresses.map(presentAddress),
  dateOfBirth: customer.dateOfBirth,
  emails: [...customer.emails],
  firstName: customer.firstName,
  lastName: customer.lastName,
  middleName: customer.middleName,
  phoneNumbers: customer.phoneNumbers.map(presentPhone),
  preferredName: customer.preferredName,
});

/** The contract shows `amount` as a JSON number; the domain keeps it as an exact decimal string. */
export const presentAccount = (account: Account): AccountData => ({
  accountId: account.accountId,
  type: account.type,
  name: account.name,
  amount: Number(account.amount),
  currency: account.currency,
  customers: [...account.customerIds],
  // never[] today: when transactions get fields, this line stops compiling until they are whitelisted.
  transactions: [...account.transactions],
  flags: [...account.flags],
});

export interface AuditEventData {
  eventId: string;
  occurredAt: string;
  principalId: string;
  operation: string;
  resourceType: string;
  resourceId: string;
  requestId: string;
  idempotencyKey: string | null;
  changedFields: string[];
}

export const presentAuditPage = (page: AuditPage): { events: AuditEventData[]; nextCursor: string | null } => ({
  events: page.events.map((event) => ({
    eventId: event.eventId,
    occurredAt: event.occurredAt,
    principalId: event.principalId,
    operation: event.operation,
    resourceType: event.resourceType,
    resourceId: event.resourceId,
    requestId: event.requestId,
    idempotencyKey: event.idempotencyKey,
    changedFields: [...event.changedFields],
  })),
  nextCursor: page.nextCursor,
});
