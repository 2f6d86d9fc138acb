import type { TimelineEntry, TimelineKind } from './timeline.js';

export type { TimelineEntry, TimelineKind, TimelinePage } from './timeline.js';

/** Where a timeline page starts: after this entry (its time and id), older entries only. */
export interface TimelinePosition {
  at: Date;
  id: string;
}

export interface TimelineQuery {
  environment: string;
  customerId: string;
  /** The kinds to read: those asked for that the reader may read. */
  kinds: readonly TimelineKind[];
  after: TimelinePosition | null;
  first: number;
}

export interface TimelineStore {
  /** At most `first` entries of the customer's timeline, newest first (then by id); null when there is no such customer. */
  read(query: TimelineQuery): Promise<TimelineEntry[] | null>;
}
