import type { PrismaClient } from '../../db/connection/prisma-client.js';
import { isLockTimeout } from '../../db/sql/errors.js';
import { queryRows, statement } from '../../db/sql/sql.js';
import {
  auditInsert,
  auditValues,
  claimQueries,
  claimValues,
  DEFAULT_IDEMPOTENCY_WAIT_MS,
} from '../../db/sql/write-effects.js';
import { idempotencyKeyInProgress } from '../../domain/errors.js';
import type { PageRequest } from '../../domain/pagination.js';
import type { CreationEffects } from '../../domain/write-effects.js';
import type { NewNoteRecord, Note, NoteInsertion, NotePage, NoteStore, NoteSubject } from './ports.js';

/** A note as it lists (alias `n`): createdAt in UTC with milliseconds. */
const NOTE_COLUMNS = `n.id::text AS "noteId", n.customer_id::text AS "customerId", n.account_id::text AS "accountId", n.text,
  n.author_id AS "authorId", n.author_name AS "authorName", to_char(n.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"`;

/** The table a subject's id names, and the note's column holding it. */
const SUBJECT: Record<NoteSubject, { table: string; column: string }> = {
  customer: { table: 'customers', column: 'customer_id' },
  account: { table: 'accounts', column: 'account_id' },
};

/**
 * The note ($1…$6), its audit row ($7…) and, with a key, the key's record ($16…), in one statement, written only
 * when the record exists. Its row is held FOR KEY SHARE until the statement commits (a deletion needs FOR UPDATE):
 * a note is never written for a record deleted meanwhile. No event: the text is case text and the issue asks that
 * events carry no more than ids; the audit row and the list are where a note shows (docs/adr/0105).
 */
const insertSql = (subject: NoteSubject, withKey: boolean) => {
  const { table, column } = SUBJECT[subject];
  return `WITH subject AS (SELECT r.id FROM ${table} r WHERE r.id = $3::uuid AND r.environment = $2::varchar FOR KEY SHARE),
     ${withKey ? `${claimQueries(16, 'EXISTS (SELECT 1 FROM subject)')},` : ''}
     note AS (
       INSERT INTO notes (id, environment, ${column}, text, author_id, author_name)
       SELECT $1::uuid, $2::varchar, s.id, $4::text, $5::varchar, $6::varchar FROM subject s${withKey ? ' CROSS JOIN claimed' : ''}
       RETURNING *
     ), audit AS (${auditInsert(7, 'note')})
   SELECT (SELECT count(*)::int FROM subject) AS found, ${NOTE_COLUMNS} FROM (SELECT 1) one LEFT JOIN note n ON true`;
};

/**
 * A page of a record's notes, newest first, after the cursor note ($3, NULL for the first page), at most $4; with
 * whether the record exists and the cursor is one of its notes (an unknown cursor reads nothing).
 */
const listSql = (subject: NoteSubject) => {
  const { table, column } = SUBJECT[subject];
  return `SELECT s.found, s."cursorFound", ${NOTE_COLUMNS}
     FROM (SELECT EXISTS (SELECT 1 FROM ${table} r WHERE r.id = $2::uuid AND r.environment = $1) AS found,
                  ($3::uuid IS NULL OR EXISTS (SELECT 1 FROM notes k WHERE k.id = $3::uuid AND k.environment = $1 AND k.${column} = $2::uuid)) AS "cursorFound") s
     LEFT JOIN LATERAL (
       SELECT n.* FROM notes n
        WHERE s.found AND s."cursorFound" AND n.environment = $1 AND n.${column} = $2::uuid
          AND ($3::uuid IS NULL OR (n.created_at, n.id) < (SELECT k.created_at, k.id FROM notes k WHERE k.id = $3::uuid AND k.environment = $1))
        ORDER BY n.created_at DESC, n.id DESC LIMIT $4::int
     ) n ON true
     ORDER BY n.created_at DESC, n.id DESC`;
};

/** The newest $3 notes of each record of $2, each record's by the index (a LIMIT per record, not a window over all). */
const newestOfManySql = (subject: NoteSubject) => {
  const { column } = SUBJECT[subject];
  return `SELECT r.id::text AS "recordId", ${NOTE_COLUMNS}
     FROM unnest($2::uuid[]) AS r(id)
     CROSS JOIN LATERAL (
       SELECT n.* FROM notes n WHERE n.environment = $1 AND n.${column} = r.id
        ORDER BY n.created_at DESC, n.id DESC LIMIT $3::int
     ) n
     ORDER BY r.id, n.created_at DESC, n.id DESC`;
};

