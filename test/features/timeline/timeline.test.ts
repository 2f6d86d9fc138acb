import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessScope } from '../../../src/domain/caller.js';
import { errorCodes, graphql } from '../../graphql/helpers.js';
import { createAccount, createCustomer, expectFailure, expectSuccess } from '../../rest/helpers.js';
import { issueApiToken } from '../../support/api-tokens.js';
import { expectNoChange } from '../../support/database.js';
import { ledgerViolations } from '../../support/ledger-invariants.js';
import { type CallResult, startTestService, type TestService } from '../../support/service.js';

/**
 * A customer's timeline (docs/adr/0111) over GraphQL against the real database: what happened to the customer and
 * the accounts it holds, newest first, each kind read from its own records; flags lifted with a reason (REST and
 * GraphQL); pages that join up; kinds a token may not read left out and named; refusals coded.
 */

let service: TestService;
const tokens = { auditor: '', auditOnly: '', noAudit: '' };
beforeAll(async () => {
  service = await startTestService();
  const { pool } = service.database;
  const issue = async (scopes: AccessScope[]) =>
    (await issueApiToken(pool, { environments: ['sandbox'], scopes })).token;
  tokens.auditor = await issue(['customers:read', 'accounts:read', 'audit:read', 'notes:read', 'verification:read']);
  tokens.auditOnly = await issue(['customers:read', 'audit:read']);
  tokens.noAudit = await issue(['customers:read', 'accounts:read', 'notes:read']);
});
afterAll(async () => service?.stop());

const as = (token: string) => ({ auth: false, headers: { authorization: `Bearer ${token}` } });
const ENTRY =
  'id at kind operation actorId actorName recordType recordId accountId changedFields flag reason text amount currency direction status';
const TIMELINE = `query($id: ID!, $first: Int, $after: String, $kinds: [TimelineKind!]) {
  customer(customerId: $id) { timeline(first: $first, after: $after, kinds: $kinds) { nodes { ${ENTRY} } omittedKinds pageInfo { hasNextPage endCursor } } } }`;

interface Entry {
  id: string;
  at: string;
  kind: string;
  operation: string;
  actorName: string | null;
  recordType: string;
  recordId: string;
  accountId: string | null;
  changedFields: string[];
  flag: string | null;
  reason: string | null;
  text: string | null;
  amount: string | null;
  direction: string | null;
  status: string | null;
}

