import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFailure, expectSuccess } from '../../rest/helpers.js';
import { bearer } from '../../support/http-auth.js';
import { startTestService, type TestService } from '../../support/service.js';
import { verificationHelpers } from './support.js';

/**
 * A customer's verification over REST (docs/adr/0101): the record, checks through the sandbox provider and the
 * job that applies their results (run once by the test, never waited for), people's decisions, the requirements
 * derived on read (a changed address reopens the identity check; a business's owners), the owner-rejected rule,
 * the events and audit rows, the scopes, and every refusal coded with nothing changed.
 */

let service: TestService;
let v: ReturnType<typeof verificationHelpers>;

beforeAll(async () => {
  // The job runs only when the test says so; the sandbox answers at once.
  service = await startTestService({ VERIFICATION_SANDBOX_DELAY_MS: '0', VERIFICATION_JOB_INTERVAL_MS: '3600000' });
  v = verificationHelpers(service);
});
afterAll(async () => service?.stop());

describe("a person's verification", () => {
  it('starts UNVERIFIED with the identity check due, and nothing else', async () => {
    const customerId = await v.person();
    const res = await v.get(customerId);
    expectSuccess(res, 'customer', 200);
    expect(res.json.data).toEqual({
      customerId,
      status: 'UNVERIFIED',
      requirements: { currentlyDue: ['identity_check'], pendingVerification: [], errors: [] },
      checks: [],
      documents: [],
      decision: null,
    });
  });

  it('records a check (202, PENDING), then the job applies the sandbox result: VERIFIED, with its events and audit rows', async () => {
    const customerId = await v.person('Doe');
    const res = await v.requestCheck(customerId);
    expect(res.status, res.text).toBe(202);
    expect(res.json.data).toEqual({
      checkId: expect.any(String),
      kind: 'IDENTITY',
      provider: 'sandbox',
      reference: `sandbox_${res.json.data.checkId}`,
      status: 'PENDING',
      outcome: null,
      reasonCodes: [],
      coveredFields: ['name', 'dateOfBirth', 'address', 'ssn'],
      requestedAt: expect.stringMatching(/Z$/),
      completedAt: null,
    });
    const pending = await v.read(customerId);
    expect(pending.status).toBe('PENDING');
    expect(pending.requirements).toEqual({ currentlyDue: [], pendingVerification: ['identity_check'], errors: [] });

    await service.jobs.verificationChecks.runOnce();
    const done = await v.read(customerId);
    expect(done.status).toBe('VERIFIED');
    expect(done.requirements).toEqual({ currentlyDue: [], pendingVerification: [], errors: [] });
    expect(done.checks).toEqual([
      expect.objectContaining({
        checkId: res.json.data.checkId,
        status: 'COMPLETED',
        outcome: 'VERIFIED',
        reasonCodes: [],
      }),
    ]);
    expect((await v.events(customerId)).map((event) => event.payload)).toEqual([
      { customerId, status: 'PENDING', previousStatus: 'UNVERIFIED' },
      { customerId, status: 'VERIFIED', previousStatus: 'PENDING' },
    ]);
    expect(await v.audit(customerId)).toEqual([
      {
        operation: 'customer.verification.check',
        principal_id: expect.any(String),
        changed_fields: ['checks', 'status'],
      },
      {
        operation: 'customer.verification.result',
        principal_id: 'system:verification-sandbox',
        changed_fields: ['status'],
      },
    ]);
  });

  it('answers the magic values: Review → NEEDS_REVIEW, Reject → REJECTED with IDENTITY_NOT_FOUND (any case)', async () => {
    const review = await v.check(await v.person('Review'));
    expect(review.status).toBe('NEEDS_REVIEW');
    expect(review.checks[0]).toMatchObject({ outcome: 'NEEDS_REVIEW', reasonCodes: ['MANUAL_REVIEW'] });
    expect(review.requirements).toEqual({ currentlyDue: [], pendingVerification: ['identity_check'], errors: [] });

    const rejected = await v.check(await v.person('REJECT'));
    expect(rejected.status).toBe('REJECTED');
    expect(rejected.checks[0]).toMatchObject({ outcome: 'REJECTED', reasonCodes: ['IDENTITY_NOT_FOUND'] });
    expect(rejected.requirements).toEqual({
      currentlyDue: ['identity_check'],
      pendingVerification: [],
      errors: [{ requirement: 'identity_check', code: 'IDENTITY_NOT_FOUND', reason: expect.any(String) }],
    });
  });

  it('applies a result only once it is due (VERIFICATION_SANDBOX_DELAY_MS), and each once', async () => {
    const customerId = await v.person();
    const res = await v.requestCheck(customerId);
    expect(res.status).toBe(202);
    await service.database.pool.query(
      `UPDATE verification_checks SET due_at = now() + interval '1 hour' WHERE id = $1`,
      [res.json.data.checkId],
    );
    await service.jobs.verificationChecks.runOnce();
    expect((await v.read(customerId)).status).toBe('PENDING');
    await service.database.pool.query(`UPDATE verification_checks SET due_at = now() WHERE id = $1`, [
      res.json.data.checkId,
    ]);
    await service.jobs.verificationChecks.runOnce();
    await service.jobs.verificationChecks.runOnce();
    expect((await v.read(customerId)).status).toBe('VERIFIED');
    expect(await v.events(customerId)).toHaveLength(2);
  });

  it('a person decides a review, with the reason, who and when; the decision satisfies the identity check', async () => {
    const customerId = await v.person('Review');
    await v.check(customerId);
    const res = await v.decide(customerId, { outcome: 'VERIFIED', reason: '  Passport matches.  ' });
    expectSuccess(res, 'customer', 200);
    expect(res.json.data.status).toBe('VERIFIED');
    expect(res.json.data.decision).toEqual({
      outcome: 'VERIFIED',
      reason: 'Passport matches.',
      decidedBy: expect.stringMatching(/^static:/),
      decidedAt: expect.stringMatching(/Z$/),
    });
    expect(res.json.data.requirements).toEqual({ currentlyDue: [], pendingVerification: [], errors: [] });
    expect((await v.audit(customerId)).at(-1)).toMatchObject({
      operation: 'customer.verification.decide',
      changed_fields: ['decision', 'status'],
    });
    expect((await v.events(customerId)).at(-1)!.payload).toEqual({
      customerId,
      status: 'VERIFIED',
      previousStatus: 'NEEDS_REVIEW',
    });
  });

  it('a change of a verified field reopens just the identity check; a change of another field does not', async () => {
    const customerId = await v.person();
    await v.check(customerId);
    const email = await service.call('PUT', `/sandbox/customer/${customerId}`, {
      body: { emails: ['someone.else@example.com'] },
    });
    expect(email.status, email.text).toBe(200);
    expect((await v.read(customerId)).requirements.currentlyDue).toEqual([]);

    const moved = await service.call('PUT', `/sandbox/customer/${customerId}`, {
      body: { addresses: [{ type: 'HOME', street: '2 Elm St', city: 'Springfield', state: 'IL', zip: '62702' }] },
    });
    expect(moved.status, moved.text).toBe(200);
    const reopened = await v.read(customerId);
    expect(reopened.status).toBe('VERIFIED');
    expect(reopened.requirements).toEqual({
      currentlyDue: ['identity_check'],
      pendingVerification: [],
      errors: [
        {
          requirement: 'identity_check',
          code: 'VERIFIED_FIELDS_CHANGED',
          reason: 'Changed since the last check: address. Request a new check.',
        },
      ],
    });
    // A new check covers the address as it is now.
    const again = await v.check(customerId);
    expect(again.status).toBe('VERIFIED');
    expect(again.checks).toHaveLength(2);
    expect(again.requirements.currentlyDue).toEqual([]);
  });

  it('never answers, stores in an event, or audits a value a check covered', async () => {
    const customerId = await v.person('Uniquename');
    const verification = await v.check(customerId);
    const texts = [
      JSON.stringify(verification),
      JSON.stringify(await v.events(customerId)),
      JSON.stringify(await v.audit(customerId)),
    ];
    for (const text of texts) {
      expect(text).not.toContain('Uniquename');
      expect(text).not.toContain('1985-04-12');
      expect(text).not.toContain('Main St');
    }
    expect(verification.checks[0]).not.toHaveProperty('fieldDigests');
  });
});

