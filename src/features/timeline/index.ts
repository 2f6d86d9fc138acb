/**
 * The timeline feature's public face (docs/adr/0111): a customer's story, newest first, read from the audit trail,
 * the ledger, the flags and their lifts, and the notes. Its service, store and GraphQL resolvers.
 */
export { TimelineService } from './timeline.service.js';
export { PrismaTimelineStore } from './timeline.store.js';
export type { TimelineStore } from './ports.js';
export { TIMELINE_KINDS, type TimelineEntry, type TimelineKind, type TimelinePage } from './timeline.js';
export { timelineResolvers } from './timeline.resolvers.js';
