/**
 * The links between customers and accounts, read as a graph (GraphQL's one statement for a record and
 * everything a few links away) and their bounds (GraphQL's cost): the read model's port, its service and its store.
 */
export type { LinkBounds, LinkedIds, LinkReadModel, LinkRoots } from './ports.js';
export { LinkService, MAX_LINK_DEPTH, type Walk, type WalkShape } from './link.service.js';
export { PrismaLinkReadModel } from './link.read-model.js';