describe('refusals: coded, nothing changed', () => {
  it('a second check while one runs: 409 VERIFICATION_TRANSITION_NOT_ALLOWED', async () => {
    const customerId = await v.person();
    expect((await v.requestCheck(customerId)).status).toBe(202);
    const res = await v.expectRefused(() => v.requestCheck(customerId), 409, 'VERIFICATION_TRANSITION_NOT_ALLOWED');
    expect(res.json.error.message).toBe(
      'A verification that is PENDING cannot become PENDING by check requested. Nothing was changed.',
    );
    await service.jobs.verificationChecks.runOnce();
  });

  it('two check requests at once: one is recorded, the other refused (the customer row is held)', async () => {
    const customerId = await v.person();
    const answers = await Promise.all([v.requestCheck(customerId), v.requestCheck(customerId)]);
    expect(answers.map((res) => res.status).sort()).toEqual([202, 409]);
    const { rows } = await service.database.pool.query(
      'SELECT count(*)::int AS n FROM verification_checks WHERE customer_id = $1',
      [customerId],
    );
    expect(rows[0].n).toBe(1);
    expect(await v.events(customerId)).toHaveLength(1);
    await service.jobs.verificationChecks.runOnce();
  });

  it('a decision before anything was asked, or to the status it has', async () => {
    const fresh = await v.person();
    await v.expectRefused(
      () => v.decide(fresh, { outcome: 'VERIFIED', reason: 'ok' }),
      409,
      'VERIFICATION_TRANSITION_NOT_ALLOWED',
    );
    const verified = await v.person();
    await v.check(verified);
    await v.expectRefused(
      () => v.decide(verified, { outcome: 'VERIFIED', reason: 'ok' }),
      409,
      'VERIFICATION_TRANSITION_NOT_ALLOWED',
    );
  });

  it('an unknown customer (404), a bad decision body (400 VALIDATION_FAILED, each field named)', async () => {
    const missing = '0193a5c2-7f3e-7c41-9d2a-5b8e4f1c2a99';
    await v.expectRefused(() => v.get(missing), 404, 'CUSTOMER_NOT_FOUND');
    await v.expectRefused(() => v.get('not-an-id'), 404, 'CUSTOMER_NOT_FOUND');
    await v.expectRefused(() => v.requestCheck(missing), 404, 'CUSTOMER_NOT_FOUND');
    await v.expectRefused(() => v.decide(missing, { outcome: 'REJECTED', reason: 'fraud' }), 404, 'CUSTOMER_NOT_FOUND');
    const customerId = await v.person('Review');
    await v.check(customerId);
    for (const body of [
      {},
      { outcome: 'MAYBE', reason: 'x' },
      { outcome: 'VERIFIED', reason: '' },
      { outcome: 'VERIFIED', reason: 'x'.repeat(501) },
      { outcome: 'VERIFIED', reason: 'ok', extra: 1 },
      { outcome: 'NEEDS_REVIEW', reason: 'ok' },
    ]) {
      const res = await v.expectRefused(() => v.decide(customerId, body), 400, 'VALIDATION_FAILED');
      expect(res.json.error.details.length).toBeGreaterThan(0);
    }
  });
});

