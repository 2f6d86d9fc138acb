import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREATE_ACCOUNT, errorCodes, graphql } from '../../graphql/helpers.js';
import { createAccount, createCustomer, expectFailure, expectSuccess } from '../../rest/helpers.js';
import { issueApiToken } from '../../support/api-tokens.js';
import { eventually } from '../../support/eventually.js';
import { buildAccountInput } from '../../support/factories.js';
import { bearer } from '../../support/http-auth.js';
import { type CallResult, startTestService, type TestService } from '../../support/service.js';
import { type Receiver, startReceiver } from '../webhooks/receiver.js';
import { fastDeliverySettings } from '../webhooks/settings.js';

/**
 * The issue's "Done when" proof (docs/adr/0107): account numbers handed out, read, looked up (found, unknown,
 * refused, malformed, over budget), added and updated through REST and GraphQL, their accounts' events delivered
 * to a webhook receiver; then none of the full numbers may be anywhere but in the scoped list answers: not in a
 * log line, not in any table outside account_numbers' ciphertext, not in an event or a webhook body, not in any
 * other answer (errors included). The scan is checked to find the numbers where they must be.
 */

let service: TestService;
let receiver: Receiver;
let webhookSecret = '';
const tokens = { numbers: '', reader: '', controls: '', lookup: '', budget: '' };

beforeAll(async () => {
  receiver = await startReceiver();
  service = await startTestService({
    ...fastDeliverySettings([100, 200, 1500]),
    ROUTING_NUMBERS: 'production-like=021000021',
    ACCOUNT_NUMBER_LOOKUP_RATE_LIMIT_PER_MINUTE: '20',
  });
  const { pool } = service.database;
  const issue = async (scopes: Parameters<typeof issueApiToken>[1]['scopes']) =>
    (await issueApiToken(pool, { environments: ['*'], scopes })).token;
  tokens.numbers = await issue(['accounts:read', 'accounts:numbers:read']);
  tokens.reader = await issue(['accounts:read', 'customers:read', 'accounts:controls']);
  tokens.controls = await issue(['accounts:controls']);
  tokens.lookup = await issue(['accounts:numbers:lookup']);
  tokens.budget = await issue(['accounts:numbers:lookup']);
  const endpoint = await service.call('POST', '/sandbox/webhook-endpoint', { body: { url: receiver.url('/all') } });
  expectSuccess(endpoint, 'customer', 201);
  webhookSecret = endpoint.json.data.secret;
});
afterAll(async () => {
  await service?.stop();
  await receiver?.close();
});

/** Every answer of the scenario, the scoped list answers apart. */
const scopedAnswers: string[] = [];
const otherAnswers: { what: string; text: string }[] = [];
const numbers = new Map<string, { accountId: string; environment: string }>();

const record = (what: string, result: CallResult) => {
  otherAnswers.push({ what, text: result.text });
  return result;
};
const call = (what: string, method: string, path: string, token: string, body?: unknown) =>
  service
    .call(method, path, { headers: bearer(token), ...(body !== undefined && { body }) })
    .then((r) => record(what, r));
const gql = (what: string, query: string, variables: Record<string, unknown>, token: string, environment = 'sandbox') =>
  graphql(service, query, variables, { headers: bearer(token), environment }).then((r) => record(what, r));

const NUMBERS = `query($id: ID!) { account(accountId: $id) { accountId accountNumberLast4 accountNumbers { id accountNumber last4 routingNumber status } } }`;
const ADD = `mutation($id: ID!) { addAccountNumber(accountId: $id, inboundAchDebits: BLOCKED) { id last4 routingNumber } }`;
const UPDATE = `mutation($id: ID!, $number: ID!, $status: AccountNumberStatus) { updateAccountNumber(accountId: $id, accountNumberId: $number, status: $status) { id last4 status } }`;
const LOOKUP = `mutation($input: AccountNumberLookupInput!) { lookupAccountNumber(input: $input) { accountId accountNumberId status inboundAchDebits } }`;

