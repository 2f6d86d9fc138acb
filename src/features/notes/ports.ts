import type { PageRequest } from '../../domain/pagination.js';
import type { CreationEffects } from '../../domain/write-effects.js';

/** What a note is about: a customer or an account (docs/adr/0105). */
export type NoteSubject = 'customer' | 'account';

/** Who wrote a note: the principal's id, and its display name then (the id when it had none). */
export interface NoteAuthor {
  id: string;
  name: string;
}

/** A case note as it is listed: exactly one of customerId and accountId. */
export interface Note {
  noteId: string;
  customerId: string | null;
  accountId: string | null;
  /** Case text an agent wrote: may hold personal data; never in an event, a log line or an audit row. */
  text: string;
  author: NoteAuthor;
  /** ISO 8601 UTC, when the note's statement ran. */
  createdAt: string;
}

export interface NewNoteRecord {
  id: string;
  environment: string;
  subject: NoteSubject;
  /** The customer's or the account's id (lower case). */
  recordId: string;
  text: string;
  author: NoteAuthor;
}

export type NoteInsertion = { outcome: 'created'; note: Note } | { outcome: 'key-taken' } | { outcome: 'not-found' };

export type NotePage = { outcome: 'listed'; notes: Note[] } | { outcome: 'not-found' } | { outcome: 'cursor-unknown' };

export interface NoteStore {
  /**
   * In one statement: the record's row held (FOR KEY SHARE) against a concurrent deletion, the note, its audit row
   * and its idempotency key. Nothing when the record does not exist or another request holds the key.
   */
  insert(note: NewNoteRecord, effects: CreationEffects): Promise<NoteInsertion>;
  /** A note by id (a replayed creation reads what the first one wrote). */
  findById(environment: string, noteId: string): Promise<Note | null>;
  /**
   * The record's notes, newest first (createdAt, then noteId), after the note `after` (which must be one of this
   * record's). One statement.
   */
  list(environment: string, subject: NoteSubject, recordId: string, page: PageRequest): Promise<NotePage>;
  /**
   * The newest `first` notes of each record, in `recordIds` order ([] for a record with none or no such record):
   * GraphQL's first pages under a list of records, in one statement.
   */
  newestOfMany(
    environment: string,
    subject: NoteSubject,
    recordIds: readonly string[],
    first: number,
  ): Promise<Note[][]>;
}
