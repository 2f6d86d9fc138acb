import type { Account } from '../domain/accounts/account.js';
import type { AccountPage } from '../domain/accounts/account.service.js';
import type { AuditPage } from '../domain/audit/audit.service.js';
import type { Address, Customer, Phone } from '../domain/customers/customer.js';
import type { CustomerPage } from '../domain/customers/customer.service.js';
import type { DomainEvent } from '../domain/events/event.js';
import type { EventPage } from '../domain/events/event.service.js';
import type { Transaction } from '../domain/ledger/transaction.js';
import type { WebhookAttempt, WebhookEndpoint } from '../domain/webhooks/webhook.js';
import type { TransactionPageResult, Transfer } from '../domain/ledger/ledger.service.js';
import type {
  AccountData,
  AuditPageData,
  CustomerData,
  CustomerPageData,
  AccountPageData,
  EventData,
  EventPageData,
  TransactionData,
  TransactionPageData,
  TransferData,
  WebhookAttemptPageData,
  WebhookEndpointData,
} from './response-schemas.js';


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
export const presentCustomerPage = (page: CustomerPage): CustomerPageData => ({ customers: page.customers.map(presentCustomer), nextAfter: page.nextAfter });

export const presentAccount = (account: Account): AccountData => ({
  accountId: account.accountId,
  type: account.type,
  name: account.name,
  amount: Number(account.amount),
  currency: account.currency,
  customers: [...account.customerIds],
  transactions: account.transactions.map(presentTransaction),
  flags: account.flags as AccountData['flags'],
});

/** Amounts as JSON numbers, as the spec shows `amount`: exact, because they have at most the currency's minor-unit digits. */
export const presentTransaction = (transaction: Transaction): TransactionData => ({
  transactionId: transaction.transactionId,
  accountId: transaction.accountId,
  type: transaction.type,
  amount: Number(transaction.amount),
  authorizedAmount: Number(transaction.authorizedAmount),
  currency: transaction.currency,
  description: transaction.description,
  status: transaction.status,
  balanceAfter: transaction.balanceAfter === null ? null : Number(transaction.balanceAfter),
  createdAt: transaction.createdAt,
  postedAt: transaction.postedAt,
  voidedAt: transaction.voidedAt,
  expiresAt: transaction.expiresAt,
  transferId: transaction.transferId,
  reversesTransactionId: transaction.reversesTransactionId,
});

export const presentAccountPage = (page: AccountPage): AccountPageData => ({ accounts: page.accounts.map(presentAccount), nextAfter: page.nextAfter });

export const presentTransactionPage = (page: TransactionPageResult): TransactionPageData => ({
  transactions: page.transactions.map(presentTransaction),
  nextAfter: page.nextAfter,
});

export const presentTransfer = (transfer: Transfer): TransferData => ({
  transferId: transfer.transferId,
  amount: Number(transfer.amount),
  currency: transfer.currency,
  description: transfer.description,
  debit: presentTransaction(transfer.debit),
  credit: presentTransaction(transfer.credit),
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
    ...(event.matchedCount !== undefined && { matchedCount: event.matchedCount }),
  })),
  nextCursor: page.nextCursor,
});

/** An event's resource through the resource's own presenter: the same fields as its endpoint answers. */
function presentEventData(event: DomainEvent): EventData['data'] {
  const { data } = event;
  switch (data.kind) {
    case 'customer':
      return presentCustomer(data.customer);
    case 'account':
      return presentAccount(data.account);
    case 'transaction':
      return presentTransaction(data.transaction);
    case 'holder':
      return { accountId: data.accountId, customerId: data.customerId };
    case 'deleted':
      return event.resourceType === 'customer' ? { customerId: data.id } : { accountId: data.id };
    case 'withheld':
      if (data.transactionId !== undefined) return { transactionId: data.transactionId, accountId: data.accountId!, requiredScope: data.readScope };
      return data.customerId !== undefined
        ? { customerId: data.customerId, changedFields: [...event.changedFields], requiredScope: data.readScope }
        : { accountId: data.accountId!, changedFields: [...event.changedFields], requiredScope: data.readScope };
  }
}

export const presentEvent = (event: DomainEvent): EventData => ({
  eventId: event.eventId,
  type: event.type,
  sequence: event.sequence,
  occurredAt: event.occurredAt,
  resourceType: event.resourceType,
  resourceId: event.resourceId,
  data: presentEventData(event),
});

export const presentEventPage = (page: EventPage): EventPageData => ({ events: page.events.map(presentEvent), nextAfter: page.nextAfter });

/** Never the secret: it is answered only by the creation and the rotation, by their own handlers. */
export const presentWebhookEndpoint = (endpoint: WebhookEndpoint): WebhookEndpointData => ({
  endpointId: endpoint.endpointId,
  url: endpoint.url,
  eventTypes: [...endpoint.eventTypes],
  enabled: endpoint.enabled,
  disabledReason: endpoint.disabledReason,
  createdAt: endpoint.createdAt,
  updatedAt: endpoint.updatedAt,
  failingSince: endpoint.failingSince,
  previousSecretExpiresAt: endpoint.previousSecretExpiresAt,
});

export const presentWebhookAttempts = (attempts: WebhookAttempt[]): WebhookAttemptPageData => ({
  attempts: attempts.map((attempt) => ({
    attemptId: attempt.attemptId,
    eventId: attempt.eventId,
    attemptedAt: attempt.attemptedAt,
    statusCode: attempt.statusCode,
    latencyMs: attempt.latencyMs,
    succeeded: attempt.succeeded,
    error: attempt.error,
  })),
});
