import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStores } from '../../../src/features/stores.js';
import { auditEventFor } from '../../../src/domain/audit-event.js';
import { liftExpiredFlagsOnce } from '../../../src/features/accounts/flag-expiry.job.js';
import { createLogger } from '../../../src/logging/logger.js';
import { errorCodes, graphql } from '../../graphql/helpers.js';
import { ACCOUNT_DATA_KEYS, createAccount, createCustomer, expectFailure, expectSuccess } from '../../rest/helpers.js';
import { issueApiToken } from '../../support/api-tokens.js';
import { expectNoChange } from '../../support/database.js';
import { createDomainHarness, type DomainHarness } from '../../support/domain.js';
import { buildAccountInput, buildCustomerInput } from '../../support/factories.js';
import { bearer } from '../../support/http-auth.js';
import { startTestService, type TestService } from '../../support/service.js';

/**
 * Freezes with a reason and an end: PUT .../flags/{flag} takes {reason, until}, GET .../flags and
 * Account.flagDetails answer the details, and a flag past its `until` lifts itself (src/features/accounts/flag-expiry.job.ts).
 */
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

describe('over HTTP', () => {
  let service: TestService;
  beforeAll(async () => {
    // The job would lift nothing here (no flag ends within the test); an hour keeps it out of the way.
    service = await startTestService({ FLAG_EXPIRY_INTERVAL_MS: '3600000' });
  });
  afterAll(async () => service?.stop());

  const newAccount = async () =>
    (await createAccount(service, [(await createCustomer(service)).customerId])).accountId as string;
  const flags = (accountId: string, headers?: Record<string, string>) =>
    service.call('GET', `/sandbox/account/${accountId}/flags`, { headers });
  const principalOf = async (accountId: string) =>
    (
      await service.database.pool.query(
        "SELECT principal_id FROM audit_events WHERE resource_id = $1 AND operation = 'account.flag.set' ORDER BY occurred_at DESC LIMIT 1",
        [accountId],
      )
    ).rows[0]?.principal_id as string;

  it('the contract call without a body still freezes; GET .../flags answers who and when, with no reason and no end', async () => {
    const accountId = await newAccount();
    expectSuccess(await flags(accountId), 'account', 200);
    expect((await flags(accountId)).json.data).toEqual({ flags: [] });

    const frozen = await service.call('PUT', `/sandbox/account/${accountId}/flags/FROZEN`);
    expectSuccess(frozen, 'account', 200);
    expect(Object.keys(frozen.json.data).sort()).toEqual([...ACCOUNT_DATA_KEYS].sort());
    expect(frozen.json.data.flags).toEqual(['FROZEN']);

    const details = await flags(accountId);
    expectSuccess(details, 'account', 200);
    expect(details.json.data.flags).toEqual([
      {
        flag: 'FROZEN',
        reason: null,
        setAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        setBy: await principalOf(accountId),
        setByName: 'API_TOKENS entry 1',
        until: null,
      },
    ]);
    expect(details.json.data.flags[0].setBy).toMatch(/^static:/);
    expect(details.text).not.toContain(service.token);
  });

  it('a reason and an end are kept and read back; the account keeps its contract shape; a clear drops them', async () => {
    const accountId = await newAccount();
    const until = inAnHour();
    const set = await service.call('PUT', `/sandbox/account/${accountId}/flags/FROZEN`, {
      body: { reason: 'Suspected fraud, case 4711', until },
    });
    expectSuccess(set, 'account', 200);
    expect(Object.keys(set.json.data).sort()).toEqual([...ACCOUNT_DATA_KEYS].sort());
    expectSuccess(await service.call('PUT', `/sandbox/account/${accountId}/flags/DEBITS_BLOCKED`), 'account', 200);

    const details = (await flags(accountId)).json.data.flags;
    expect(details.map((detail: { flag: string }) => detail.flag)).toEqual(['FROZEN', 'DEBITS_BLOCKED']);
    expect(details[0]).toMatchObject({
      flag: 'FROZEN',
      reason: 'Suspected fraud, case 4711',
      until: new Date(until).toISOString(),
    });
    const audit = await service.database.pool.query(
      "SELECT changed_fields FROM audit_events WHERE resource_id = $1 AND operation = 'account.flag.set' ORDER BY occurred_at",
      [accountId],
    );
    expect(audit.rows.map((row) => row.changed_fields)).toEqual([['flags', 'reason', 'until'], ['flags']]);
    // The reason is the setter's text, kept with the flag only: never in the audit trail or the event.
    const event = await service.database.pool.query('SELECT payload FROM events WHERE resource_id = $1', [accountId]);
    expect(JSON.stringify(event.rows)).not.toContain('Suspected fraud');

    expectSuccess(await service.call('DELETE', `/sandbox/account/${accountId}/flags/FROZEN`), 'account', 200);
    expect((await flags(accountId)).json.data.flags).toEqual([
      expect.objectContaining({ flag: 'DEBITS_BLOCKED', reason: null, until: null }),
    ]);
  });

  it('setting a set flag without details changes nothing; with a reason or an end, both are replaced', async () => {
    const accountId = await newAccount();
    expectSuccess(
      await service.call('PUT', `/sandbox/account/${accountId}/flags/FROZEN`, {
        body: { reason: 'Court order', until: inAnHour() },
      }),
      'account',
      200,
    );
    const before = (await flags(accountId)).json.data.flags;
    await expectNoChange(service.database.pool, async () => {
      expectSuccess(await service.call('PUT', `/sandbox/account/${accountId}/flags/FROZEN`), 'account', 200);
      expectSuccess(
        await service.call('PUT', `/sandbox/account/${accountId}/flags/FROZEN`, { body: {} }),
        'account',
        200,
      );
      expectSuccess(
        await service.call('PUT', `/sandbox/account/${accountId}/flags/FROZEN`, {
          body: { reason: 'Court order', until: before[0].until },
        }),
        'account',
        200,
      );
    });
    expect((await flags(accountId)).json.data.flags).toEqual(before);

    expectSuccess(
      await service.call('PUT', `/sandbox/account/${accountId}/flags/FROZEN`, {
        body: { reason: 'Court order, extended' },
      }),
      'account',
      200,
    );
    expect((await flags(accountId)).json.data.flags).toEqual([
      expect.objectContaining({ flag: 'FROZEN', reason: 'Court order, extended', until: null }),
    ]);
  });

  it('refuses an end in the past, a malformed end, an empty or too long reason and unknown fields with 400, changing nothing', async () => {
    const accountId = await newAccount();
    const put = (body: unknown) =>
      expectNoChange(service.database.pool, () =>
        service.call('PUT', `/sandbox/account/${accountId}/flags/FROZEN`, { body }),
      );
    const past = await put({ reason: 'Late', until: new Date(Date.now() - 60_000).toISOString() });
    expectFailure(past, 'account', 400, 'VALIDATION_FAILED');
    expect(past.json.error.details).toEqual([expect.objectContaining({ field: 'until', code: 'OUT_OF_RANGE' })]);
    expect((await put({ until: '24/12/2026' })).json.error.details).toEqual([
      expect.objectContaining({ field: 'until', code: 'INVALID_FORMAT' }),
    ]);
    expect((await put({ until: '2026-12-24T17:00:00' })).json.error.details).toEqual([
      expect.objectContaining({ field: 'until' }),
    ]);
    expect((await put({ reason: '' })).json.error.details).toEqual([
      expect.objectContaining({ field: 'reason', code: 'TOO_SHORT' }),
    ]);
    expect((await put({ reason: 'x'.repeat(501) })).json.error.details).toEqual([
      expect.objectContaining({ field: 'reason', code: 'TOO_LONG' }),
    ]);
    expect((await put({ note: 'x' })).json.error.details).toEqual([
      expect.objectContaining({ field: 'note', code: 'UNKNOWN_FIELD' }),
    ]);
    expectFailure(await put({ reason: 42 }), 'account', 400, 'VALIDATION_FAILED');
    expect((await flags(accountId)).json.data.flags).toEqual([]);
  });

  it('names the setter as people read it, as it was named when it set the flag: a managed token by its name', async () => {
    const accountId = await newAccount();
    const desk = await issueApiToken(service.database.pool, {
      environments: ['*'],
      scopes: ['accounts:controls'],
      name: 'fraud-desk',
    });
    expectSuccess(
      await service.call('PUT', `/sandbox/account/${accountId}/flags/DEBITS_BLOCKED`, {
        body: { reason: 'Card reported stolen' },
        headers: bearer(desk.token),
      }),
      'account',
      200,
    );
    const [detail] = (await flags(accountId)).json.data.flags;
    expect(detail).toMatchObject({ flag: 'DEBITS_BLOCKED', setByName: 'fraud-desk' });
    expect(detail.setBy).toMatch(/^token:/);
    // The name it had then: renaming or revoking the token later does not rewrite who set the flag.
    await service.database.pool.query('UPDATE api_tokens SET name = $1 WHERE name = $2', ['renamed', 'fraud-desk']);
    expect((await flags(accountId)).json.data.flags[0].setByName).toBe('fraud-desk');
  });

  it('GET .../flags needs accounts:read and an account of this environment; setting needs accounts:controls', async () => {
    const accountId = await newAccount();
    const reader = (await issueApiToken(service.database.pool, { environments: ['*'], scopes: ['accounts:read'] }))
      .token;
    expectSuccess(await flags(accountId, bearer(reader)), 'account', 200);
    expectFailure(
      await service.call('PUT', `/sandbox/account/${accountId}/flags/FROZEN`, {
        body: { reason: 'no' },
        headers: bearer(reader),
      }),
      'account',
      403,
      'FORBIDDEN',
    );
    const controller = (
      await issueApiToken(service.database.pool, { environments: ['*'], scopes: ['accounts:controls'] })
    ).token;
    expectFailure(await flags(accountId, bearer(controller)), 'account', 403, 'FORBIDDEN');
    expectFailure(
      await service.call('GET', '/sandbox/account/00000000-0000-7000-8000-000000000000/flags'),
      'account',
      404,
      'ACCOUNT_NOT_FOUND',
    );
    expectFailure(await service.call('GET', '/sandbox/account/not-an-id/flags'), 'account', 404, 'ACCOUNT_NOT_FOUND');
    expectFailure(
      await service.call('GET', `/production-like/account/${accountId}/flags`),
      'account',
      404,
      'ACCOUNT_NOT_FOUND',
    );
  });

  it('GraphQL: setAccountFlag takes reason and until; Account.flagDetails answers them, flags stays a list of names', async () => {
    const accountId = await newAccount();
    const until = inAnHour();
    const set = await graphql(
      service,
      'mutation($id: ID!, $until: String) { setAccountFlag(accountId: $id, flag: CREDITS_BLOCKED, reason: "Deceased holder", until: $until) { flags flagDetails { flag reason setAt setBy setByName until } } }',
      { id: accountId, until },
    );
    expect(set.json.errors).toBeUndefined();
    expect(set.json.data.setAccountFlag.flags).toEqual(['CREDITS_BLOCKED']);
    expect(set.json.data.setAccountFlag.flagDetails).toEqual([
      {
        flag: 'CREDITS_BLOCKED',
        reason: 'Deceased holder',
        setAt: expect.any(String),
        setBy: await principalOf(accountId),
        setByName: 'API_TOKENS entry 1',
        until: new Date(until).toISOString(),
      },
    ]);
    // The same details as REST.
    const rest = (await flags(accountId)).json.data.flags;
    const read = await graphql(
      service,
      'query($id: ID!) { account(accountId: $id) { flagDetails { flag reason setAt setBy setByName until } } }',
      { id: accountId },
    );
    expect(read.json.data.account.flagDetails).toEqual(rest);

    const past = await graphql(
      service,
      'mutation($id: ID!) { setAccountFlag(accountId: $id, flag: FROZEN, until: "2001-01-01T00:00:00Z") { flags } }',
      { id: accountId },
    );
    expect(errorCodes(past)).toEqual(['VALIDATION_FAILED']);
    const cleared = await graphql(
      service,
      'mutation($id: ID!) { clearAccountFlag(accountId: $id, flag: CREDITS_BLOCKED) { flags flagDetails { flag } } }',
      { id: accountId },
    );
    expect(cleared.json.data.clearAccountFlag).toEqual({ flags: [], flagDetails: [] });
  });

  it('GraphQL: a page of accounts reads its flag details in one statement', async () => {
    const ids = [await newAccount(), await newAccount(), await newAccount()];
    for (const id of ids)
      expectSuccess(
        await service.call('PUT', `/sandbox/account/${id}/flags/FROZEN`, { body: { reason: `case ${id.slice(-4)}` } }),
        'account',
        200,
      );
    service.statements.names.length = 0;
    const page = await graphql(
      service,
      '{ accounts(first: 100, filter: { flag: FROZEN }) { nodes { accountId flagDetails { reason } } } }',
    );
    const nodes = page.json.data.accounts.nodes.filter((node: { accountId: string }) => ids.includes(node.accountId));
    expect(nodes.map((node: { flagDetails: { reason: string }[] }) => node.flagDetails[0]!.reason)).toEqual(
      ids.map((id) => `case ${id.slice(-4)}`),
    );
    expect(service.statements.names.filter((name) => name === 'cas_account_flag_details')).toHaveLength(1);
  });
});

