import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessScope } from '../../../src/domain/caller.js';
import { createAccount, createCustomer, expectFailure, expectSuccess, type Family } from '../../rest/helpers.js';
import { issueApiToken } from '../../support/api-tokens.js';
import { bearer } from '../../support/http-auth.js';
import { type CallOptions, type CallResult, startTestService, type TestService } from '../../support/service.js';

/**
 * Case notes over REST (docs/adr/0105), against the real database: adding and listing on customers and accounts
 * (newest first, paged), every coded refusal with nothing written, the one scope of each operation, idempotent
 * retries, the table's append-only rule, notes outliving their customer, the audit row (the note's id, never its
 * text) and the text in no event, audit row or log line.
 */

let service: TestService;
let writer: { token: string; principalId: string };
let reader: { token: string; principalId: string };
/** Every scope but notes:write / notes:read. */
let withoutWrite: string;
let withoutRead: string;
/** Every note text written: none may appear in an event, an audit row or a log line. */
const texts: string[] = [];

const ALL_BUT = (scope: AccessScope): AccessScope[] =>
  (
    [
      'customers:read',
      'customers:write',
      'accounts:read',
      'accounts:write',
      'audit:read',
      'events:read',
      'notes:read',
      'notes:write',
    ] as AccessScope[]
  ).filter((other) => other !== scope);

beforeAll(async () => {
  service = await startTestService();
  const { pool } = service.database;
  writer = await issueApiToken(pool, { environments: ['*'], scopes: ['notes:write'], name: 'Front desk (Dana)' });
  reader = await issueApiToken(pool, { environments: ['*'], scopes: ['notes:read'], name: 'Case review' });
  withoutWrite = (await issueApiToken(pool, { environments: ['*'], scopes: ALL_BUT('notes:write') })).token;
  withoutRead = (await issueApiToken(pool, { environments: ['*'], scopes: ALL_BUT('notes:read') })).token;
});
afterAll(async () => service?.stop());

const notesPath = (family: Family, id: string, environment = 'sandbox') => `/${environment}/${family}/${id}/note`;

/** A text no other note has, so it can be looked for anywhere. */
const uniqueText = (what: string) => {
  const text = `${what} ${randomUUID()}`;
  texts.push(text);
  return text;
};

const addNote = (family: Family, id: string, body: unknown, options: CallOptions = {}) =>
  service.call('POST', notesPath(family, id), { headers: bearer(writer.token), ...options, body });

const listNotes = (family: Family, id: string, query = '', options: CallOptions = {}) =>
  service.call('GET', `${notesPath(family, id)}${query}`, { headers: bearer(reader.token), ...options });

async function newCustomer(): Promise<string> {
  return (await createCustomer(service)).customerId;
}

async function newAccount(): Promise<string> {
  return (await createAccount(service, [await newCustomer()])).accountId as string;
}

/** The notes, the audit trail and the events: a refusal leaves all three as they were. */
async function snapshot(): Promise<Record<string, string>> {
  const { rows } = await service.database.pool.query<Record<string, string>>(
    `SELECT (SELECT count(*)::text FROM notes) AS notes, (SELECT count(*)::text FROM audit_events) AS audit,
            (SELECT count(*)::text FROM events) AS events, (SELECT count(*)::text FROM idempotency_keys) AS keys`,
  );
  return rows[0]!;
}

