import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createCustomer, expectFailure, expectSuccess } from '../../rest/helpers.js';
import { graphql, errorCodes } from '../../graphql/helpers.js';
import { expectNoChange } from '../../support/database.js';
import { buildAccountInput } from '../../support/factories.js';
import { ledgerViolations } from '../../support/ledger-invariants.js';
import { startTestService, type TestService } from '../../support/service.js';

/**
 * The gates (docs/adr/0104), opt-in per environment: `production-like` is gated (VERIFICATION_REQUIRED), `sandbox`
 * is not and keeps the contract's "no restrictions". In the gated one an account is not created for, and no money
 * posts on an account of, a customer that is not VERIFIED (409 VERIFICATION_REQUIRED naming the customers, nothing
 * changed), over REST and GraphQL; a rejection freezes the customer's accounts (VERIFICATION_REJECTED). The ledger
 * sums to zero per environment and currency throughout.
 */

const GATED = 'production-like';
let service: TestService;

beforeAll(async () => {
  service = await startTestService({
    VERIFICATION_SANDBOX_DELAY_MS: '0',
    VERIFICATION_JOB_INTERVAL_MS: '3600000',
    VERIFICATION_REQUIRED: GATED,
  });
});
afterAll(async () => service?.stop());

/** A customer of the environment, VERIFIED by the sandbox's check (the job run once), or left UNVERIFIED. */
async function customer(environment: string, verified: boolean): Promise<string> {
  const { customerId } = await createCustomer(service, { lastName: 'Doe' }, environment);
  if (!verified) return customerId;
  const res = await service.call('POST', `/${environment}/customer/${customerId}/verification/check`);
  expect(res.status, res.text).toBe(202);
  await service.jobs.verificationChecks.runOnce();
  const read = await service.call('GET', `/${environment}/customer/${customerId}/verification`);
  expect(read.json.data.status).toBe('VERIFIED');
  return customerId;
}

const deposit = (environment: string, accountId: string, amount = '100.00') =>
  service.call('POST', `/${environment}/account/${accountId}/transaction`, { body: { type: 'CREDIT', amount } });
const transfer = (environment: string, fromAccountId: string, toAccountId: string) =>
  service.call('POST', `/${environment}/transfer`, { body: { fromAccountId, toAccountId, amount: '10.00' } });

function expectVerificationRequired(
  res: Awaited<ReturnType<typeof deposit>>,
  family: 'customer' | 'account',
  ids: string[],
) {
  expectFailure(res, family, 409, 'VERIFICATION_REQUIRED');
  expect(res.json.error.details).toEqual(
    ids.map((id) => ({
      field: 'customerId',
      code: 'CUSTOMER_NOT_VERIFIED',
      message: `Customer ${id} is not VERIFIED.`,
    })),
  );
}

const POST_TRANSACTION = `mutation($a: ID!, $i: PostTransactionInput!) { postTransaction(accountId: $a, input: $i) { transactionId } }`;
const TRANSFER = `mutation($i: TransferInput!) { transfer(input: $i) { transferId } }`;
const CREATE_ACCOUNT = `mutation($i: CreateAccountInput!) { createAccount(input: $i) { accountId } }`;
const ADD_CUSTOMER = `mutation($a: ID!, $c: ID!, $r: AccountRole) { addAccountCustomer(accountId: $a, customerId: $c, role: $r) { accountId customerIds } }`;
const CLOSE = `mutation($a: ID!, $to: ID) { closeAccount(accountId: $a, reason: CUSTOMER_REQUEST, disbursementAccountId: $to) { accountId status } }`;

const addHolder = (environment: string, accountId: string, body: Record<string, unknown>) =>
  service.call('POST', `/${environment}/account/${accountId}/customer`, { body });
const close = (environment: string, accountId: string, disbursementAccountId?: string) =>
  service.call('POST', `/${environment}/account/${accountId}/close`, {
    body: { reason: 'CUSTOMER_REQUEST', ...(disbursementAccountId && { disbursementAccountId }) },
  });
