import { randomUUID } from 'node:crypto';
import { type OperationDefinitionNode, parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costEstimator } from '../../../src/graphql/limits.js';
import { buildGraphqlSchema } from '../../../src/graphql/schema.js';
import { issueApiToken } from '../../support/api-tokens.js';
import { buildAccountInput, buildCustomerInput } from '../../support/factories.js';
import { type CallResult, startTestService, type TestService } from '../../support/service.js';
import { createAccount, createCustomer, errorCodes, graphql } from '../../graphql/helpers.js';

/**
 * Case notes over GraphQL (docs/adr/0105), through HTTP against the real database: `addCustomerNote` and
 * `addAccountNote` with REST's rules and codes, `Customer.notes` and `Account.notes` as connections paged newest
 * first (their cursor REST's `nextAfter`), the one scope of each field, idempotent retries and the cost of a page.
 */

let service: TestService;
const tokens = { writer: '', reader: '', customersOnly: '' };
let writerPrincipal = '';
beforeAll(async () => {
  service = await startTestService();
  const { pool } = service.database;
  const writer = await issueApiToken(pool, { environments: ['sandbox'], scopes: ['notes:write'], name: 'Agent 7' });
  tokens.writer = writer.token;
  writerPrincipal = writer.principalId;
  // Reading a record's notes reaches them through the record: its read scope and notes:read.
  tokens.reader = (
    await issueApiToken(pool, { environments: ['sandbox'], scopes: ['customers:read', 'accounts:read', 'notes:read'] })
  ).token;
  tokens.customersOnly = (
    await issueApiToken(pool, { environments: ['sandbox'], scopes: ['customers:read', 'accounts:read', 'notes:write'] })
  ).token;
});
afterAll(async () => service?.stop());

const as = (token: string) => ({ auth: false, headers: { authorization: `Bearer ${token}` } });

function data(result: CallResult) {
  expect(result.status).toBe(200);
  expect(errorCodes(result), result.text).toEqual([]);
  return result.json.data;
}

const NOTE = 'id noteId customerId accountId text author { id name } createdAt';
const ADD_CUSTOMER_NOTE = `mutation($id: ID!, $text: String!, $key: String) { addCustomerNote(customerId: $id, text: $text, idempotencyKey: $key) { ${NOTE} } }`;
const ADD_ACCOUNT_NOTE = `mutation($id: ID!, $text: String!) { addAccountNote(accountId: $id, text: $text) { ${NOTE} } }`;
const CUSTOMER_NOTES = `query($id: ID!, $first: Int, $after: String) { customer(customerId: $id) { customerId notes(first: $first, after: $after) { edges { cursor node { noteId } } nodes { ${NOTE} } pageInfo { hasNextPage endCursor } } } }`;
const ACCOUNT_NOTES = `query($id: ID!) { account(accountId: $id) { accountId notes { nodes { ${NOTE} } pageInfo { hasNextPage endCursor } } } }`;

const newCustomer = () => createCustomer(service, buildCustomerInput());
const addCustomerNote = (id: string, text: string, token = tokens.writer, key?: string) =>
  graphql(service, ADD_CUSTOMER_NOTE, { id, text, ...(key !== undefined && { key }) }, as(token));

async function snapshot(): Promise<Record<string, string>> {
  const { rows } = await service.database.pool.query<Record<string, string>>(
    `SELECT (SELECT count(*)::text FROM notes) AS notes, (SELECT count(*)::text FROM audit_events) AS audit,
            (SELECT count(*)::text FROM events) AS events`,
  );
  return rows[0]!;
}

/** `status` 400: a request refused before execution (a page size outside its bounds, by the cost estimate). */
async function expectRefused(request: () => Promise<CallResult>, code: string, status = 200): Promise<CallResult> {
  const before = await snapshot();
  const result = await request();
  expect(result.status).toBe(status);
  expect(errorCodes(result), result.text).toEqual([code]);
  expect(await snapshot()).toEqual(before);
  return result;
}

