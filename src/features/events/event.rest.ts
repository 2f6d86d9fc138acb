import { EVENT_TYPES } from './event.js';
import { eventQuerySchema, RECENT_EVENTS, recentEventsQuerySchema } from './event.schemas.js';
import { eventDataSchema, eventPageDataSchema, recordEventsDataSchema } from './event.presenter.js';
import { eventNotFoundFailure, failure, validationFailureOf } from '../../rest/operations/failures.js';
import type { RestRoute } from '../../rest/operations/route.js';
import { parseQuery, type QueryString } from '../../rest/operations/query.js';
import type { Caller } from '../../domain/caller.js';
import type { PageQuery } from '../../domain/pagination.js';
import type { EventFilter } from './event.schemas.js';
import type { RecentPage } from './event.service.js';

/** `GET /{environment}/event`: the query string as EventService.find's filter and page. */
export function listEventsQuery(caller: Caller, query: QueryString): { filter: EventFilter; page: PageQuery<number> } {
  const { after, types, limit } = parseQuery(caller, 'events:read', eventQuerySchema, query);
  return { filter: types === undefined ? {} : { types }, page: { first: limit, after } };
}

/** `GET /{environment}/customer/{customerId}/event`, `…/account/{accountId}/event`: the query string as EventService.recent's page. */
export function recordEventsQuery(caller: Caller, query: QueryString): RecentPage {
  return { first: parseQuery(caller, 'events:read', recentEventsQuerySchema, query).limit };
}

/** The operations tagged Events, in the order of the reference. */
export const EVENTS_ROUTES = [
  {
    operationId: 'listEvents',
    method: 'GET',
    path: '/:environment/event',
    family: 'customer',
    tag: 'Events',
    summary: 'Read the events',
    description:
      'Not in the contract: every committed change of this environment (customers, accounts, holders, flags, transactions), in sequence order, a page at a time. ' +
      'Each write appends its events in its own database statement (an outbox): no event without its change, no change without its event. ' +
      `An event is readable within a moment of its commit, once numbered; \`sequence\` is gapless per environment. Types: ${EVENT_TYPES.join(', ')}. ` +
      "Kept EVENT_RETENTION_DAYS (default 30). Uses the customer endpoints' envelope (`log_ref_id`).",
    scope: 'events:read',
    query: {
      schema: eventQuerySchema,
      example: { after: '0', types: 'customer.created,transaction.posted', limit: '20' },
    },
    success: { status: 200, description: 'A page of events.', data: eventPageDataSchema, component: 'EventPage' },
    failures: [
      failure(
        'VALIDATION_FAILED',
        '`after`, `types` or `limit` is malformed, or an unknown parameter.',
        validationFailureOf(eventQuerySchema, { limit: '0' }),
      ),
    ],
  },
  {
    operationId: 'getEvent',
    method: 'GET',
    path: '/:environment/event/:eventId',
    family: 'customer',
    tag: 'Events',
    summary: 'Retrieve an event',
    description: 'One event of this environment.',
    scope: 'events:read',
    success: { status: 200, description: 'The event.', data: eventDataSchema, component: 'Event' },
    failures: [eventNotFoundFailure],
  },
  ...(['customer', 'account'] as const).map(
    (kind) =>
      ({
        operationId: kind === 'customer' ? 'listCustomerEvents' : 'listAccountEvents',
        method: 'GET',
        path: `/:environment/${kind}/:${kind}Id/event`,
        family: kind,
        tag: 'Events',
        summary: `Read ${kind === 'customer' ? 'a customer' : 'an account'}'s recent events`,
        description:
          `Not in the contract: the newest numbered events whose resource is this ${kind} (${kind}.*), newest first, at most \`limit\` ` +
          `(default ${RECENT_EVENTS.default}, at most ${RECENT_EVENTS.max}). The same events, sequences and visibility as \`GET /{environment}/event\`; ` +
          `${kind === 'account' ? "the account's transactions have events of their own (resource `transaction`). " : ''}` +
          `A filter of the events, not a read of the ${kind}: a deleted ${kind}'s events are answered, an unknown id answers none. ` +
          `Uses the ${kind} endpoints' envelope (\`${kind === 'customer' ? 'log_ref_id' : 'logRefId'}\`).`,
        scope: 'events:read',
        query: { schema: recentEventsQuerySchema, example: { limit: '10' } },
        success: {
          status: 200,
          description: `The ${kind}'s recent events.`,
          data: recordEventsDataSchema,
          component: kind === 'customer' ? 'CustomerEvents' : 'AccountEvents',
        },
        failures: [
          failure(
            'VALIDATION_FAILED',
            `\`${kind}Id\` is not a UUID, \`limit\` is outside 1 to ${RECENT_EVENTS.max}, or an unknown parameter.`,
            validationFailureOf(recentEventsQuerySchema, { limit: '0' }),
          ),
        ],
      }) as const satisfies RestRoute,
  ),
] as const satisfies readonly RestRoute[];
