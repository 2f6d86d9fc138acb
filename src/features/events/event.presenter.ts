import { z } from 'zod';
import { type DomainEvent, EVENT_TYPES } from './event.js';
import type { EventPage } from './event.service.js';
import { ACCOUNT_ROLES, accountDataSchema, presentAccount } from '../accounts/index.js';
import { businessCustomerDataSchema, customerDataSchema, presentAnyCustomer } from '../customers/index.js';
import { recordId } from '../../presenters/record-id.js';
import { presentTransaction, transactionDataSchema } from '../ledger/index.js';
import { VERIFICATION_STATUSES, type VerificationStatus } from '../verification/index.js';

/**
 * What leaves the service for events (the event feed and webhook deliveries): the response schemas (the OpenAPI document is generated
 * from them; strict objects) and the presenters mapping domain values onto them field by field, so a field added to
 * the domain never reaches a client by accident. Shared by REST (inside its envelope), webhook delivery and the CLI.
 */

const changedFieldNames = z
  .array(z.string())
  .describe('The names of the fields the write set (a creation) or changed (an update); never their values.');

export const eventDataSchema = z
  .strictObject({
    eventId: recordId,
    type: z.enum(EVENT_TYPES).describe('What happened.'),
    sequence: z.number().int().describe('Gapless and increasing per environment: the order to apply events in.'),
    occurredAt: z.iso.datetime().describe('When the write committed, ISO 8601 UTC.'),
    resourceType: z.enum(['customer', 'account', 'transaction', 'product']),
    resourceId: recordId,
    data: z
      .union([
        customerDataSchema,
        businessCustomerDataSchema,
        accountDataSchema,
        transactionDataSchema,
        z.strictObject({ customerId: recordId }).describe('customer.deleted'),
        z.strictObject({ accountId: recordId }).describe('account.deleted'),
        z
          .strictObject({ accountId: recordId, customerId: recordId, role: z.enum(ACCOUNT_ROLES).optional() })
          .describe(
            'account.customer_added / account.customer_removed; account.relationship_changed, with the new `role` (given `accounts:read`).',
          ),
        z
          .strictObject({
            customerId: recordId,
            ownerCustomerId: recordId,
            prongs: z.array(z.enum(['OWNERSHIP', 'CONTROL'])),
            ownershipPercentage: z.string().nullable(),
            title: z.string().nullable(),
          })
          .describe(
            'customer.beneficial_owner_added / customer.beneficial_owner_removed (given `customers:read`): the business (`customerId`) and the owner.',
          ),
        z
          .strictObject({
            customerId: recordId,
            status: z.enum(VERIFICATION_STATUSES),
            previousStatus: z.enum(VERIFICATION_STATUSES),
          })
          .describe(
            "customer.verification_updated (given `verification:read`): the customer's verification status and the one it left.",
          ),
        z
          .strictObject({
            productId: recordId,
            code: z.string(),
            effectiveFrom: z.iso.date().optional(),
          })
          .describe(
            "product.created / product.rate_changed (with the new rate's `effectiveFrom`): the product's id and code; its terms are read with `products:read`.",
          ),
        z
          .strictObject({
            customerId: recordId,
            changedFields: changedFieldNames,
            requiredScope: z.enum(['customers:read', 'verification:read']),
          })
          .describe(
            'customer.created / customer.updated / customer.beneficial_owner_*, for a reader without `customers:read`, and customer.verification_updated without `verification:read`: the record is withheld.',
          ),
        z
          .strictObject({
            accountId: recordId,
            changedFields: changedFieldNames,
            requiredScope: z.literal('accounts:read'),
          })
          .describe('account.created / account.updated, for a reader without `accounts:read`: the record is withheld.'),
        z
          .strictObject({ transactionId: recordId, accountId: recordId, requiredScope: z.literal('accounts:read') })
          .describe('transaction.*, for a reader without `accounts:read`: the record is withheld.'),
      ])
      .describe(
        "The resource right after the write, as its own endpoint presents it (never an SSN, a document locator number or a tax id); for a deletion, its id. A reader without the resource's read scope gets its ids, the names of the fields the write set or changed, and the scope it lacks.",
      ),
  })
  .describe('One committed change, from the outbox.');

export const eventPageDataSchema = z
  .strictObject({
    events: z.array(eventDataSchema).describe('In sequence order.'),
    nextAfter: z
      .number()
      .int()
      .describe('Pass as `after` for the next page; equal to `after` when nothing newer exists yet (poll again).'),
  })
  .describe('A page of events.');

export const recordEventsDataSchema = z
  .strictObject({
    events: z
      .array(eventDataSchema)
      .describe("The record's numbered events, newest first (greatest `sequence` first)."),
  })
  .describe("A record's recent events.");

export type EventData = z.infer<typeof eventDataSchema>;
export type EventPageData = z.infer<typeof eventPageDataSchema>;
export type RecordEventsData = z.infer<typeof recordEventsDataSchema>;

/** An event's resource through the resource's own presenter: the same fields as its endpoint answers. */
function presentEventData(event: DomainEvent): EventData['data'] {
  const { data } = event;
  switch (data.kind) {
    case 'customer':
      return presentAnyCustomer(data.customer);
    case 'account':
      return presentAccount(data.account);
    case 'transaction':
      return presentTransaction(data.transaction);
    case 'holder':
      return data.role === undefined
        ? { accountId: data.accountId, customerId: data.customerId }
        : { accountId: data.accountId, customerId: data.customerId, role: data.role };
    case 'beneficial-owner':
      return {
        customerId: data.customerId,
        ownerCustomerId: data.ownerCustomerId,
        prongs: data.prongs as ('OWNERSHIP' | 'CONTROL')[],
        ownershipPercentage: data.ownershipPercentage,
        title: data.title,
      };
    case 'verification':
      return {
        customerId: data.customerId,
        status: data.status as VerificationStatus,
        previousStatus: data.previousStatus as VerificationStatus,
      };
    case 'product':
      return data.effectiveFrom === null
        ? { productId: data.productId, code: data.code }
        : { productId: data.productId, code: data.code, effectiveFrom: data.effectiveFrom };
    case 'deleted':
      return event.resourceType === 'customer' ? { customerId: data.id } : { accountId: data.id };
    case 'withheld':
      if (data.transactionId !== undefined)
        return { transactionId: data.transactionId, accountId: data.accountId!, requiredScope: data.readScope };
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

export const presentEventPage = (page: EventPage): EventPageData => ({
  events: page.items.map(presentEvent),
  nextAfter: page.nextAfter,
});

export const presentRecordEvents = (events: readonly DomainEvent[]): RecordEventsData => ({
  events: events.map(presentEvent),
});
