import { auditEventFor } from '../../domain/audit-event.js';
import { authorize } from '../../domain/authorization.js';
import type { Caller } from '../../domain/caller.js';
import { accountNotFound, customerNotFound, validationFailed } from '../../domain/errors.js';
import { isRecordId, newId } from '../../domain/ids.js';
import { type Page, pageOf, type PageQuery, pageSize, readPage } from '../../domain/pagination.js';
import { parseInput, toErrorDetails } from '../../domain/validation.js';
import type { CreateOptions, Creation, IdempotentCreation } from '../idempotency/index.js';
import { addNoteSchema, noteCursorSchema } from './note.schemas.js';
import type { Note, NoteStore, NoteSubject } from './ports.js';

const notFound = (subject: NoteSubject) => (subject === 'customer' ? customerNotFound() : accountNotFound());

/**
 * Case notes on customers and accounts (docs/adr/0105): append-only, newest first, each with its author. Adding
 * needs `notes:write`, reading `notes:read`, and nothing else: the note is its own record, answered whole to the
 * one who wrote it. Every refusal is a coded DomainError and changes nothing; every note is audited (its id,
 * never its text) in the statement that writes it.
 */
export class NoteService {
  constructor(
    private readonly stores: { notes: NoteStore },
    private readonly creation: IdempotentCreation,
  ) {}

  /**
   * Refusals, in order: FORBIDDEN, VALIDATION_FAILED (the key, then `text`: 1 to 2,000 characters after trimming,
   * no control character but line feeds and tabs), CUSTOMER_NOT_FOUND / ACCOUNT_NOT_FOUND. With an idempotency
   * key, a retry answers the note first written.
   */
  async add(
    caller: Caller,
    subject: NoteSubject,
    recordId: string,
    input: unknown,
    options?: CreateOptions,
  ): Promise<Creation<Note>> {
    authorize(caller, 'notes:write');
    const { idempotencyKey } = this.creation.parseOptions(options);
    const valid = parseInput(addNoteSchema, input);
    if (!isRecordId(recordId)) throw notFound(subject);
    const id = recordId.toLowerCase();
    const noteId = newId();
    const operation = subject === 'customer' ? 'customer.note.add' : 'account.note.add';
    const audit = auditEventFor(caller, {
      operation,
      resourceType: 'note',
      resourceId: noteId,
      changedFields: ['text'],
      idempotencyKey,
    });
    let written: Note | undefined;
    const { value, replayed } = await this.creation.run(
      caller,
      operation,
      { subject, recordId: id, text: valid.text },
      idempotencyKey,
      { noteId },
      async (idempotency) => {
        const insertion = await this.stores.notes.insert(
          {
            id: noteId,
            environment: caller.environment,
            subject,
            recordId: id,
            text: valid.text,
            author: { id: caller.principal.id, name: caller.principal.name ?? caller.principal.id },
          },
          { audit, idempotency },
        );
        if (insertion.outcome === 'not-found') throw notFound(subject);
        if (insertion.outcome === 'key-taken') return 'key-taken';
        written = insertion.note;
        return 'created';
      },
    );
    if (!replayed && written) return { value: written, replayed };
    // A replay: the note the first request wrote (append-only, so it is as it was answered then).
    const note = await this.stores.notes.findById(caller.environment, value.noteId);
    if (!note) throw notFound(subject);
    return { value: note, replayed };
  }

  /**
   * The first page of each record's notes (GraphQL's `notes` under a list of records, batched): in `recordIds`
   * order, as `list` answers it without `after`; an empty page for an id that names no record. One statement.
   */
  async firstPagesOfMany(
    caller: Caller,
    subject: NoteSubject,
    recordIds: readonly string[],
    first?: number,
  ): Promise<Page<Note>[]> {
    authorize(caller, 'notes:read');
    const size = pageSize(first);
    const ids = recordIds.filter(isRecordId).map((id) => id.toLowerCase());
    const notes =
      ids.length > 0 ? await this.stores.notes.newestOfMany(caller.environment, subject, ids, size + 1) : [];
    const byId = new Map(ids.map((id, i) => [id, notes[i]!]));
    return recordIds.map((id) => {
      const rows = (isRecordId(id) ? byId.get(id.toLowerCase()) : undefined) ?? [];
      const items = rows.slice(0, size);
      return { items, nextAfter: rows.length > size ? items.at(-1)!.noteId : null };
    });
  }

  /**
   * The record's notes, newest first, a page at a time (`after`: the last noteId of the previous page). Refusals:
   * FORBIDDEN, VALIDATION_FAILED (`first` outside 1–100; `after` not a note of this record), CUSTOMER_NOT_FOUND /
   * ACCOUNT_NOT_FOUND.
   */
  async list(caller: Caller, subject: NoteSubject, recordId: string, page: PageQuery = {}): Promise<Page<Note>> {
    authorize(caller, 'notes:read');
    const request = pageOf(page);
    if (request.after !== undefined) {
      const cursor = noteCursorSchema.safeParse(request.after, { reportInput: true });
      if (!cursor.success)
        throw validationFailed(toErrorDetails(cursor.error).map((detail) => ({ ...detail, field: 'after' })));
    }
    if (!isRecordId(recordId)) throw notFound(subject);
    const id = recordId.toLowerCase();
    let unknownCursor = false;
    const notes = await readPage(
      { first: request.first, after: request.after?.toLowerCase() },
      async (paged) => {
        const listed = await this.stores.notes.list(caller.environment, subject, id, paged);
        if (listed.outcome === 'not-found') throw notFound(subject);
        if (listed.outcome === 'cursor-unknown') {
          unknownCursor = true;
          return [];
        }
        return listed.notes;
      },
      (note) => note.noteId,
    );
    if (unknownCursor)
      throw validationFailed([
        {
          field: 'after',
          code: 'INVALID_VALUE',
          message: `Must be a noteId from a previous page of this ${subject}'s notes.`,
        },
      ]);
    return notes;
  }
}