describe('flags that lift themselves (src/features/accounts/flag-expiry.job.ts, run once)', () => {
  let h: DomainHarness;
  const logger = createLogger({ level: 'silent', pretty: false });
  let stores: ReturnType<typeof createStores>;
  beforeAll(async () => {
    h = await createDomainHarness();
    stores = createStores(h.prisma);
  });
  afterAll(async () => h?.close());

  const newAccount = async () => {
    const customerId = (await h.services.customers.create(h.caller(), buildCustomerInput())).value.customerId;
    return (await h.services.accounts.create(h.caller(), buildAccountInput([customerId]))).value.accountId;
  };
  /** The end of every flag of the account moved into the past, as time passing would. */
  const pastItsEnd = (accountId: string) =>
    h.pool.query(
      "UPDATE account_flags SET until = now() - interval '1 second' WHERE account_id = $1 AND until IS NOT NULL",
      [accountId],
    );

  it('lifts a flag past its end, audited as system:flag-expiry, with the event a clear writes; flags without an end stay', async () => {
    const accountId = await newAccount();
    await h.services.accounts.setFlag(h.caller(), accountId, 'FROZEN', { reason: 'Fraud review', until: inAnHour() });
    await h.services.accounts.setFlag(h.caller(), accountId, 'DEBITS_BLOCKED', { reason: 'Until cleared' });
    expect(await liftExpiredFlagsOnce(h.services.accounts, logger)).toBe(0);
    await pastItsEnd(accountId);

    expect(await liftExpiredFlagsOnce(h.services.accounts, logger)).toBe(1);
    expect((await h.services.accounts.get(h.caller(), accountId)).flags).toEqual(['DEBITS_BLOCKED']);
    expect((await h.services.accounts.flagDetails(h.caller(), accountId)).map((detail) => detail.flag)).toEqual([
      'DEBITS_BLOCKED',
    ]);

    const audit = await h.pool.query(
      "SELECT principal_id, changed_fields FROM audit_events WHERE resource_id = $1 AND operation = 'account.flag.expire'",
      [accountId],
    );
    expect(audit.rows).toEqual([{ principal_id: 'system:flag-expiry', changed_fields: ['flags'] }]);
    const events = await h.pool.query(
      "SELECT type, changed_fields, payload->'flags' AS flags FROM events WHERE resource_id = $1 AND type = 'account.updated' ORDER BY txid, id",
      [accountId],
    );
    // Set, set, lifted: the lift's event is the one a manual clear writes.
    expect(events.rows.at(-1)).toEqual({
      type: 'account.updated',
      changed_fields: ['flags'],
      flags: ['DEBITS_BLOCKED'],
    });
    expect(await liftExpiredFlagsOnce(h.services.accounts, logger)).toBe(0);
  });

  it('several instances at once lift each flag once', async () => {
    const accounts = [await newAccount(), await newAccount(), await newAccount()];
    for (const accountId of accounts) {
      await h.services.accounts.setFlag(h.caller(), accountId, 'FROZEN', { until: inAnHour() });
      await pastItsEnd(accountId);
    }
    const lifted = await Promise.all([1, 2, 3].map(() => liftExpiredFlagsOnce(h.services.accounts, logger)));
    expect(lifted.reduce((sum, n) => sum + n, 0)).toBe(3);
    const audits = await h.pool.query(
      "SELECT count(*)::int AS n FROM audit_events WHERE resource_id = ANY($1::uuid[]) AND operation = 'account.flag.expire'",
      [accounts],
    );
    expect(audits.rows[0].n).toBe(3);
  });

  it('a flag extended after the sweep found it stays: the lift re-checks its end on the locked rows', async () => {
    const accountId = await newAccount();
    await h.services.accounts.setFlag(h.caller(), accountId, 'FROZEN', { until: inAnHour() });
    await pastItsEnd(accountId);
    const [found] = await stores.accounts.expiredFlags(10);
    expect(found).toEqual({ environment: 'sandbox', accountId, flag: 'FROZEN', dueBy: expect.any(Date) });
    // Extended between the sweep's look-up and its lift.
    await h.services.accounts.setFlag(h.caller(), accountId, 'FROZEN', { reason: 'Extended', until: inAnHour() });
    const audit = auditEventFor(h.caller(), {
      operation: 'account.flag.expire',
      resourceType: 'account',
      resourceId: accountId,
      changedFields: ['flags'],
    });
    const change = await stores.accounts.clearFlag(
      'sandbox',
      accountId,
      'FROZEN',
      { audit },
      { reason: null, liftedByName: null },
      new Date(),
    );
    expect(change.outcome).toBe('unchanged');
    expect((await h.services.accounts.flagDetails(h.caller(), accountId))[0]).toMatchObject({
      flag: 'FROZEN',
      reason: 'Extended',
    });
  });
});