describe('addCustomerNote and Customer.notes', () => {
  it('adds notes and pages them newest first; the cursor continues a REST page and the reverse', async () => {
    const customerId = await newCustomer();
    const written: string[] = [];
    for (let i = 0; i < 3; i++) {
      const note = data(await addCustomerNote(customerId, ` note ${i}\nsecond line `)).addCustomerNote;
      expect(note).toEqual({
        id: note.noteId,
        noteId: expect.any(String),
        customerId,
        accountId: null,
        text: `note ${i}\nsecond line`,
        author: { id: writerPrincipal, name: 'Agent 7' },
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
      written.push(note.noteId);
    }
    const newestFirst = [...written].reverse();
    const first = data(await graphql(service, CUSTOMER_NOTES, { id: customerId, first: 2 }, as(tokens.reader))).customer
      .notes;
    expect(first.nodes.map((n: { noteId: string }) => n.noteId)).toEqual(newestFirst.slice(0, 2));
    expect(first.edges.map((e: { cursor: string }) => e.cursor)).toEqual(newestFirst.slice(0, 2));
    expect(first.pageInfo).toEqual({ hasNextPage: true, endCursor: newestFirst[1] });
    const second = data(
      await graphql(
        service,
        CUSTOMER_NOTES,
        { id: customerId, first: 2, after: first.pageInfo.endCursor },
        as(tokens.reader),
      ),
    ).customer.notes;
    expect(second.nodes.map((n: { noteId: string }) => n.noteId)).toEqual(newestFirst.slice(2));
    expect(second.pageInfo).toEqual({ hasNextPage: false, endCursor: newestFirst[2] });
    // REST's nextAfter is the same cursor.
    const rest = await service.call('GET', `/sandbox/customer/${customerId}/note?limit=1`);
    expect(rest.json.data.nextAfter).toBe(newestFirst[0]);
    const continued = data(
      await graphql(service, CUSTOMER_NOTES, { id: customerId, after: rest.json.data.nextAfter }, as(tokens.reader)),
    ).customer.notes;
    expect(continued.nodes.map((n: { noteId: string }) => n.noteId)).toEqual(newestFirst.slice(1));
  });

  it('refuses bad input with REST codes, writing nothing', async () => {
    const customerId = await newCustomer();
    const empty = await expectRefused(() => addCustomerNote(customerId, '   '), 'VALIDATION_FAILED');
    expect(empty.json.errors[0].extensions.details).toEqual([expect.objectContaining({ field: 'text' })]);
    await expectRefused(() => addCustomerNote(customerId, 'z'.repeat(2001)), 'VALIDATION_FAILED');
    await expectRefused(() => addCustomerNote(customerId, 'tab\tok but bell \u0007 not'), 'VALIDATION_FAILED');
    await expectRefused(() => addCustomerNote(randomUUID(), 'hello'), 'CUSTOMER_NOT_FOUND');
    await expectRefused(
      () => graphql(service, CUSTOMER_NOTES, { id: customerId, first: 0 }, as(tokens.reader)),
      'VALIDATION_FAILED',
      400,
    );
    await expectRefused(
      () => graphql(service, CUSTOMER_NOTES, { id: customerId, after: randomUUID() }, as(tokens.reader)),
      'VALIDATION_FAILED',
    );
  });

  it('needs notes:write to add and notes:read to read (the field null, the customer answered)', async () => {
    const customerId = await newCustomer();
    await expectRefused(() => addCustomerNote(customerId, 'hello', tokens.reader), 'FORBIDDEN');
    const refused = await graphql(service, CUSTOMER_NOTES, { id: customerId }, as(tokens.customersOnly));
    expect(errorCodes(refused)).toEqual(['FORBIDDEN']);
    expect(refused.json.errors[0].extensions.challenge).toMatchObject({ scope: 'notes:read' });
    expect(refused.json.data.customer).toEqual({ customerId, notes: null });
  });

  it('replays a retry with the same idempotencyKey', async () => {
    const customerId = await newCustomer();
    const key = randomUUID();
    const first = await addCustomerNote(customerId, 'once', tokens.writer, key);
    const before = await snapshot();
    const retry = await addCustomerNote(customerId, 'once', tokens.writer, key);
    expect(data(retry).addCustomerNote).toEqual(data(first).addCustomerNote);
    expect(retry.json.extensions?.idempotentReplayed).toEqual(['addCustomerNote']);
    expect(await snapshot()).toEqual(before);
    await expectRefused(() => addCustomerNote(customerId, 'twice', tokens.writer, key), 'IDEMPOTENCY_KEY_REUSED');
  });
});

describe('addAccountNote and Account.notes', () => {
  it('adds a note and lists it; ACCOUNT_NOT_FOUND for no such account', async () => {
    const accountId = await createAccount(service, buildAccountInput([await newCustomer()]));
    const note = data(
      await graphql(service, ADD_ACCOUNT_NOTE, { id: accountId, text: 'fee dispute' }, as(tokens.writer)),
    ).addAccountNote;
    expect(note).toMatchObject({ accountId, customerId: null, text: 'fee dispute' });
    const listed = data(await graphql(service, ACCOUNT_NOTES, { id: accountId }, as(tokens.reader))).account.notes;
    expect(listed).toEqual({ nodes: [note], pageInfo: { hasNextPage: false, endCursor: note.noteId } });
    await expectRefused(
      () => graphql(service, ADD_ACCOUNT_NOTE, { id: randomUUID(), text: 'x' }, as(tokens.writer)),
      'ACCOUNT_NOT_FOUND',
    );
  });
});

describe('notes under a list of records', () => {
  it('reads every first page in one statement, each record its own newest notes', async () => {
    // Letters only: a name's rules; random, so the filter finds these three alone.
    const lastName = `Notes${[...randomUUID().replaceAll('-', '').slice(0, 10)].map((c) => String.fromCharCode(97 + (parseInt(c, 16) % 26))).join('')}`;
    const customers = [
      await createCustomer(service, buildCustomerInput({ lastName })),
      await createCustomer(service, buildCustomerInput({ lastName })),
      await createCustomer(service, buildCustomerInput({ lastName })),
    ];
    const written = new Map<string, string[]>();
    for (const [i, customerId] of customers.entries()) {
      const ids: string[] = [];
      for (let n = 0; n <= i; n++)
        ids.push(data(await addCustomerNote(customerId, `c${i} n${n}`)).addCustomerNote.noteId);
      written.set(customerId, ids.reverse());
    }
    const query = `query($lastName: String!) { customers(first: 10, filter: { lastName: $lastName }) {
      nodes { customerId notes(first: 2) { nodes { noteId } pageInfo { hasNextPage endCursor } } } } }`;
    service.statements.count = 0;
    service.statements.names.length = 0;
    const result = data(await graphql(service, query, { lastName }, as(tokens.reader)));
    const noteStatements = service.statements.names.filter((name) => name.includes('note'));
    expect(noteStatements).toEqual(['cas_note_newest_of_many_customer']);
    const pages = new Map(
      result.customers.nodes.map((node: { customerId: string; notes: unknown }) => [node.customerId, node.notes]),
    );
    expect(pages.size).toBe(3);
    for (const customerId of customers) {
      const newest = written.get(customerId)!;
      expect(pages.get(customerId)).toEqual({
        nodes: newest.slice(0, 2).map((noteId) => ({ noteId })),
        pageInfo: { hasNextPage: newest.length > 2, endCursor: newest.slice(0, 2).at(-1) ?? null },
      });
    }
  });
});

describe('the cost of notes', () => {
  it('counts a page of notes by `first`', () => {
    const estimate = costEstimator(buildGraphqlSchema());
    const cost = (query: string) => {
      const document = parse(query);
      return estimate(document, document.definitions[0] as OperationDefinitionNode, { id: 'x' })!;
    };
    const page = (first: number) =>
      cost(`query($id: ID!) { customer(customerId: $id) { notes(first: ${first}) { nodes { noteId } } } }`);
    expect(page(50)).toBeGreaterThan(page(5));
    expect(page(50) - page(5)).toBe(9 * (page(10) - page(5)));
  });
});
