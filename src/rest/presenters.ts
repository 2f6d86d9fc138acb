import type { Account } from '../domain/accounts/account.js';
import type { AuditPage } from '../domain/audit/audit.service.js';
import type { Address, Customer, Phone } from '../domain/customers/customer.js';
import type { AccountData, AuditPageData, CustomerData } from './response-schemas.js';

export type { AccountData, AuditPageData, CustomerData } from './response-schemas.js';

/**
 * What leaves the service over REST, field by field. Whitelisting here (rather than spreading domain
 * objects) means a field added to the domain can never reach a client by accident. The output types
 * come from the published response schemas (src/rest/response-schemas.ts).
 */

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

export const presentAuditPage = (page: AuditPage): AuditPageData => ({
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