function timelineOf(result: CallResult) {
  expect(result.status, result.text).toBe(200);
  expect(errorCodes(result), result.text).toEqual([]);
  return result.json.data.customer.timeline as {
    nodes: Entry[];
    omittedKinds: string[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
}
const read = async (id: string, variables: Record<string, unknown> = {}, token = tokens.auditor) =>
  timelineOf(await graphql(service, TIMELINE, { id, ...variables }, as(token)));

/** A customer with an account on which each kind happened once or more, in a known order. */
async function storyOfOneCustomer() {
  const customerId = (await createCustomer(service)).customerId as string;
  const accountId = (await createAccount(service, [customerId])).accountId as string;
  const post = (type: string, amount: string) =>
    service.call('POST', `/sandbox/account/${accountId}/transaction`, { body: { type, amount, description: type } });
  expectSuccess(await post('CREDIT', '250.00'), 'account', 201);
  expectSuccess(await post('DEBIT', '40.10'), 'account', 201);
  expectSuccess(
    await service.call('PUT', `/sandbox/account/${accountId}/flags/FROZEN`, {
      body: { reason: 'Card reported stolen' },
    }),
    'account',
    200,
  );
  expectSuccess(
    await service.call('POST', `/sandbox/account/${accountId}/flags/FROZEN/lift`, {
      body: { reason: 'Customer found the card' },
    }),
    'account',
    200,
  );
  expectSuccess(
    await service.call('POST', `/sandbox/customer/${customerId}/note`, { body: { text: 'Called about the card.' } }),
    'customer',
    201,
  );
  return { customerId, accountId };
}

describe('who did it', () => {
  it("names a managed token's writes by the token's name, and its principal id stays beside it", async () => {
    const { pool } = service.database;
    const support = await issueApiToken(pool, {
      environments: ['sandbox'],
      scopes: ['customers:write', 'customers:read'],
      name: 'Dana Whitfield (support)',
    });
    const customerId = (await createCustomer(service)).customerId as string;
    expectSuccess(
      await service.call('PUT', `/sandbox/customer/${customerId}`, {
        ...as(support.token),
        body: { emails: ['dee.support@example.com'] },
      }),
      'customer',
      200,
    );
    const [changed] = (await read(customerId, { kinds: ['PROFILE'] })).nodes as (Entry & { actorId: string })[];
    expect(changed).toMatchObject({
      operation: 'customer.update',
      actorId: support.principalId,
      actorName: 'Dana Whitfield (support)',
    });
  });
});

describe('a customer timeline', () => {
  it('tells what happened, newest first, each kind from its own record, linking to it', async () => {
    const { customerId, accountId } = await storyOfOneCustomer();
    const timeline = await read(customerId);
    expect(timeline.omittedKinds).toEqual([]);
    expect(timeline.pageInfo.hasNextPage).toBe(false);
    const times = timeline.nodes.map((entry) => entry.at);
    expect(times).toEqual([...times].sort().reverse());
    const summary = timeline.nodes.map((entry) => [entry.kind, entry.operation]);
    expect(summary).toEqual([
      ['NOTE', 'customer.note.add'],
      ['FLAG', 'account.flag.clear'],
      ['FLAG', 'account.flag.set'],
      ['MONEY', 'transaction.posted'],
      ['MONEY', 'transaction.posted'],
      ['ACCOUNT', 'account.create'],
      ['PROFILE', 'customer.create'],
    ]);
    const [note, lift, set, debit, credit, opened, created] = timeline.nodes;
    expect(note).toMatchObject({ text: 'Called about the card.', recordType: 'note', actorName: 'API_TOKENS entry 1' });
    expect(lift).toMatchObject({ flag: 'FROZEN', reason: 'Customer found the card', recordId: accountId, accountId });
    expect(set).toMatchObject({ flag: 'FROZEN', reason: 'Card reported stolen', recordType: 'account' });
    expect(debit).toMatchObject({
      amount: '40.1',
      direction: 'OUT',
      status: 'POSTED',
      recordType: 'transaction',
      accountId,
    });
    expect(credit).toMatchObject({ amount: '250', direction: 'IN', status: 'POSTED' });
    expect(opened).toMatchObject({ recordType: 'account', recordId: accountId });
    expect(opened!.changedFields.length).toBeGreaterThan(0);
    expect(created).toMatchObject({ recordType: 'customer', recordId: customerId });
    // The audit trail keeps the principal's id only: the timeline names a static token as its answers do.
    expect(opened!.actorName).toBe('API_TOKENS entry 1');
    expect(created!.actorName).toBe('API_TOKENS entry 1');
    // The money's entries are the ledger's: the transaction each links to is the one REST answers.
    const transaction = await service.call('GET', `/sandbox/account/${accountId}/transaction/${debit!.recordId}`);
    expectSuccess(transaction, 'account', 200);
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });

  it('pages join up with nothing twice, and kinds filter', async () => {
    const { customerId } = await storyOfOneCustomer();
    const whole = (await read(customerId)).nodes.map((entry) => entry.id);
    const paged: string[] = [];
    let after: string | null = null;
    for (let guard = 0; guard < 10; guard++) {
      const page = await read(customerId, { first: 2, ...(after && { after }) });
      paged.push(...page.nodes.map((entry) => entry.id));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(paged).toEqual(whole);
    const money = await read(customerId, { kinds: ['MONEY', 'FLAG'] });
    expect(new Set(money.nodes.map((entry) => entry.kind))).toEqual(new Set(['MONEY', 'FLAG']));
    expect(money.nodes).toHaveLength(4);
  });

  it('leaves out, and names, the kinds the token may not read; needs audit:read itself', async () => {
    const { customerId } = await storyOfOneCustomer();
    const narrow = await read(customerId, {}, tokens.auditOnly);
    expect(narrow.omittedKinds).toEqual(['ACCOUNT', 'MONEY', 'FLAG', 'VERIFICATION', 'NOTE']);
    expect(narrow.nodes.map((entry) => entry.kind)).toEqual(['PROFILE']);
    const refused = await graphql(service, TIMELINE, { id: customerId }, as(tokens.noAudit));
    expect(errorCodes(refused)).toEqual(['FORBIDDEN']);
    expect(refused.json.data.customer.timeline).toBeNull();
  });

  it('refuses a page size out of range and a cursor it did not make', async () => {
    const { customerId } = await storyOfOneCustomer();
    for (const variables of [{ first: 0 }, { first: 101 }, { after: 'bm90LWEtY3Vyc29y' }, { after: '%%%' }]) {
      const refused = await graphql(service, TIMELINE, { id: customerId, ...variables }, as(tokens.auditor));
      expect(errorCodes(refused), JSON.stringify(variables)).toEqual(['VALIDATION_FAILED']);
    }
  });
});

describe('lifting a flag with a reason', () => {
  it('the REST lift requires a reason (missing, empty or too long: refused, the flag stays); DELETE keeps none', async () => {
    const customerId = (await createCustomer(service)).customerId as string;
    const accountId = (await createAccount(service, [customerId])).accountId as string;
    expectSuccess(await service.call('PUT', `/sandbox/account/${accountId}/flags/DEBITS_BLOCKED`), 'account', 200);
    const refusals: Array<[object, string]> = [
      [{}, 'REQUIRED'],
      [{ reason: '' }, 'TOO_SHORT'],
      [{ reason: 'x'.repeat(501) }, 'TOO_LONG'],
    ];
    for (const [body, code] of refusals) {
      const refused = await expectNoChange(service.database.pool, () =>
        service.call('POST', `/sandbox/account/${accountId}/flags/DEBITS_BLOCKED/lift`, { body }),
      );
      expectFailure(refused, 'account', 400, 'VALIDATION_FAILED');
      expect(refused.json.error.details).toEqual([expect.objectContaining({ field: 'reason', code })]);
    }
    // The contract's DELETE, as before: lifted, with no reason kept.
    const lifted = await service.call('DELETE', `/sandbox/account/${accountId}/flags/DEBITS_BLOCKED`);
    expectSuccess(lifted, 'account', 200);
    expect(lifted.json.data.flags).toEqual([]);
    const { rows } = await service.database.pool.query(
      'SELECT flag, lift_reason, lifted_by_name FROM account_flag_lifts WHERE account_id = $1',
      [accountId],
    );
    expect(rows).toEqual([{ flag: 'DEBITS_BLOCKED', lift_reason: null, lifted_by_name: 'API_TOKENS entry 1' }]);
  });

  it('GraphQL clearAccountFlag keeps it too, and the timeline shows it', async () => {
    const customerId = (await createCustomer(service)).customerId as string;
    const accountId = (await createAccount(service, [customerId])).accountId as string;
    const set = await graphql(
      service,
      'mutation($id: ID!) { setAccountFlag(accountId: $id, flag: CREDITS_BLOCKED, reason: "Returned deposits") { flags } }',
      { id: accountId },
    );
    expect(errorCodes(set)).toEqual([]);
    const cleared = await graphql(
      service,
      'mutation($id: ID!) { clearAccountFlag(accountId: $id, flag: CREDITS_BLOCKED, reason: "Reviewed: deposits are fine") { flags } }',
      { id: accountId },
    );
    expect(errorCodes(cleared)).toEqual([]);
    expect(cleared.json.data.clearAccountFlag.flags).toEqual([]);
    const flags = (await read(customerId, { kinds: ['FLAG'] })).nodes;
    expect(flags.map((entry) => [entry.operation, entry.flag, entry.reason])).toEqual([
      ['account.flag.clear', 'CREDITS_BLOCKED', 'Reviewed: deposits are fine'],
      ['account.flag.set', 'CREDITS_BLOCKED', 'Returned deposits'],
    ]);
  });
});