describe('scopes: each operation its own', () => {
  it('reading needs verification:read, a check verification:write, a decision verification:decide', async () => {
    const [reader, writer, decider, customers] = await Promise.all([
      v.token(['verification:read'], 'reader'),
      v.token(['verification:write'], 'writer'),
      v.token(['verification:decide'], 'decider'),
      v.token(['customers:read', 'customers:write'], 'customers'),
    ]);
    const customerId = await v.person('Review');
    for (const token of [writer, decider, customers]) {
      const res = await v.get(customerId, { headers: bearer(token) });
      expectFailure(res, 'customer', 403, 'FORBIDDEN');
      expect(res.headers.get('www-authenticate')).toContain('scope="verification:read"');
    }
    expectSuccess(await v.get(customerId, { headers: bearer(reader) }), 'customer', 200);

    for (const token of [reader, decider, customers]) {
      const res = await v.expectRefused(() => v.requestCheck(customerId, { headers: bearer(token) }), 403, 'FORBIDDEN');
      expect(res.headers.get('www-authenticate')).toContain('scope="verification:write"');
    }
    // Without verification:read, the check's id alone.
    const requested = await v.requestCheck(customerId, { headers: bearer(writer) });
    expect(requested.status).toBe(202);
    expect(Object.keys(requested.json.data)).toEqual(['checkId']);
    await service.jobs.verificationChecks.runOnce();

    for (const token of [reader, writer, customers]) {
      const res = await v.expectRefused(
        () => v.decide(customerId, { outcome: 'VERIFIED', reason: 'ok' }, { headers: bearer(token) }),
        403,
        'FORBIDDEN',
      );
      expect(res.headers.get('www-authenticate')).toContain('scope="verification:decide"');
    }
    // Without verification:read, the customer's id alone.
    const decided = await v.decide(customerId, { outcome: 'VERIFIED', reason: 'ok' }, { headers: bearer(decider) });
    expectSuccess(decided, 'customer', 200);
    expect(decided.json.data).toEqual({ customerId });
  });

  it('the event shows the statuses to verification:read, and withholds them from events:read alone', async () => {
    const customerId = await v.person();
    await v.check(customerId);
    await service.jobs.eventOutbox.runOnce();
    const [follower, verifier] = await Promise.all([
      v.token(['events:read'], 'follower'),
      v.token(['events:read', 'verification:read'], 'verifier'),
    ]);
    const list = async (token: string) => {
      const res = await service.call('GET', `/sandbox/customer/${customerId}/event`, { headers: bearer(token) });
      expect(res.status, res.text).toBe(200);
      return (res.json.data.events as { type: string; data: unknown }[]).filter(
        (event) => event.type === 'customer.verification_updated',
      );
    };
    expect((await list(verifier)).map((event) => event.data)).toEqual([
      { customerId, status: 'VERIFIED', previousStatus: 'PENDING' },
      { customerId, status: 'PENDING', previousStatus: 'UNVERIFIED' },
    ]);
    expect((await list(follower)).map((event) => event.data)).toEqual([
      { customerId, changedFields: ['status'], requiredScope: 'verification:read' },
      { customerId, changedFields: ['checks', 'status'], requiredScope: 'verification:read' },
    ]);
  });
});