const balance = async (environment: string, accountId: string) =>
  (await service.call('GET', `/${environment}/account/${accountId}`)).json.data.amount as number;

describe('an environment without the gate', () => {
  it('creates accounts for and moves money of UNVERIFIED customers, as the contract says', async () => {
    const [a, b] = [await customer('sandbox', false), await customer('sandbox', false)];
    const [from, to] = [await createAccount(service, [a]), await createAccount(service, [b])];
    expectSuccess(await deposit('sandbox', from.accountId), 'account', 201);
    expectSuccess(await transfer('sandbox', from.accountId, to.accountId), 'account', 201);
    const viaGraphql = await graphql(service, TRANSFER, {
      i: { fromAccountId: from.accountId, toAccountId: to.accountId, amount: '1.00' },
    });
    expect(viaGraphql.json.errors).toBeUndefined();
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });

  it('adds UNVERIFIED holders and closes to an UNVERIFIED customer’s account, over REST and GraphQL', async () => {
    const [a, b, c] = [
      await customer('sandbox', false),
      await customer('sandbox', false),
      await customer('sandbox', false),
    ];
    const account = await createAccount(service, [a]);
    const added = await addHolder('sandbox', account.accountId, { customerId: b });
    expectSuccess(added, 'account', 200);
    expect(added.json.data.customers).toEqual([a, b]);
    const viaGraphql = await graphql(service, ADD_CUSTOMER, { a: account.accountId, c, r: 'AUTHORIZED_USER' });
    expect(viaGraphql.json.errors).toBeUndefined();
    expect(viaGraphql.json.data.addAccountCustomer.customerIds).toEqual([a, b, c]);

    const [other, another] = [await createAccount(service, [b]), await createAccount(service, [c])];
    expectSuccess(await deposit('sandbox', account.accountId, '7.00'), 'account', 201);
    expectSuccess(await close('sandbox', account.accountId, other.accountId), 'account', 200);
    expect(await balance('sandbox', other.accountId)).toBe(7);
    expectSuccess(await deposit('sandbox', other.accountId, '3.00'), 'account', 201);
    const closed = await graphql(service, CLOSE, { a: other.accountId, to: another.accountId });
    expect(closed.json.errors).toBeUndefined();
    expect(closed.json.data.closeAccount.status).toBe('CLOSED');
    expect(await balance('sandbox', another.accountId)).toBe(10);
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });

  it('does not freeze a rejected customer’s accounts', async () => {
    const id = await customer('sandbox', true);
    const account = await createAccount(service, [id]);
    const decided = await service.call('POST', `/sandbox/customer/${id}/verification/decision`, {
      body: { outcome: 'REJECTED', reason: 'Fraud found later.' },
    });
    expect(decided.status, decided.text).toBe(200);
    const read = await service.call('GET', `/sandbox/account/${account.accountId}`);
    expect(read.json.data.flags).toEqual([]);
  });
});

