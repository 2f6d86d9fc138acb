import { z } from 'zod';
import type { Page } from '../../domain/pagination.js';
import { recordId } from '../../presenters/record-id.js';
import { NOTE_LIMITS } from './note.schemas.js';
import type { Note } from './ports.js';

/**
 * What leaves the service of a case note (docs/adr/0105): strict schemas the OpenAPI document is generated from, and
 * presenters mapping the domain's note onto them field by field. A customer's note names its customer, an
 * account's its account.
 */

const authorSchema = z
  .strictObject({
    id: z
      .string()
      .describe(
        'The principal that wrote the note: token:<id>, jwt:<subject> or static:<keyed label>, as the audit trail names it.',
      ),
    name: z
      .string()
      .describe(
        "Its display name when the note was written: a managed token's name, a JWT's `name` claim; else the id.",
      ),
  })
  .describe('Who wrote the note.');

const noteFields = {
  noteId: recordId,
  text: z
    .string()
    .describe(`The note, trimmed: 1 to ${NOTE_LIMITS.textLength} characters; line feeds and tabs are kept.`),
  author: authorSchema,
  createdAt: z.iso.datetime().describe('When the note was written, ISO 8601 UTC.'),
};

export const customerNoteDataSchema = z
  .strictObject({
    noteId: noteFields.noteId,
    customerId: recordId,
    text: noteFields.text,
    author: noteFields.author,
    createdAt: noteFields.createdAt,
  })
  .describe('A case note on a customer. Append-only: it never changes and cannot be deleted.');

export const accountNoteDataSchema = z
  .strictObject({
    noteId: noteFields.noteId,
    accountId: recordId,
    text: noteFields.text,
    author: noteFields.author,
    createdAt: noteFields.createdAt,
  })
  .describe('A case note on an account. Append-only: it never changes and cannot be deleted.');

const pageOf = (note: z.ZodType, what: string) =>
  z
    .strictObject({
      notes: z.array(note).describe('Newest first (then by noteId).'),
      nextAfter: recordId.nullable().describe('Pass as `after` for the next (older) page; null on the last page.'),
    })
    .describe(`A page of ${what} notes.`);

export const customerNotePageDataSchema = pageOf(customerNoteDataSchema, "a customer's");
export const accountNotePageDataSchema = pageOf(accountNoteDataSchema, "an account's");

const author = (note: Note) => ({ id: note.author.id, name: note.author.name });

export const presentCustomerNote = (note: Note): z.infer<typeof customerNoteDataSchema> => ({
  noteId: note.noteId,
  customerId: note.customerId!,
  text: note.text,
  author: author(note),
  createdAt: note.createdAt,
});

export const presentAccountNote = (note: Note): z.infer<typeof accountNoteDataSchema> => ({
  noteId: note.noteId,
  accountId: note.accountId!,
  text: note.text,
  author: author(note),
  createdAt: note.createdAt,
});

export const presentCustomerNotePage = (page: Page<Note>) => ({
  notes: page.items.map(presentCustomerNote),
  nextAfter: page.nextAfter,
});

export const presentAccountNotePage = (page: Page<Note>) => ({
  notes: page.items.map(presentAccountNote),
  nextAfter: page.nextAfter,
});