describe("a business's verification", () => {
  it('needs its business check, its formation document, its owners under the CDD rule and each owner VERIFIED', async () => {
    const businessId = await v.business();
    expect((await v.read(businessId)).requirements).toEqual({
      currentlyDue: ['business_check', 'formation_document', 'beneficial_owners'],
      pendingVerification: [],
      errors: [{ requirement: 'beneficial_owners', code: 'CONTROL_PERSON_MISSING', reason: expect.any(String) }],
    });
    const [ceo, investor] = [await v.person(), await v.person()];
    await v.addOwner(businessId, { customerId: ceo, prongs: ['CONTROL'] });
    await v.addOwner(businessId, { customerId: investor, prongs: ['OWNERSHIP'], ownershipPercentage: '10' });
    expect((await v.read(businessId)).requirements).toEqual({
      currentlyDue: [
        'business_check',
        'formation_document',
        'beneficial_owners',
        `owner_verification:${ceo}`,
        `owner_verification:${investor}`,
      ],
      pendingVerification: [],
      errors: [
        {
          requirement: 'beneficial_owners',
          code: 'OWNERSHIP_BELOW_THRESHOLD',
          reason: `Owner ${investor} owns less than 25 % and has no CONTROL prong: not a beneficial owner under the CDD rule.`,
        },
      ],
    });
    const removed = await service.call('DELETE', `/sandbox/customer/${businessId}/beneficial-owner/${investor}`);
    expect(removed.status).toBe(200);
    await v.requestCheck(ceo);
    const ownerPending = await v.read(businessId);
    expect(ownerPending.requirements.pendingVerification).toEqual([`owner_verification:${ceo}`]);
    await service.jobs.verificationChecks.runOnce();

    // The business's check passes, but a person still reviews its formation document: NEEDS_REVIEW.
    const checked = await v.check(businessId);
    expect(checked.checks[0]).toMatchObject({
      kind: 'BUSINESS',
      outcome: 'VERIFIED',
      coveredFields: ['legalName', 'taxId', 'address', 'formation'],
    });
    expect(checked.status).toBe('NEEDS_REVIEW');
    expect(checked.requirements).toEqual({ currentlyDue: ['formation_document'], pendingVerification: [], errors: [] });
    const decided = await v.decide(businessId, { outcome: 'VERIFIED', reason: 'Articles of organization reviewed.' });
    expect(decided.json.data.status).toBe('VERIFIED');

    // A new owner reopens just its own requirement.
    const director = await v.person();
    await v.addOwner(businessId, { customerId: director, prongs: ['CONTROL'] });
    expect((await v.read(businessId)).requirements.currentlyDue).toEqual([
      'formation_document',
      `owner_verification:${director}`,
    ]);
  });

  it('a change of its address reopens just the business check', async () => {
    const businessId = await v.business();
    await v.check(businessId);
    const moved = await service.call('PUT', `/sandbox/customer/${businessId}`, {
      body: { addresses: [{ type: 'OFFICE', street: '9 Harbor St', city: 'Dover', state: 'DE', zip: '19901' }] },
    });
    expect(moved.status, moved.text).toBe(200);
    const reopened = await v.read(businessId);
    expect(reopened.requirements.currentlyDue).toEqual(['business_check', 'formation_document', 'beneficial_owners']);
    expect(reopened.requirements.errors).toContainEqual({
      requirement: 'business_check',
      code: 'VERIFIED_FIELDS_CHANGED',
      reason: 'Changed since the last check: address. Request a new check.',
    });
  });

  it("the legal name's magic values: Reject → REJECTED with BUSINESS_NOT_FOUND", async () => {
    const rejected = await v.check(await v.business({ legalName: 'Reject' }));
    expect(rejected.status).toBe('REJECTED');
    expect(rejected.checks[0]).toMatchObject({ kind: 'BUSINESS', reasonCodes: ['BUSINESS_NOT_FOUND'] });
    expect((await v.check(await v.business({ legalName: 'review' }))).status).toBe('NEEDS_REVIEW');
  });

  it("an owner's rejection, by a person or by its check, puts a VERIFIED business back to NEEDS_REVIEW in the same transaction", async () => {
    const verifiedBusiness = async (ownerId: string) => {
      const businessId = await v.business();
      await v.addOwner(businessId, { customerId: ownerId, prongs: ['CONTROL'] });
      await v.setStatus(businessId, 'VERIFIED');
      return businessId;
    };
    // By a person: both businesses the owner controls.
    const owner = await v.person();
    await v.check(owner);
    const [first, second] = [await verifiedBusiness(owner), await verifiedBusiness(owner)];
    const rejected = await v.decide(owner, { outcome: 'REJECTED', reason: 'Sanctions list match.' });
    expectSuccess(rejected, 'customer', 200);
    for (const businessId of [first, second]) {
      const business = await v.read(businessId);
      expect(business.status).toBe('NEEDS_REVIEW');
      expect(business.requirements.errors).toContainEqual({
        requirement: `owner_verification:${owner}`,
        code: 'OWNER_REJECTED',
        reason: 'This owner was rejected.',
      });
      expect((await v.events(businessId)).map((event) => event.payload)).toEqual([
        { customerId: businessId, status: 'NEEDS_REVIEW', previousStatus: 'VERIFIED' },
      ]);
      expect(await v.audit(businessId)).toEqual([
        {
          operation: 'customer.verification.owner_rejected',
          principal_id: expect.stringMatching(/^static:/),
          changed_fields: ['status'],
        },
      ]);
    }

    // By its check (the sandbox's Reject).
    const rejectedByCheck = await v.person('Reject');
    const third = await verifiedBusiness(rejectedByCheck);
    await v.check(rejectedByCheck);
    expect((await v.read(third)).status).toBe('NEEDS_REVIEW');
    expect(await v.audit(third)).toEqual([
      {
        operation: 'customer.verification.owner_rejected',
        principal_id: 'system:verification-sandbox',
        changed_fields: ['status'],
      },
    ]);
  });

  it('the owner-rejected rule moves only a VERIFIED business (the table: NEEDS_REVIEW and REJECTED stay, PENDING gets there by its own check)', async () => {
    for (const status of ['UNVERIFIED', 'PENDING', 'NEEDS_REVIEW', 'REJECTED']) {
      const owner = await v.person('Review');
      await v.check(owner);
      const businessId = await v.business();
      await v.addOwner(businessId, { customerId: owner, prongs: ['CONTROL'] });
      if (status !== 'UNVERIFIED') await v.setStatus(businessId, status);
      expectSuccess(await v.decide(owner, { outcome: 'REJECTED', reason: 'no' }), 'customer', 200);
      expect((await v.read(businessId)).status).toBe(status);
      expect(await v.events(businessId)).toEqual([]);
    }
  });
});

