import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { createAccount, createCustomer, expectFailure } from '../../rest/helpers.js';
import { startTestService, type TestService } from '../../support/service.js';
import { type FakeVendor, newCallbackSecret, startFakeVendor } from './fake-vendor.js';
import { verificationHelpers } from './support.js';

/**
 * The `http` provider against a local fake vendor that signs its callbacks (docs/adr/0104): the job submits the
 * decrypted fields (run once by the test), the vendor answers 202 and calls back; VERIFIED and REJECTED with reason
 * codes; a replay, a bad signature, a stale timestamp and an unknown check refused with nothing applied twice; a
 * time-out retried, and after the last attempt PROVIDER_UNAVAILABLE; no personal data in the log.
 */

const SECRET = newCallbackSecret();
const TOKEN = 'vendor-api-token-0123456789abcdef';
let vendor: FakeVendor;
let service: TestService;
let v: ReturnType<typeof verificationHelpers>;

beforeAll(async () => {
  vendor = await startFakeVendor(SECRET);
  service = await startTestService({
    VERIFICATION_PROVIDER: 'http',
    VERIFICATION_HTTP_URL: vendor.url,
    VERIFICATION_HTTP_TOKEN: TOKEN,
    VERIFICATION_CALLBACK_SECRET: SECRET,
    VERIFICATION_HTTP_TIMEOUT_MS: '300',
    VERIFICATION_HTTP_RETRIES: '2',
    VERIFICATION_JOB_INTERVAL_MS: '3600000',
    VERIFICATION_REQUIRED: 'production-like',
  });
  vendor.callbackBase = service.url;
  v = verificationHelpers(service);
});
afterAll(async () => {
  await service?.stop();
  await vendor?.close();
});

/** Asks for a check, runs the job once (the vendor's 202 and its callback follow) and answers the callback's answer. */
async function submitAndCallBack(customerId: string, environment = 'sandbox') {
  const res = await service.call('POST', `/${environment}/customer/${customerId}/verification/check`);
  expect(res.status, res.text).toBe(202);
  const before = vendor.deliveries.length;
  await service.jobs.verificationChecks.runOnce();
  expect(vendor.deliveries.length).toBe(before + 1);
  return { checkId: res.json.data.checkId as string, delivery: await vendor.deliveries[before]! };
}

const checkRow = async (checkId: string) =>
  (
    await service.database.pool.query(
      `SELECT provider, reference, status, outcome, reason_codes, covered_fields, attempts, submitted_at IS NOT NULL AS submitted,
              due_at > now() AS later FROM verification_checks WHERE id = $1`,
      [checkId],
    )
  ).rows[0];