const SQL = {
  insert: {
    customer: statement('note_insert_customer', insertSql('customer', false)),
    account: statement('note_insert_account', insertSql('account', false)),
  },
  insertWithKey: {
    customer: statement('note_insert_customer_with_key', insertSql('customer', true)),
    account: statement('note_insert_account_with_key', insertSql('account', true)),
  },
  list: {
    customer: statement('note_list_customer', listSql('customer')),
    account: statement('note_list_account', listSql('account')),
  },
  newestOfMany: {
    customer: statement('note_newest_of_many_customer', newestOfManySql('customer')),
    account: statement('note_newest_of_many_account', newestOfManySql('account')),
  },
  findById: statement(
    'note_find_by_id',
    `SELECT ${NOTE_COLUMNS} FROM notes n WHERE n.id = $1::uuid AND n.environment = $2`,
  ),
};

type NoteRow = {
  noteId: string | null;
  customerId: string | null;
  accountId: string | null;
  text: string;
  authorId: string;
  authorName: string;
  createdAt: string;
};

const toNote = (row: NoteRow): Note => ({
  noteId: row.noteId!,
  customerId: row.customerId,
  accountId: row.accountId,
  text: row.text,
  author: { id: row.authorId, name: row.authorName },
  createdAt: row.createdAt,
});

/** Case notes on customers and accounts (docs/adr/0105), in notes (append-only). */
export class PrismaNoteStore implements NoteStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly idempotencyWaitMs = DEFAULT_IDEMPOTENCY_WAIT_MS,
  ) {}

  async insert(note: NewNoteRecord, effects: CreationEffects): Promise<NoteInsertion> {
    const values = [
      note.id,
      note.environment,
      note.recordId,
      note.text,
      note.author.id,
      note.author.name,
      ...auditValues(effects.audit),
    ];
    let row: (NoteRow & { found: number }) | undefined;
    try {
      [row] = effects.idempotency
        ? await queryRows<NoteRow & { found: number }>(this.prisma, SQL.insertWithKey[note.subject], [
            ...values,
            ...claimValues(effects.idempotency, this.idempotencyWaitMs),
          ])
        : await queryRows<NoteRow & { found: number }>(this.prisma, SQL.insert[note.subject], values);
    } catch (error) {
      if (effects.idempotency && isLockTimeout(error)) throw idempotencyKeyInProgress();
      throw error;
    }
    if (row!.found === 0) return { outcome: 'not-found' };
    if (row!.noteId === null) return { outcome: 'key-taken' };
    return { outcome: 'created', note: toNote(row!) };
  }

  async findById(environment: string, noteId: string): Promise<Note | null> {
    const [row] = await queryRows<NoteRow>(this.prisma, SQL.findById, [noteId, environment]);
    return row ? toNote(row) : null;
  }

  async newestOfMany(
    environment: string,
    subject: NoteSubject,
    recordIds: readonly string[],
    first: number,
  ): Promise<Note[][]> {
    const rows = await queryRows<NoteRow & { recordId: string }>(this.prisma, SQL.newestOfMany[subject], [
      environment,
      [...recordIds],
      first,
    ]);
    const byRecord = new Map<string, Note[]>();
    for (const row of rows) {
      const notes = byRecord.get(row.recordId);
      if (notes) notes.push(toNote(row));
      else byRecord.set(row.recordId, [toNote(row)]);
    }
    return recordIds.map((id) => byRecord.get(id) ?? []);
  }

  async list(environment: string, subject: NoteSubject, recordId: string, page: PageRequest): Promise<NotePage> {
    const rows = await queryRows<NoteRow & { found: boolean; cursorFound: boolean }>(this.prisma, SQL.list[subject], [
      environment,
      recordId,
      page.after ?? null,
      page.first,
    ]);
    const first = rows[0]!;
    if (!first.found) return { outcome: 'not-found' };
    if (!first.cursorFound) return { outcome: 'cursor-unknown' };
    return { outcome: 'listed', notes: rows.filter((row) => row.noteId !== null).map(toNote) };
  }
}