/** REST's scoped list: its answer is one of the two places the digits belong. */
async function restList(accountId: string, environment = 'sandbox') {
  const res = await service.call('GET', `/${environment}/account/${accountId}/account-numbers`, {
    headers: bearer(tokens.numbers),
  });
  expectSuccess(res, 'account', 200);
  scopedAnswers.push(res.text);
  for (const n of res.json.data.accountNumbers) numbers.set(n.accountNumber, { accountId, environment });
  return res.json.data.accountNumbers as { accountNumberId: string; accountNumber: string }[];
}
/** GraphQL's scoped field: the other one. */
async function graphqlList(accountId: string, environment = 'sandbox') {
  const res = await graphql(service, NUMBERS, { id: accountId }, { headers: bearer(tokens.numbers), environment });
  expect(errorCodes(res), res.text).toEqual([]);
  scopedAnswers.push(res.text);
  return res.json.data.account.accountNumbers as { id: string; accountNumber: string }[];
}

/** Where any of the full numbers appears in `text`. */
const leaks = (text: string) => [...numbers.keys()].filter((number) => text.includes(number));

describe('a canary account number', () => {
  it('appears nowhere outside its ciphertext and the scoped list answers', async () => {
    // Accounts through both surfaces, in both environments.
    const accounts: { accountId: string; environment: string }[] = [];
    for (const environment of ['sandbox', 'production-like']) {
      const { customerId } = await createCustomer(service, {}, environment);
      accounts.push({ accountId: (await createAccount(service, [customerId], environment)).accountId, environment });
      const created = await graphql(
        service,
        CREATE_ACCOUNT,
        { input: buildAccountInput([customerId]) },
        { environment },
      );
      expect(errorCodes(created), created.text).toEqual([]);
      record('createAccount', created);
      accounts.push({ accountId: created.json.data.createAccount.accountId, environment });
    }

    // Read in full through both surfaces; the two agree.
    for (const { accountId, environment } of accounts) {
      const rest = await restList(accountId, environment);
      const viaGraphql = await graphqlList(accountId, environment);
      expect(viaGraphql.map((n) => n.accountNumber)).toEqual(rest.map((n) => n.accountNumber));
    }
    const [first] = accounts;
    const sandboxAccountId = first!.accountId;

    // Add and update through both surfaces (answers: the last four only).
    const added = await call(
      'add (REST)',
      'POST',
      `/sandbox/account/${sandboxAccountId}/account-numbers`,
      tokens.controls,
      {
        inboundAchDebits: 'BLOCKED',
      },
    );
    expectSuccess(added, 'account', 201);
    const addedViaGraphql = await gql('addAccountNumber', ADD, { id: sandboxAccountId }, tokens.controls);
    expect(errorCodes(addedViaGraphql)).toEqual([]);
    const listed = await restList(sandboxAccountId);
    await graphqlList(sandboxAccountId);
    expect(listed).toHaveLength(3);
    const [canary, second, third] = listed.map((n) => n.accountNumber);
    expectSuccess(
      await call(
        'update (REST)',
        'PUT',
        `/sandbox/account/${sandboxAccountId}/account-numbers/${listed[1]!.accountNumberId}`,
        tokens.controls,
        {
          status: 'DISABLED',
          inboundAchDebits: 'BLOCKED',
        },
      ),
      'account',
      200,
    );
    expect(
      errorCodes(
        await gql(
          'updateAccountNumber',
          UPDATE,
          { id: sandboxAccountId, number: listed[2]!.accountNumberId, status: 'CANCELED' },
          tokens.controls,
        ),
      ),
    ).toEqual([]);
    expect(
      errorCodes(
        await gql(
          'updateAccountNumber (canceled)',
          UPDATE,
          { id: sandboxAccountId, number: listed[2]!.accountNumberId, status: 'ACTIVE' },
          tokens.controls,
        ),
      ),
    ).toEqual(['ACCOUNT_NUMBER_CANCELED']);

    // Reads refused without the scope: through both surfaces.
    expectFailure(
      await call(
        'list without the scope',
        'GET',
        `/sandbox/account/${sandboxAccountId}/account-numbers`,
        tokens.reader,
      ),
      'account',
      403,
      'FORBIDDEN',
    );
    expect(
      errorCodes(await gql('accountNumbers without the scope', NUMBERS, { id: sandboxAccountId }, tokens.reader)),
    ).toEqual(['FORBIDDEN']);

    // Look-ups: found, not found, refused, malformed, over budget; every one carries a full number in its input.
    const restLookup = (what: string, body: unknown, token = tokens.lookup, environment = 'sandbox') =>
      call(what, 'POST', `/${environment}/account-numbers/lookup`, token, body);
    const graphqlLookup = (what: string, input: unknown, token = tokens.lookup, environment = 'sandbox') =>
      gql(what, LOOKUP, { input }, token, environment);
    expectSuccess(
      await restLookup('look-up found', { routingNumber: '011000015', accountNumber: canary }),
      'account',
      200,
    );
    expect(
      errorCodes(
        await graphqlLookup('lookupAccountNumber found', { routingNumber: '011000015', accountNumber: second }),
      ),
    ).toEqual([]);
    expectFailure(
      await restLookup('look-up, wrong routing number', { routingNumber: '021000021', accountNumber: canary }),
      'account',
      404,
      'ACCOUNT_NUMBER_NOT_FOUND',
    );
    expect(
      errorCodes(
        await graphqlLookup(
          'lookupAccountNumber, other environment',
          { routingNumber: '021000021', accountNumber: third },
          tokens.lookup,
          'production-like',
        ),
      ),
    ).toEqual(['ACCOUNT_NUMBER_NOT_FOUND']);
    // Refused: no scope, malformed (the digits among bad fields, or as a number), a body that is no JSON.
    expectFailure(
      await restLookup(
        'look-up without the scope',
        { routingNumber: '011000015', accountNumber: canary },
        tokens.controls,
      ),
      'account',
      403,
      'FORBIDDEN',
    );
    expect(
      errorCodes(
        await graphqlLookup(
          'lookupAccountNumber without the scope',
          { routingNumber: '011000015', accountNumber: canary },
          tokens.controls,
        ),
      ),
    ).toEqual(['FORBIDDEN']);
    for (const body of [
      { routingNumber: canary, accountNumber: canary },
      { routingNumber: '011000015', accountNumber: Number(canary) },
      { routingNumber: '011000015', accountNumber: canary, note: canary },
      { routingNumber: '011000015', accountNumber: `${canary}0` },
      { [canary!]: canary },
    ])
      expectFailure(await restLookup('look-up, malformed', body), 'account', 400, 'VALIDATION_FAILED');
    const notJson = await service.call('POST', '/sandbox/account-numbers/lookup', {
      headers: { ...bearer(tokens.lookup), 'content-type': 'application/json' },
      rawBody: `{"routingNumber": "011000015", "accountNumber": "${canary}",,}`,
    });
    record('look-up, not JSON', notJson);
    expect(notJson.status).toBe(400);
    for (const input of [
      { routingNumber: '011000015', accountNumber: Number(canary) },
      { routingNumber: '011000015', accountNumber: canary, note: canary },
      { routingNumber: '011000015' },
    ]) {
      const result = await graphqlLookup('lookupAccountNumber, malformed variables', input);
      expect(result.json.errors?.length ?? 0, result.text).toBeGreaterThan(0);
    }
    const inline = await gql(
      'lookupAccountNumber, malformed literal',
      `mutation { lookupAccountNumber(input: { routingNumber: "011000015", accountNumber: ${canary} }) { accountId } }`,
      {},
      tokens.lookup,
    );
    expect(inline.json.errors?.length ?? 0, inline.text).toBeGreaterThan(0);
    const syntax = await gql(
      'a syntax error',
      `mutation { lookupAccountNumber(input: { accountNumber: "${canary}" ) }`,
      {},
      tokens.lookup,
    );
    expect(syntax.json.errors?.length ?? 0).toBeGreaterThan(0);
    // Over budget (20 a minute) on both surfaces.
    for (let i = 0; i < 20; i++)
      await restLookup('look-up, spending', { routingNumber: '011000015', accountNumber: canary }, tokens.budget);
    expectFailure(
      await restLookup('look-up, over budget', { routingNumber: '011000015', accountNumber: canary }, tokens.budget),
      'account',
      429,
      'ACCOUNT_NUMBER_LOOKUP_RATE_LIMITED',
    );
    expect(
      errorCodes(
        await graphqlLookup(
          'lookupAccountNumber, over budget',
          { routingNumber: '011000015', accountNumber: canary },
          tokens.budget,
        ),
      ),
    ).toEqual(['ACCOUNT_NUMBER_LOOKUP_RATE_LIMITED']);

    // The other reads of the accounts: REST's account, GraphQL's with its last four, the events.
    for (const { accountId, environment } of accounts) {
      record('account (REST)', await service.call('GET', `/${environment}/account/${accountId}`));
      record(
        'account (GraphQL)',
        await graphql(
          service,
          `
            query ($id: ID!) {
              account(accountId: $id) {
                accountId
                name
                accountNumberLast4
              }
            }
          `,
          { id: accountId },
          { environment },
        ),
      );
    }
    record('events', await service.call('GET', '/sandbox/event?limit=100'));
    record('audit trail', await service.call('GET', '/sandbox/audit-event?limit=100'));

    // The webhooks of the accounts' creation, delivered and verified.
    const deliveries = await receiver.waitFor('/all', 2);
    const payloads = deliveries.map(
      (request) => new Webhook(webhookSecret).verify(request.body, request.headers) as { type: string },
    );
    expect(payloads.map((payload) => payload.type)).toEqual(expect.arrayContaining(['account.created']));

    // --- The scan. It finds every number where it must be: in the scoped answers. ---
    expect(numbers.size).toBe(accounts.length + 2);
    for (const number of numbers.keys()) expect(scopedAnswers.some((text) => text.includes(number))).toBe(true);
    expect(leaks(scopedAnswers.join('\n'))).toHaveLength(numbers.size);

    // Not in any other answer, errors included.
    for (const { what, text } of otherAnswers) expect(leaks(text), `the answer of ${what}: ${text}`).toEqual([]);
    // Not in a webhook body (nor its headers).
    for (const request of receiver.received) expect(leaks(JSON.stringify(request)), 'a webhook request').toEqual([]);
    // Not in a log line (the service logged this scenario: its requests are there).
    await eventually(
      async () => service.logLines.filter((line) => line.includes('account-numbers/lookup')).length,
      (n: number) => n >= 10,
    );
    expect(leaks(service.logLines.join('\n')), 'the log lines').toEqual([]);
    // Not in any table of the public schema, every column, but account_numbers' sealed ones.
    const { rows: tables } = await service.database.pool.query<{ name: string }>(
      "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
    );
    expect(tables.map((t) => t.name)).toEqual(
      expect.arrayContaining(['account_numbers', 'audit_events', 'events', 'webhook_deliveries']),
    );
    let scannedNumberRows = 0;
    for (const { name } of tables) {
      const sealed = name === 'account_numbers' ? " - 'number_ciphertext' - 'number_blind_index'" : '';
      const { rows } = await service.database.pool.query<{ row: string }>(
        `SELECT (to_jsonb(t)${sealed})::text AS row FROM public."${name}" t`,
      );
      if (name === 'account_numbers') scannedNumberRows = rows.length;
      for (const { row } of rows) expect(leaks(row), `a row of ${name}`).toEqual([]);
    }
    expect(scannedNumberRows).toBe(numbers.size);
    // The scan of the tables would see a number stored in clear: a last four it does see.
    const { rows: lastFours } = await service.database.pool.query<{ row: string }>(
      "SELECT (to_jsonb(t) - 'number_ciphertext' - 'number_blind_index')::text AS row FROM account_numbers t",
    );
    expect(lastFours.some((r) => r.row.includes(`"${canary!.slice(-4)}"`))).toBe(true);
  });
});

describe('an unknown field named by digits', () => {
  it('is refused as UNKNOWN_FIELD without its name repeated (a number sent as a key)', async () => {
    const res = await service.call('POST', '/sandbox/account-numbers/lookup', {
      headers: bearer(tokens.lookup),
      body: { routingNumber: '011000015', accountNumber: '123456789015', '123456789015': true, nested1: true },
    });
    expectFailure(res, 'account', 400, 'VALIDATION_FAILED');
    expect(res.json.error.details).toEqual([
      { code: 'UNKNOWN_FIELD', message: expect.stringContaining('not repeated') },
      { field: 'nested1', code: 'UNKNOWN_FIELD', message: 'Unknown field; remove it.' },
    ]);
    expect(res.text).not.toContain('123456789015');
  });
});
