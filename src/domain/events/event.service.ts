import { authorize } from '../authorization.js';
import { eventNotFound } from '../errors.js';
import { isRecordId } from '../ids.js';
import { PAGE_SIZE } from '../pagination.js';
import type { RequestScope } from '../scope.js';
import { parseInput } from '../validation.js';
import type { DomainEvent, EventStore } from './event.js';
import { eventQuerySchema } from './event.schemas.js';

export interface EventPage {
  events: DomainEvent[];
  /** Pass as `after` for the next page; equal to `after` when there was nothing newer (poll again later). */
  nextAfter: number;
}

/** The events API: the outbox, read in sequence order. */
export class EventService {
  constructor(private readonly events: EventStore) {}

  async list(scope: RequestScope, query: unknown): Promise<EventPage> {
    authorize(scope, 'events:read');
    const valid = parseInput(eventQuerySchema, query ?? {});
    const after = valid.after ?? 0;
    const events = await this.events.list(scope.environment, { after, types: valid.types, limit: valid.limit ?? PAGE_SIZE.default });
    return { events, nextAfter: events.at(-1)?.sequence ?? after };
  }

  async get(scope: RequestScope, eventId: string): Promise<DomainEvent> {
    authorize(scope, 'events:read');
    const event = isRecordId(eventId) ? await this.events.find(scope.environment, eventId.toLowerCase()) : null;
    if (!event) throw eventNotFound();
    return event;
  }
}