async function expectRefused(
  family: Family,
  request: () => Promise<CallResult>,
  status: number,
  code: string,
  field?: string,
): Promise<CallResult> {
  const before = await snapshot();
  const res = await request();
  expectFailure(res, family, status, code);
  if (field !== undefined)
    expect(res.json.error.details.map((detail: { field?: string }) => detail.field)).toContain(field);
  expect(await snapshot()).toEqual(before);
  return res;
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe.each([
  ['customer', newCustomer, 'customerId'],
  ['account', newAccount, 'accountId'],
] as const)('notes on a %s', (family, create, idField) => {
  it('adds a note (trimmed, line feeds and tabs kept) and answers it whole with its author', async () => {
    const id = await create();
    const text = uniqueText('Called about the card.\n\tAsked to call back Monday.');
    const res = await addNote(family, id.toUpperCase(), { text: `  ${text}\n ` });
    expectSuccess(res, family, 201);
    expect(res.json.data).toEqual({
      noteId: expect.any(String),
      [idField]: id,
      text,
      author: { id: writer.principalId, name: 'Front desk (Dana)' },
      createdAt: expect.stringMatching(ISO_UTC),
    });
    expect(res.headers.get('location')).toBe(notesPath(family, id));
    const listed = await listNotes(family, id);
    expectSuccess(listed, family, 200);
    expect(listed.json.data).toEqual({ notes: [res.json.data], nextAfter: null });
  });

  it('lists newest first, a page at a time, to the last page', async () => {
    const id = await create();
    const written: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await addNote(family, id, { text: uniqueText(`note ${i}`) });
      expectSuccess(res, family, 201);
      written.push(res.json.data.noteId);
    }
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const res = await listNotes(family, id, `?limit=2${after ? `&after=${after}` : ''}`);
      expectSuccess(res, family, 200);
      expect(res.json.data.notes.length).toBeLessThanOrEqual(2);
      seen.push(...res.json.data.notes.map((note: { noteId: string }) => note.noteId));
      after = res.json.data.nextAfter;
      pages++;
    } while (after !== null);
    expect(pages).toBe(3);
    expect(seen).toEqual([...written].reverse());
    // Another record's notes are not listed here.
    const other = await create();
    expect((await listNotes(family, other)).json.data).toEqual({ notes: [], nextAfter: null });
  });

  it('refuses a bad text with a coded 400 naming the field, writing nothing', async () => {
    const id = await create();
    const cases: [string, unknown][] = [
      ['empty', { text: '' }],
      ['blank', { text: ' \n\t ' }],
      ['too long', { text: 'x'.repeat(2001) }],
      ['a carriage return', { text: 'line one\r\nline two' }],
      ['a NUL', { text: 'a\u0000b' }],
      ['a DEL', { text: 'a\u007fb' }],
      ['a C1 control', { text: 'a\u0085b' }],
      ['not a string', { text: 42 }],
      ['missing', {}],
    ];
    for (const [what, body] of cases) {
      const res = await expectRefused(family, () => addNote(family, id, body), 400, 'VALIDATION_FAILED', 'text');
      expect(res.text, what).not.toContain('line one');
    }
    await expectRefused(
      family,
      () => addNote(family, id, { text: 'ok', author: 'someone else' }),
      400,
      'VALIDATION_FAILED',
      'author',
    );
    // 2,000 characters after trimming are accepted.
    expectSuccess(await addNote(family, id, { text: ` ${'y'.repeat(2000)} ` }), family, 201);
  });

  it('refuses a bad page with a coded 400', async () => {
    const id = await create();
    const other = await create();
    const foreign = (await addNote(family, other, { text: uniqueText('elsewhere') })).json.data.noteId;
    for (const [query, field] of [
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?after=not-a-note', 'after'],
      [`?after=${foreign}`, 'after'],
      ['?cursor=abc', 'cursor'],
    ] as const)
      await expectRefused(family, () => listNotes(family, id, query), 400, 'VALIDATION_FAILED', field);
  });

  it('answers the usual 404 for an unknown record, on both operations', async () => {
    const code = family === 'customer' ? 'CUSTOMER_NOT_FOUND' : 'ACCOUNT_NOT_FOUND';
    const elsewhere =
      family === 'customer'
        ? (await createCustomer(service, {}, 'production-like')).customerId
        : (
            await createAccount(
              service,
              [(await createCustomer(service, {}, 'production-like')).customerId],
              'production-like',
            )
          ).accountId;
    for (const id of [randomUUID(), 'not-an-id', elsewhere]) {
      await expectRefused(family, () => addNote(family, id, { text: 'hello' }), 404, code);
      await expectRefused(family, () => listNotes(family, id), 404, code);
    }
  });

  it('needs exactly notes:write to add and notes:read to list', async () => {
    const id = await create();
    const refusedWrite = await expectRefused(
      family,
      () => addNote(family, id, { text: 'hello' }, { headers: bearer(withoutWrite) }),
      403,
      'FORBIDDEN',
    );
    expect(refusedWrite.headers.get('www-authenticate')).toContain('scope="notes:write"');
    await expectRefused(
      family,
      () => addNote(family, id, { text: 'hello' }, { headers: bearer(reader.token) }),
      403,
      'FORBIDDEN',
    );
    const refusedRead = await expectRefused(
      family,
      () => listNotes(family, id, '', { headers: bearer(withoutRead) }),
      403,
      'FORBIDDEN',
    );
    expect(refusedRead.headers.get('www-authenticate')).toContain('scope="notes:read"');
    await expectRefused(family, () => listNotes(family, id, '', { headers: bearer(writer.token) }), 403, 'FORBIDDEN');
    // Each alone is enough.
    expectSuccess(await addNote(family, id, { text: uniqueText('alone') }), family, 201);
    expectSuccess(await listNotes(family, id), family, 200);
  });

  it('replays a retry with the same Idempotency-Key and refuses the key for another text', async () => {
    const id = await create();
    const key = randomUUID();
    const text = uniqueText('retried');
    const first = await addNote(family, id, { text }, { headers: { ...bearer(writer.token), 'idempotency-key': key } });
    expectSuccess(first, family, 201);
    const before = await snapshot();
    const retry = await addNote(family, id, { text }, { headers: { ...bearer(writer.token), 'idempotency-key': key } });
    expectSuccess(retry, family, 201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.json.data).toEqual(first.json.data);
    expect(await snapshot()).toEqual(before);
    await expectRefused(
      family,
      () =>
        addNote(
          family,
          id,
          { text: uniqueText('other') },
          { headers: { ...bearer(writer.token), 'idempotency-key': key } },
        ),
      422,
      'IDEMPOTENCY_KEY_REUSED',
    );
    expect((await listNotes(family, id)).json.data.notes).toHaveLength(1);
  });

  it('audits the note by its id, emits no event, and keeps the text out of events, audit rows and logs', async () => {
    const id = await create();
    const { pool } = service.database;
    const before = await snapshot();
    const text = uniqueText('Customer mentioned a new address');
    const res = await addNote(family, id, { text });
    expectSuccess(res, family, 201);
    const after = await snapshot();
    expect(Number(after.audit) - Number(before.audit)).toBe(1);
    expect(after.events).toBe(before.events);
    const { rows } = await pool.query(
      'SELECT principal_id, operation, resource_type, resource_id::text, changed_fields, request_id FROM audit_events WHERE resource_id = $1',
      [res.json.data.noteId],
    );
    expect(rows).toEqual([
      {
        principal_id: writer.principalId,
        operation: `${family}.note.add`,
        resource_type: 'note',
        resource_id: res.json.data.noteId,
        changed_fields: ['text'],
        request_id: res.json.requestId,
      },
    ]);
  });
});