describe('the review queue: GET /{environment}/customer?verificationStatus=', () => {
  it('lists the customers in a status (UNVERIFIED: those never asked), with verification:read besides customers:read', async () => {
    const inReview = [await v.person('Review'), await v.person('Review')];
    for (const customerId of inReview) await v.check(customerId);
    const verified = await v.person();
    await v.check(verified);
    const never = await v.person();
    const ids = async (status: string, token?: string) => {
      const res = await service.call('GET', `/sandbox/customer?verificationStatus=${status}&limit=100`, {
        ...(token && { headers: bearer(token) }),
      });
      expectSuccess(res, 'customer', 200);
      return (res.json.data.customers as { customerId: string }[]).map((customer) => customer.customerId);
    };
    const queue = await ids('NEEDS_REVIEW');
    expect(queue).toEqual(expect.arrayContaining(inReview));
    expect(queue).not.toContain(verified);
    expect(queue).not.toContain(never);
    for (const customerId of queue) expect((await v.read(customerId)).status).toBe('NEEDS_REVIEW');
    expect(await ids('UNVERIFIED')).toContain(never);
    expect(await ids('UNVERIFIED')).not.toContain(verified);
    expect(await ids('VERIFIED')).toContain(verified);

    const support = await v.token(['customers:read'], 'support');
    const refused = await service.call('GET', '/sandbox/customer?verificationStatus=NEEDS_REVIEW', {
      headers: bearer(support),
    });
    expectFailure(refused, 'customer', 403, 'FORBIDDEN');
    expect(refused.headers.get('www-authenticate')).toContain('scope="verification:read"');
    expectSuccess(await service.call('GET', '/sandbox/customer', { headers: bearer(support) }), 'customer', 200);
    const reviewer = await v.token(['customers:read', 'verification:read'], 'reviewer');
    expect(await ids('NEEDS_REVIEW', reviewer)).toEqual(queue);

    const invalid = await service.call('GET', '/sandbox/customer?verificationStatus=ALMOST');
    expectFailure(invalid, 'customer', 400, 'VALIDATION_FAILED');
    expect(invalid.json.error.details[0].field).toBe('verificationStatus');
  });
});