describe('a gated environment', () => {
  it('refuses an account for customers that are not VERIFIED, naming them, over REST and GraphQL; creates nothing', async () => {
    const verified = await customer(GATED, true);
    const unverified = await customer(GATED, false);
    const rest = await expectNoChange(service.database.pool, () =>
      service.call('POST', `/${GATED}/account`, { body: buildAccountInput([verified, unverified]) }),
    );
    expectVerificationRequired(rest, 'account', [unverified]);
    const viaGraphql = await expectNoChange(service.database.pool, () =>
      graphql(service, CREATE_ACCOUNT, { i: buildAccountInput([unverified]) }, { environment: GATED }),
    );
    expect(errorCodes(viaGraphql)).toEqual(['VERIFICATION_REQUIRED']);
    expect(viaGraphql.json.errors[0].extensions.details).toEqual([
      expect.objectContaining({ code: 'CUSTOMER_NOT_VERIFIED' }),
    ]);
    expect(JSON.stringify(viaGraphql.json.errors)).toContain(unverified);
    // A VERIFIED customer's account is created.
    await createAccount(service, [verified], GATED);
  });

  it('refuses postings on an account whose customer is no longer VERIFIED (a new check runs), over REST and GraphQL', async () => {
    const [a, b] = [await customer(GATED, true), await customer(GATED, true)];
    const [from, to] = [await createAccount(service, [a], GATED), await createAccount(service, [b], GATED)];
    expectSuccess(await deposit(GATED, from.accountId), 'account', 201);
    expectSuccess(await transfer(GATED, from.accountId, to.accountId), 'account', 201);

    // b's new check is PENDING: not VERIFIED, so no money moves to or from its account.
    const check = await service.call('POST', `/${GATED}/customer/${b}/verification/check`);
    expect(check.status).toBe(202);
    const pool = service.database.pool;
    expectVerificationRequired(await expectNoChange(pool, () => deposit(GATED, to.accountId)), 'account', [b]);
    expectVerificationRequired(
      await expectNoChange(pool, () => transfer(GATED, from.accountId, to.accountId)),
      'account',
      [b],
    );
    const viaGraphql = await expectNoChange(pool, () =>
      graphql(
        service,
        TRANSFER,
        { i: { fromAccountId: to.accountId, toAccountId: from.accountId, amount: '1.00' } },
        { environment: GATED },
      ),
    );
    expect(errorCodes(viaGraphql)).toEqual(['VERIFICATION_REQUIRED']);
    const posted = await expectNoChange(pool, () =>
      graphql(
        service,
        POST_TRANSACTION,
        { a: to.accountId, i: { type: 'DEBIT', amount: '1.00' } },
        { environment: GATED },
      ),
    );
    expect(errorCodes(posted)).toEqual(['VERIFICATION_REQUIRED']);
    // a's own account still takes money alone.
    expectSuccess(await deposit(GATED, from.accountId, '5.00'), 'account', 201);

    // The check's result (VERIFIED again) opens the account again.
    await service.jobs.verificationChecks.runOnce();
    expectSuccess(await transfer(GATED, from.accountId, to.accountId), 'account', 201);
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });

  it('freezes every account of a REJECTED customer (reason VERIFICATION_REJECTED), audited, with account.updated events', async () => {
    const [a, b] = [await customer(GATED, true), await customer(GATED, true)];
    const own = await createAccount(service, [a], GATED);
    const joint = await createAccount(service, [a, b], GATED);
    expectSuccess(await deposit(GATED, own.accountId), 'account', 201);
    const decided = await service.call('POST', `/${GATED}/customer/${a}/verification/decision`, {
      body: { outcome: 'REJECTED', reason: 'Synthetic identity.' },
    });
    expect(decided.status, decided.text).toBe(200);
    for (const account of [own, joint]) {
      const flags = await service.call('GET', `/${GATED}/account/${account.accountId}/flags`);
      expect(flags.json.data.flags).toEqual([
        expect.objectContaining({
          flag: 'FROZEN',
          reason: 'VERIFICATION_REJECTED',
          setBy: expect.any(String),
          until: null,
        }),
      ]);
    }
    const { rows } = await service.database.pool.query(
      `SELECT (SELECT count(*)::int FROM audit_events WHERE operation = 'account.flag.set' AND resource_id = ANY($1::uuid[])) AS audit,
              (SELECT count(*)::int FROM events WHERE type = 'account.updated' AND resource_id = ANY($1::uuid[]) AND 'FROZEN' = ANY(ARRAY(SELECT jsonb_array_elements_text(payload->'flags')))) AS events`,
      [[own.accountId, joint.accountId]],
    );
    expect(rows[0]).toEqual({ audit: 2, events: 2 });
    // Frozen: the gate's own refusal names a; the freeze holds even once a is verified again by a person.
    const overturned = await service.call('POST', `/${GATED}/customer/${a}/verification/decision`, {
      body: { outcome: 'VERIFIED', reason: 'Documents reviewed again.' },
    });
    expect(overturned.status, overturned.text).toBe(200);
    expectFailure(await deposit(GATED, own.accountId), 'account', 409, 'ACCOUNT_FROZEN');
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });

  it('refuses a holder that is not VERIFIED, whatever its role, naming it, over REST and GraphQL; changes nothing', async () => {
    const [a, b] = [await customer(GATED, true), await customer(GATED, true)];
    const unverified = await customer(GATED, false);
    const account = await createAccount(service, [a], GATED);
    const pool = service.database.pool;
    const rest = await expectNoChange(pool, () => addHolder(GATED, account.accountId, { customerId: unverified }));
    expectVerificationRequired(rest, 'account', [unverified]);
    const signer = await expectNoChange(pool, () =>
      addHolder(GATED, account.accountId, { customerId: unverified, role: 'AUTHORIZED_SIGNER' }),
    );
    expectVerificationRequired(signer, 'account', [unverified]);
    const viaGraphql = await expectNoChange(pool, () =>
      graphql(service, ADD_CUSTOMER, { a: account.accountId, c: unverified }, { environment: GATED }),
    );
    expect(errorCodes(viaGraphql)).toEqual(['VERIFICATION_REQUIRED']);
    expect(viaGraphql.json.errors[0].extensions.details).toEqual([
      { field: 'customerId', code: 'CUSTOMER_NOT_VERIFIED', message: `Customer ${unverified} is not VERIFIED.` },
    ]);
    const read = await service.call('GET', `/${GATED}/account/${account.accountId}`);
    expect(read.json.data.customers).toEqual([a]);

    // A customer that does not exist is still CUSTOMER_NOT_FOUND; a VERIFIED one is added, over both surfaces.
    const missing = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
    expectFailure(
      await addHolder(GATED, account.accountId, { customerId: missing }),
      'account',
      422,
      'CUSTOMER_NOT_FOUND',
    );
    expectSuccess(await addHolder(GATED, account.accountId, { customerId: b }), 'account', 200);
    const c = await customer(GATED, true);
    const added = await graphql(service, ADD_CUSTOMER, { a: account.accountId, c }, { environment: GATED });
    expect(added.json.errors).toBeUndefined();
    expect(added.json.data.addAccountCustomer.customerIds).toEqual([a, b, c]);
  });

  it('closes to a disbursement account only when its customers are all VERIFIED, over REST and GraphQL', async () => {
    const [a, b] = [await customer(GATED, true), await customer(GATED, true)];
    const closing = await createAccount(service, [a], GATED);
    const verifiedTo = await createAccount(service, [b], GATED);
    // b's new check is PENDING: b's own account and the joint one (a VERIFIED) can receive nothing.
    const jointTo = await createAccount(service, [a, b], GATED);
    expectSuccess(await deposit(GATED, closing.accountId, '25.00'), 'account', 201);
    expect((await service.call('POST', `/${GATED}/customer/${b}/verification/check`)).status).toBe(202);
    const pool = service.database.pool;
    expectVerificationRequired(
      await expectNoChange(pool, () => close(GATED, closing.accountId, jointTo.accountId)),
      'account',
      [b],
    );
    const viaGraphql = await expectNoChange(pool, () =>
      graphql(service, CLOSE, { a: closing.accountId, to: verifiedTo.accountId }, { environment: GATED }),
    );
    expect(errorCodes(viaGraphql)).toEqual(['VERIFICATION_REQUIRED']);
    expect(JSON.stringify(viaGraphql.json.errors)).toContain(b);
    expect((await service.call('GET', `/${GATED}/account/${closing.accountId}`)).json.data.status).toBeUndefined();

    // b's check completes (VERIFIED): the balance moves and the account closes, over GraphQL, then REST.
    await service.jobs.verificationChecks.runOnce();
    const closed = await graphql(
      service,
      CLOSE,
      { a: closing.accountId, to: jointTo.accountId },
      { environment: GATED },
    );
    expect(closed.json.errors).toBeUndefined();
    expect(closed.json.data.closeAccount.status).toBe('CLOSED');
    expect(await balance(GATED, jointTo.accountId)).toBe(25);
    expectSuccess(await close(GATED, jointTo.accountId, verifiedTo.accountId), 'account', 200);
    expect(await balance(GATED, verifiedTo.accountId)).toBe(25);
    expect(await ledgerViolations(pool)).toEqual([]);
  });

  it('closes a REJECTED customer’s frozen account (not gated): empty at once; with money once the freeze is cleared', async () => {
    const [a, b] = [await customer(GATED, true), await customer(GATED, true)];
    const [empty, funded] = [await createAccount(service, [a], GATED), await createAccount(service, [a], GATED)];
    const to = await createAccount(service, [b], GATED);
    expectSuccess(await deposit(GATED, funded.accountId, '40.00'), 'account', 201);
    const decided = await service.call('POST', `/${GATED}/customer/${a}/verification/decision`, {
      body: { outcome: 'REJECTED', reason: 'Synthetic identity.' },
    });
    expect(decided.status, decided.text).toBe(200);
    const pool = service.database.pool;

    // Neither is gated as the closing account; the freeze still moves no money.
    expectSuccess(await close(GATED, empty.accountId), 'account', 200);
    expectFailure(
      await expectNoChange(pool, () => close(GATED, funded.accountId, to.accountId)),
      'account',
      409,
      'ACCOUNT_FROZEN',
    );
    // The bank clears the freeze (audited, accounts:controls), then closes: the money goes to b's account.
    const cleared = await service.call('DELETE', `/${GATED}/account/${funded.accountId}/flags/FROZEN`);
    expect(cleared.status, cleared.text).toBe(200);
    const closed = await graphql(service, CLOSE, { a: funded.accountId, to: to.accountId }, { environment: GATED });
    expect(closed.json.errors).toBeUndefined();
    expect(closed.json.data.closeAccount.status).toBe('CLOSED');
    expect(await balance(GATED, to.accountId)).toBe(40);
    expect(await ledgerViolations(pool)).toEqual([]);
  });

  it('refuses the reversal of a transfer when the other side’s customer is not VERIFIED', async () => {
    const [a, b] = [await customer(GATED, true), await customer(GATED, true)];
    const [from, to] = [await createAccount(service, [a], GATED), await createAccount(service, [b], GATED)];
    expectSuccess(await deposit(GATED, from.accountId), 'account', 201);
    const moved = await transfer(GATED, from.accountId, to.accountId);
    expectSuccess(moved, 'account', 201);
    expect((await service.call('POST', `/${GATED}/customer/${b}/verification/check`)).status).toBe(202);
    const reversal = await expectNoChange(service.database.pool, () =>
      service.call(
        'POST',
        `/${GATED}/account/${from.accountId}/transaction/${moved.json.data.debit.transactionId}/reverse`,
        { body: {} },
      ),
    );
    expectVerificationRequired(reversal, 'account', [b]);
    await service.jobs.verificationChecks.runOnce();
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });

  it('freezes by the sandbox’s result too: a customer named Reject, VERIFIED before (a fixture), checked again', async () => {
    const { customerId: id } = await createCustomer(service, { lastName: 'Reject' }, GATED);
    await service.database.pool.query(
      `INSERT INTO customer_verifications (customer_id, environment, status) VALUES ($1, $2, 'VERIFIED')`,
      [id, GATED],
    );
    const account = await createAccount(service, [id], GATED);
    expect((await service.call('POST', `/${GATED}/customer/${id}/verification/check`)).status).toBe(202);
    await service.jobs.verificationChecks.runOnce();
    const flags = await service.call('GET', `/${GATED}/account/${account.accountId}/flags`);
    expect(flags.json.data.flags).toEqual([
      expect.objectContaining({
        flag: 'FROZEN',
        reason: 'VERIFICATION_REJECTED',
        setBy: 'system:verification-sandbox',
      }),
    ]);
  });
});

describe('the callback without the http provider', () => {
  it('answers 503 VERIFICATION_PROVIDER_NOT_CONFIGURED, applying nothing', async () => {
    const res = await service.call('POST', '/sandbox/verification/callback', {
      auth: false,
      rawBody: '{}',
      headers: { 'content-type': 'application/json' },
      validateResponse: false,
    });
    expectFailure(res, 'customer', 503, 'VERIFICATION_PROVIDER_NOT_CONFIGURED');
  });
});
