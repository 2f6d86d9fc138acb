/**
 * The links between customers and accounts, read as a graph (the GraphQL look-ahead's one statement for a
 * record and everything a few links away): the read model's port, its service and its store.
 */
export type { LinkReadModel, LinkRoots } from './ports.js';
export { LinkService } from './link.service.js';
export { PrismaLinkReadModel } from './link.read-model.js';