describe('the http provider', () => {
  it('sends the decrypted fields to the vendor, which calls back VERIFIED; the check keeps provider, reference, outcome and fields', async () => {
    const { customerId, input } = await createCustomer(service, { lastName: 'Doe' });
    const { checkId, delivery } = await submitAndCallBack(customerId);
    expect(delivery.status, JSON.stringify(delivery.json)).toBe(200);
    expect(delivery.json.data).toEqual({ applied: true, duplicate: false, checkId, status: 'VERIFIED' });

    const sent = vendor.requests.at(-1)!;
    expect(sent.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(sent.headers['idempotency-key']).toBe(checkId);
    expect(sent.body).toMatchObject({
      reference: checkId,
      environment: 'sandbox',
      kind: 'IDENTITY',
      customerType: 'INDIVIDUAL',
      fields: {
        name: { first: input.firstName, last: 'Doe' },
        dateOfBirth: input.dateOfBirth,
        address: { street: input.addresses[0]!.street, zip: input.addresses[0]!.zip },
      },
    });
    expect(String(sent.body.fields.ssn).replace(/\D/g, '')).toBe(input.socialSecurityNumber.replace(/\D/g, ''));

    const verification = await v.read(customerId);
    expect(verification.status).toBe('VERIFIED');
    expect(verification.checks[0]).toMatchObject({
      checkId,
      provider: 'http',
      reference: expect.stringMatching(/^vnd_/),
      status: 'COMPLETED',
      outcome: 'VERIFIED',
      reasonCodes: [],
      coveredFields: ['name', 'dateOfBirth', 'address', 'ssn'],
    });
    expect(await checkRow(checkId)).toMatchObject({ attempts: 1, submitted: true });
    expect((await v.events(customerId)).map((event) => event.payload.status)).toEqual(['PENDING', 'VERIFIED']);
    expect((await v.audit(customerId)).map((row) => [row.operation, row.principal_id])).toEqual([
      ['customer.verification.check', expect.any(String)],
      ['customer.verification.result', 'system:verification-http'],
    ]);
  });

  it('applies REJECTED with its reason codes', async () => {
    const { customerId } = await createCustomer(service, { lastName: 'Reject' });
    const { delivery } = await submitAndCallBack(customerId);
    expect(delivery.json.data.status).toBe('REJECTED');
    const verification = await v.read(customerId);
    expect(verification.status).toBe('REJECTED');
    expect(verification.checks[0]).toMatchObject({
      outcome: 'REJECTED',
      reasonCodes: ['IDENTITY_NOT_FOUND', 'WATCHLIST_HIT'],
    });
    expect(verification.requirements.errors).toEqual([expect.objectContaining({ code: 'IDENTITY_NOT_FOUND' })]);
  });

  it('answers a replayed callback 200 without applying it twice, and refuses a new one for a completed check (409)', async () => {
    const { customerId } = await createCustomer(service, { lastName: 'Doe' });
    const { delivery } = await submitAndCallBack(customerId);
    expect(delivery.status).toBe(200);
    const before = await v.snapshot();
    const replay = await fetch(`${service.url}/sandbox/verification/callback`, {
      method: 'POST',
      headers: delivery.headers,
      body: delivery.payload,
    });
    expect(replay.status).toBe(200);
    expect(((await replay.json()) as { data: unknown }).data).toEqual({ applied: false, duplicate: true });
    expect(await v.snapshot()).toEqual(before);

    const again = await vendor.send('sandbox', delivery.payload);
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('VERIFICATION_CHECK_COMPLETED');
    expect(await v.snapshot()).toEqual(before);
  });

  it('refuses a bad signature, a changed body and a stale timestamp (401), and an unknown check (404), applying nothing', async () => {
    const { customerId } = await createCustomer(service, { lastName: 'Doe' });
    const res = await v.requestCheck(customerId);
    const checkId = res.json.data.checkId as string;
    const payload = JSON.stringify({
      type: 'verification.completed',
      data: { reference: checkId, outcome: 'VERIFIED', reasonCodes: [] },
    });
    const before = await v.snapshot();
    const refusals = [
      await vendor.send('sandbox', payload, { signWith: new Webhook(newCallbackSecret()) }),
      await vendor.send('sandbox', payload, { tamper: (text) => text.replace('VERIFIED', 'REJECTED') }),
      await vendor.send('sandbox', payload, { timestamp: new Date(Date.now() - 10 * 60_000) }),
    ];
    for (const refused of refusals) {
      expect(refused.status).toBe(401);
      expect(refused.json).toMatchObject({
        success: false,
        error: { code: 'VERIFICATION_CALLBACK_SIGNATURE_INVALID' },
      });
    }
    const unsigned = await fetch(`${service.url}/sandbox/verification/callback`, { method: 'POST', body: payload });
    expect(unsigned.status).toBe(401);
    const unknown = await vendor.send('sandbox', payload.replace(checkId, '0193a5c2-0000-7000-8000-000000000000'));
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('VERIFICATION_CHECK_NOT_FOUND');
    // The check belongs to sandbox: production-like has none with this reference.
    const otherEnvironment = await vendor.send('production-like', payload);
    expect(otherEnvironment.status).toBe(404);
    const malformed = await vendor.send('sandbox', JSON.stringify({ type: 'verification.completed', data: {} }));
    expect(malformed.status).toBe(400);
    expect(malformed.json.error.code).toBe('VALIDATION_FAILED');
    expect(await v.snapshot()).toEqual(before);
    expect((await v.read(customerId)).status).toBe('PENDING');
    // The check still takes its real callback.
    const signed = await vendor.send('sandbox', payload);
    expect(signed.status).toBe(200);
    expect((await v.read(customerId)).status).toBe('VERIFIED');
  });

  it('retries a time-out later (the attempt recorded on the check), then sends it again', async () => {
    const { customerId } = await createCustomer(service, { lastName: 'Doe' });
    const res = await v.requestCheck(customerId);
    const checkId = res.json.data.checkId as string;
    vendor.hang = 1;
    const deliveries = vendor.deliveries.length;
    await service.jobs.verificationChecks.runOnce();
    expect(vendor.deliveries.length).toBe(deliveries);
    expect(await checkRow(checkId)).toMatchObject({ status: 'PENDING', attempts: 1, submitted: false, later: true });
    expect((await v.read(customerId)).status).toBe('PENDING');

    // The back-off's wait, skipped: the next attempt is due now.
    await service.database.pool.query(`UPDATE verification_checks SET due_at = now() WHERE id = $1`, [checkId]);
    await service.jobs.verificationChecks.runOnce();
    expect(vendor.deliveries.length).toBe(deliveries + 1);
    expect((await vendor.deliveries[deliveries]!).json.data.status).toBe('VERIFIED');
    expect(await checkRow(checkId)).toMatchObject({ status: 'COMPLETED', attempts: 2, submitted: true });
    expect(service.logLines.some((line) => line.includes(checkId) && line.includes('"reason":"TIMEOUT"'))).toBe(true);
  });

  it('after the last attempt completes the check NEEDS_REVIEW with PROVIDER_UNAVAILABLE', async () => {
    const { customerId } = await createCustomer(service, { lastName: 'Doe' });
    const res = await v.requestCheck(customerId);
    const checkId = res.json.data.checkId as string;
    vendor.hang = 3;
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      await service.jobs.verificationChecks.runOnce();
      await service.database.pool.query(
        `UPDATE verification_checks SET due_at = now() WHERE id = $1 AND status = 'PENDING'`,
        [checkId],
      );
    }
    expect(await checkRow(checkId)).toMatchObject({
      status: 'COMPLETED',
      outcome: 'NEEDS_REVIEW',
      reason_codes: ['PROVIDER_UNAVAILABLE'],
      attempts: 3,
    });
    expect((await v.read(customerId)).status).toBe('NEEDS_REVIEW');
    await service.jobs.verificationChecks.runOnce();
    expect((await checkRow(checkId)).attempts).toBe(3);
  });

  it('completes a check the vendor accepted and never called back about NEEDS_REVIEW with PROVIDER_NO_RESULT', async () => {
    const { customerId } = await createCustomer(service, { lastName: 'Doe' });
    const res = await v.requestCheck(customerId);
    const checkId = res.json.data.checkId as string;
    vendor.silent = 1;
    await service.jobs.verificationChecks.runOnce();
    expect(await checkRow(checkId)).toMatchObject({ status: 'PENDING', submitted: true });
    // Within the time-out (a day by default) it waits.
    await service.jobs.verificationChecks.runOnce();
    expect((await v.read(customerId)).status).toBe('PENDING');

    // A day and a minute later, as the clock would have it: the next pass concludes it, once.
    await service.database.pool.query(
      `UPDATE verification_checks SET submitted_at = now() - interval '1 day 1 minute' WHERE id = $1`,
      [checkId],
    );
    await service.jobs.verificationChecks.runOnce();
    expect(await checkRow(checkId)).toMatchObject({
      status: 'COMPLETED',
      outcome: 'NEEDS_REVIEW',
      reason_codes: ['PROVIDER_NO_RESULT'],
    });
    expect((await v.read(customerId)).status).toBe('NEEDS_REVIEW');
    const results = (await v.audit(customerId)).filter((row) => row.operation === 'customer.verification.result');
    expect(results).toHaveLength(1);
    await service.jobs.verificationChecks.runOnce();
    expect((await v.audit(customerId)).filter((row) => row.operation === 'customer.verification.result')).toHaveLength(
      1,
    );

    // The vendor's late result is refused, as any second result is: the person's review stands.
    const reference = (await checkRow(checkId)).reference as string;
    const late = await vendor.send(
      'sandbox',
      JSON.stringify({
        type: 'verification.completed',
        timestamp: new Date().toISOString(),
        data: { reference: checkId, providerReference: reference, outcome: 'VERIFIED', reasonCodes: [] },
      }),
    );
    expect(late.status).toBe(409);
    expect(late.json.error.code).toBe('VERIFICATION_CHECK_COMPLETED');
    expect((await v.read(customerId)).status).toBe('NEEDS_REVIEW');
    expect(service.logLines.some((line) => line.includes(checkId) && line.includes('PROVIDER_NO_RESULT'))).toBe(true);
  });

  it('freezes a REJECTED customer’s accounts in a gated environment, by the callback', async () => {
    const { customerId } = await createCustomer(service, { lastName: 'Doe' }, 'production-like');
    expect((await submitAndCallBack(customerId, 'production-like')).delivery.json.data.status).toBe('VERIFIED');
    const account = await createAccount(service, [customerId], 'production-like');
    vendor.decide = () => ({ outcome: 'REJECTED', reasonCodes: ['SYNTHETIC_IDENTITY'] });
    try {
      expect((await submitAndCallBack(customerId, 'production-like')).delivery.json.data.status).toBe('REJECTED');
    } finally {
      vendor.decide = (body) =>
        body.fields?.name?.last === 'Reject'
          ? { outcome: 'REJECTED', reasonCodes: ['IDENTITY_NOT_FOUND', 'WATCHLIST_HIT'] }
          : { outcome: 'VERIFIED', reasonCodes: [] };
    }
    const flags = await service.call('GET', `/production-like/account/${account.accountId}/flags`);
    expect(flags.status, flags.text).toBe(200);
    expect(flags.json.data.flags).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ flag: 'FROZEN', reason: 'VERIFICATION_REJECTED', setBy: 'system:verification-http' }),
      ]),
    );
  });

  it('never logs the fields it sent', async () => {
    const names = vendor.requests.map((request) => request.body.fields?.name?.first).filter(Boolean);
    const ssns = vendor.requests.map((request) => request.body.fields?.ssn).filter(Boolean);
    expect(ssns.length).toBeGreaterThan(0);
    const log = service.logLines.join('\n');
    for (const value of [...ssns, ...ssns.map((ssn: string) => ssn.replace(/\D/g, ''))])
      expect(log.includes(value)).toBe(false);
    for (const name of new Set(names)) expect(log.includes(`"${name}"`)).toBe(false);
    expect(log.includes(TOKEN)).toBe(false);
    expect(log.includes(SECRET)).toBe(false);
  });
});

describe('the callback route', () => {
  it('caps the body (413) before reading a signature', async () => {
    const res = await fetch(`${service.url}/sandbox/verification/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ padding: 'x'.repeat(20_000) }),
    });
    expect(res.status).toBe(413);
  });

  it('is not there for an environment that is not configured', async () => {
    const res = await service.call('POST', '/elsewhere/verification/callback', { auth: false, rawBody: '{}' });
    expectFailure(res, 'customer', 404, 'ROUTE_NOT_FOUND');
  });
});
