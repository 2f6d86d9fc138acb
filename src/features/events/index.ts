/**
 * The events feature's public face (the outbox, its numbering, the events API, subscriptions and their
 * feed), for the other features and the composition root. Webhooks deliver these events: their store reads
 * the outbox with the event store's columns and the numbering's SQL.
 */
export { type DomainEvent, EVENT_TYPES, type EventType } from './event.js';
export { EVENT_READ_SCOPES, eventAsSeenWith } from './event-visibility.js';
export { type EventFilter, RECENT_EVENTS, recentEventsFirst } from './event.schemas.js';
export type { EventFeed, EventStore, WakeUps } from './ports.js';
export { EventService, type EventPage, type RecentPage } from './event.service.js';
export { EVENT_FIELDS, type EventRow, PrismaEventStore, toEvent } from './event.store.js';
export { numberedEventsAfter, numberOf, roundOf } from './event-round-fragments.js';
export { readOutboxBacklog } from './outbox-backlog.store.js';
export { presentEvent, presentEventPage, presentRecordEvents } from './event.presenter.js';
export { EVENTS_ROUTES, listEventsQuery, recordEventsQuery } from './event.rest.js';
export { eventResolvers } from './event.resolvers.js';
export { subscriptionResolvers } from './event-subscription.resolvers.js';
export { startEventFeed } from './event-feed.job.js';
export { startEventOutbox } from './event-outbox.job.js';