describe('the notes table', () => {
  it('refuses UPDATE, DELETE and TRUNCATE whoever runs them', async () => {
    const customerId = await newCustomer();
    const text = uniqueText('kept as written');
    const { noteId } = (await addNote('customer', customerId, { text })).json.data;
    const { pool } = service.database;
    await expect(pool.query("UPDATE notes SET text = 'changed' WHERE id = $1", [noteId])).rejects.toThrow(
      /append-only/,
    );
    await expect(pool.query('DELETE FROM notes WHERE id = $1', [noteId])).rejects.toThrow(/append-only/);
    await expect(pool.query('TRUNCATE notes')).rejects.toThrow(/append-only/);
    const { rows } = await pool.query('SELECT text FROM notes WHERE id = $1', [noteId]);
    expect(rows).toEqual([{ text }]);
  });

  it("keeps a deleted customer's notes as a record, no longer listed", async () => {
    const customerId = await newCustomer();
    const { noteId } = (await addNote('customer', customerId, { text: uniqueText('before deletion') })).json.data;
    expectSuccess(await service.call('DELETE', `/sandbox/customer/${customerId}`), 'customer', 200);
    expectFailure(await listNotes('customer', customerId), 'customer', 404, 'CUSTOMER_NOT_FOUND');
    const { rows } = await service.database.pool.query('SELECT customer_id::text FROM notes WHERE id = $1', [noteId]);
    expect(rows).toEqual([{ customer_id: customerId }]);
  });

  it('names a static token by its place in API_TOKENS, its id as the audit trail does', async () => {
    const customerId = await newCustomer();
    const res = await service.call('POST', notesPath('customer', customerId), { body: { text: uniqueText('static') } });
    expectSuccess(res, 'customer', 201);
    expect(res.json.data.author.id).toMatch(/^static:/);
    // Its name says which of API_TOKENS it is (the principal's display name), never the token.
    expect(res.json.data.author.name).toBe('API_TOKENS entry 1');
  });
});

describe('the text never leaves through a side channel', () => {
  it('is in no event payload, audit row or log line', async () => {
    expect(texts.length).toBeGreaterThan(10);
    const { pool } = service.database;
    const events = (await pool.query('SELECT payload::text AS p FROM events')).rows.map((row) => row.p).join('\n');
    const audit = (await pool.query('SELECT to_jsonb(a)::text AS r FROM audit_events a')).rows
      .map((row) => row.r)
      .join('\n');
    const logs = service.logLines.join('\n');
    expect(logs.length).toBeGreaterThan(0);
    for (const text of texts) {
      // The random part alone: a JSON-escaped text would hide a whole one with a line feed.
      const marker = text.slice(-36);
      for (const [where, haystack] of [
        ['an event', events],
        ['the audit trail', audit],
        ['the logs', logs],
      ] as const)
        expect(haystack.includes(marker), `${where} holds a note's text`).toBe(false);
    }
  });
});
