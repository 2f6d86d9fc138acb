import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFailure, expectSuccess } from '../../rest/helpers.js';
import { issueApiToken } from '../../support/api-tokens.js';
import { bearer } from '../../support/http-auth.js';
import { startTestService, type TestService, type CallOptions, type CallResult } from '../../support/service.js';
import { buildBusinessInput } from './support.js';

/**
 * A canary tax id: a business is created with it and put through every path that touches it (creation, replay,
 * duplicate, refusal, search, a URL, update, read, list, delete of a second one), and then it is looked for in
 * every answer body, every log line, every event payload, the audit trail and every table of the database, the
 * ciphertext column excepted. Found nowhere, in either EIN spelling, as text or as the bytes of a bytea column.
 */
const CANARY = '98-7612345';
const CANARY_DIGITS = CANARY.replace('-', '');
const spellings = [CANARY, CANARY_DIGITS];

let service: TestService;
let ssnSearcher: string;
const answers: string[] = [];
/** Every call of this test, its answer body kept. */
const call = async (method: string, pathname: string, options?: CallOptions): Promise<CallResult> => {
  const res = await service.call(method, pathname, options);
  answers.push(res.text);
  return res;
};

const expectNoCanary = (text: string, where: string) => {
  for (const spelling of spellings) expect(text.includes(spelling), `${where} holds the canary`).toBe(false);
  // bytea columns appear as hex in JSON: the canary's bytes as plaintext would show up so.
  for (const spelling of spellings)
    expect(text.includes(Buffer.from(spelling).toString('hex')), `${where} holds the canary's bytes`).toBe(false);
};

beforeAll(async () => {
  service = await startTestService();
  ssnSearcher = (
    await issueApiToken(service.database.pool, { environments: ['*'], scopes: ['customers:ssn_search'], name: 'kyb' })
  ).token;
});
afterAll(async () => service?.stop());

describe('the tax id canary', () => {
  it('appears in no answer, log line, event, audit row or table outside its ciphertext', async () => {
    const body = buildBusinessInput({ taxId: CANARY, legalName: 'Canary Holdings Inc' });
    const headers = { 'idempotency-key': 'canary-creation' };
    const created = await call('POST', '/sandbox/customer', { body, headers });
    expectSuccess(created, 'customer', 201);
    const { customerId } = created.json.data;
    expectSuccess(await call('POST', '/sandbox/customer', { body, headers }), 'customer', 201);
    expectFailure(
      await call('POST', '/sandbox/customer', { body: buildBusinessInput({ taxId: CANARY_DIGITS }) }),
      'customer',
      409,
      'TAX_ID_ALREADY_EXISTS',
    );
    expectFailure(
      await call('POST', '/sandbox/customer', { body: buildBusinessInput({ taxId: `${CANARY}X` }) }),
      'customer',
      400,
      'VALIDATION_FAILED',
    );
    expectFailure(
      await call('POST', '/sandbox/customer', { body: { ...buildBusinessInput({ taxId: CANARY }), firstName: 'A' } }),
      'customer',
      400,
      'FIELD_NOT_FOR_CUSTOMER_TYPE',
    );
    const found = await call('POST', '/sandbox/customer/search', {
      body: { taxId: CANARY_DIGITS },
      headers: bearer(ssnSearcher),
    });
    expectSuccess(found, 'customer', 200);
    expect(found.json.data.customers.map((c: { customerId: string }) => c.customerId)).toEqual([customerId]);
    expectFailure(await call('GET', `/sandbox/customer?taxId=${CANARY}`), 'customer', 400, 'VALIDATION_FAILED');
    expectFailure(
      await call('PUT', `/sandbox/customer/${customerId}`, { body: { taxId: CANARY_DIGITS } }),
      'customer',
      400,
      'FIELD_NOT_UPDATABLE',
    );
    expectSuccess(
      await call('PUT', `/sandbox/customer/${customerId}`, { body: { doingBusinessAs: 'Canary' } }),
      'customer',
      200,
    );
    expectSuccess(await call('GET', `/sandbox/customer/${customerId}`), 'customer', 200);
    expectSuccess(await call('GET', '/sandbox/customer?legalName=canary'), 'customer', 200);
    expectSuccess(await call('GET', `/sandbox/customer/${customerId}/event`), 'customer', 200);
    expectSuccess(await call('GET', '/sandbox/event'), 'customer', 200);

    for (const [index, text] of answers.entries()) expectNoCanary(text, `answer ${index}`);
    expect(service.logLines.length).toBeGreaterThan(0);
    expectNoCanary(service.logLines.join('\n'), 'the logs');

    const { pool } = service.database;
    const events = await pool.query('SELECT payload::text AS payload FROM events');
    expect(events.rows.length).toBeGreaterThan(0);
    expectNoCanary(events.rows.map((row) => row.payload).join('\n'), 'the events');
    const audit = await pool.query('SELECT to_jsonb(a)::text AS row FROM audit_events a');
    expect(audit.rows.length).toBeGreaterThan(0);
    expectNoCanary(audit.rows.map((row) => row.row).join('\n'), 'the audit trail');

    // Every table, as text, but for the one column that holds the tax id (sealed).
    const tables = await pool.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
    );
    expect(tables.rows.map((row) => row.table_name)).toContain('business_profiles');
    for (const { table_name: table } of tables.rows) {
      const dump = await pool.query(
        `SELECT coalesce(string_agg((to_jsonb(t) - 'tax_id_ciphertext')::text, E'\\n'), '') AS dump FROM "${table}" t`,
      );
      expectNoCanary(dump.rows[0].dump, `table ${table}`);
    }
    // The ciphertext itself holds no plaintext.
    const sealed = await pool.query('SELECT tax_id_ciphertext FROM business_profiles WHERE customer_id = $1', [
      customerId,
    ]);
    expectNoCanary(Buffer.from(sealed.rows[0].tax_id_ciphertext).toString('latin1'), 'the ciphertext');
  });
});
