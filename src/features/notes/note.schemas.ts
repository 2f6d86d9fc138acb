import { z } from 'zod';
import { isRecordId } from '../../domain/ids.js';
import { limitParameter } from '../../domain/pagination.js';
import { maxLength, multilineText } from '../../domain/validation.js';

/** docs/adr/0105: a note's text, in characters after trimming. */
export const NOTE_LIMITS = { textLength: 2000 } as const;

/** `POST …/note`'s body and `addCustomerNote` / `addAccountNote`'s `text`. */
export const addNoteSchema = z.strictObject({ text: multilineText(NOTE_LIMITS.textLength) });

export type AddNoteInput = z.output<typeof addNoteSchema>;

/** A page's cursor: the noteId of the previous page's last note (36 characters; the bound aborts first). */
export const noteCursorSchema = z
  .string({ error: 'Must be a string.' })
  .max(36, maxLength(36, 'Must be a noteId from a previous page.'))
  .refine(isRecordId, 'Must be a noteId from a previous page.');

/** Query of `GET …/note`: `limit` (1–100, default 20) and `after` (the `nextAfter` of the previous page). */
export const notePageQuerySchema = z.strictObject({
  limit: limitParameter.optional(),
  after: noteCursorSchema.optional(),
});
