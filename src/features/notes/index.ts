/**
 * The notes feature's public face (docs/adr/0105): case notes on customers and accounts, append-only, newest first,
 * with their author. Its service, store, REST operations, presenters and GraphQL resolvers.
 */
export { NoteService } from './note.service.js';
export type { Note, NoteAuthor, NoteStore, NoteSubject } from './ports.js';
export { PrismaNoteStore } from './note.store.js';
export { NOTE_LIMITS } from './note.schemas.js';
export { listNotesQuery, NOTES_ROUTES } from './note.rest.js';
export {
  presentAccountNote,
  presentAccountNotePage,
  presentCustomerNote,
  presentCustomerNotePage,
} from './note.presenter.js';
export { noteResolvers } from './note.resolvers.js';
