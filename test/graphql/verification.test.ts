import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessScope } from '../../src/domain/caller.js';
import { issueApiToken } from '../support/api-tokens.js';
import { buildCustomerInput } from '../support/factories.js';
import { startTestService, type CallResult, type TestService } from '../support/service.js';
import { createCustomer, errorCodes, graphql } from './helpers.js';

/**
 * Customer verification over GraphQL (docs/adr/0101), through HTTP against the real database: `Customer.verification`
 * batched per request and gated by `verification:read`, the mutations with REST's scopes, rules and codes (the job
 * run once by the test), the `verificationStatus` filter, and the statuses on `Event`.
 */
let service: TestService;
const tokens = { reader: '', writer: '', decider: '', customersOnly: '', eventsOnly: '', eventsAndVerification: '' };

beforeAll(async () => {
  service = await startTestService({ VERIFICATION_SANDBOX_DELAY_MS: '0', VERIFICATION_JOB_INTERVAL_MS: '3600000' });
  const issue = async (scopes: AccessScope[]) =>
    (await issueApiToken(service.database.pool, { environments: ['sandbox'], scopes })).token;
  tokens.reader = await issue(['customers:read', 'verification:read']);
  tokens.writer = await issue(['verification:write']);
  tokens.decider = await issue(['verification:decide']);
  tokens.customersOnly = await issue(['customers:read']);
  tokens.eventsOnly = await issue(['events:read']);
  tokens.eventsAndVerification = await issue(['events:read', 'verification:read']);
});
afterAll(async () => service?.stop());

const as = (token: string) => ({ auth: false, headers: { authorization: `Bearer ${token}` } });

function data(result: CallResult) {
  expect(result.status).toBe(200);
  expect(errorCodes(result), result.text).toEqual([]);
  return result.json.data;
}

const newPerson = (lastName = 'Doe') => createCustomer(service, buildCustomerInput({ lastName }));

const VERIFICATION = `customerId status requirements { currentlyDue pendingVerification errors { requirement code reason } }
  checks { checkId kind provider reference status outcome reasonCodes coveredFields requestedAt completedAt }
  decision { outcome reason decidedBy decidedAt }`;
const READ = `query($id: ID!) { customer(customerId: $id) { customerId verification { ${VERIFICATION} } } }`;
const REQUEST = 'mutation($id: ID!) { requestVerificationCheck(customerId: $id) { checkId status kind } }';
const DECIDE = `mutation($id: ID!, $input: VerificationDecisionInput!) { decideVerification(customerId: $id, input: $input) { ${VERIFICATION} } }`;

async function checked(customerId: string): Promise<void> {
  data(await graphql(service, REQUEST, { id: customerId }));
  await service.jobs.verificationChecks.runOnce();
}

describe('Customer.verification and the mutations', () => {
  it("reads REST's record: UNVERIFIED, then PENDING, then the sandbox's result", async () => {
    const customerId = await newPerson();
    expect(data(await graphql(service, READ, { id: customerId })).customer.verification).toEqual({
      customerId,
      status: 'UNVERIFIED',
      requirements: { currentlyDue: ['identity_check'], pendingVerification: [], errors: [] },
      checks: [],
      decision: null,
    });
    const requested = data(await graphql(service, REQUEST, { id: customerId })).requestVerificationCheck;
    expect(requested).toEqual({ checkId: expect.any(String), status: 'PENDING', kind: 'IDENTITY' });
    expect(data(await graphql(service, READ, { id: customerId })).customer.verification.status).toBe('PENDING');
    await service.jobs.verificationChecks.runOnce();
    const done = data(await graphql(service, READ, { id: customerId })).customer.verification;
    expect(done.status).toBe('VERIFIED');
    expect(done.checks).toEqual([
      expect.objectContaining({
        checkId: requested.checkId,
        status: 'COMPLETED',
        outcome: 'VERIFIED',
        coveredFields: ['name', 'dateOfBirth', 'address', 'ssn'],
      }),
    ]);
  });

  it("decides a review with REST's rules; a repeat is VERIFICATION_TRANSITION_NOT_ALLOWED and changes nothing", async () => {
    const customerId = await newPerson('Review');
    await checked(customerId);
    const decided = data(
      await graphql(service, DECIDE, { id: customerId, input: { outcome: 'REJECTED', reason: 'Document forged.' } }),
    ).decideVerification;
    expect(decided).toMatchObject({
      status: 'REJECTED',
      decision: { outcome: 'REJECTED', reason: 'Document forged.', decidedBy: expect.stringMatching(/^static:/) },
    });
    const again = await graphql(service, DECIDE, { id: customerId, input: { outcome: 'REJECTED', reason: 'again' } });
    expect(errorCodes(again)).toEqual(['VERIFICATION_TRANSITION_NOT_ALLOWED']);
    expect(data(await graphql(service, READ, { id: customerId })).customer.verification.decision.reason).toBe(
      'Document forged.',
    );
    const invalid = await graphql(service, DECIDE, { id: customerId, input: { outcome: 'VERIFIED', reason: '' } });
    expect(errorCodes(invalid)).toEqual(['VALIDATION_FAILED']);
    const running = await newPerson();
    data(await graphql(service, REQUEST, { id: running }));
    expect(errorCodes(await graphql(service, REQUEST, { id: running }))).toEqual([
      'VERIFICATION_TRANSITION_NOT_ALLOWED',
    ]);
    await service.jobs.verificationChecks.runOnce();
  });

  it('needs verification:read for the field, verification:write and :decide for the mutations, each answering its id alone', async () => {
    const customerId = await newPerson('Review');
    const withoutRead = await graphql(service, READ, { id: customerId }, as(tokens.customersOnly));
    expect(withoutRead.json.data.customer).toEqual({ customerId, verification: null });
    expect(errorCodes(withoutRead)).toEqual(['FORBIDDEN']);
    expect(data(await graphql(service, READ, { id: customerId }, as(tokens.reader))).customer.verification.status).toBe(
      'UNVERIFIED',
    );

    expect(errorCodes(await graphql(service, REQUEST, { id: customerId }, as(tokens.reader)))).toEqual(['FORBIDDEN']);
    const idOnly = 'mutation($id: ID!) { requestVerificationCheck(customerId: $id) { checkId } }';
    expect(
      data(await graphql(service, idOnly, { id: customerId }, as(tokens.writer))).requestVerificationCheck,
    ).toEqual({
      checkId: expect.any(String),
    });
    await service.jobs.verificationChecks.runOnce();
    // Its other fields need verification:read: FORBIDDEN, and the check was made all the same (the path is below it).
    const other = await newPerson();
    const shaped = await graphql(service, REQUEST, { id: other }, as(tokens.writer));
    expect(new Set(errorCodes(shaped))).toEqual(new Set(['FORBIDDEN']));
    expect(shaped.json.errors[0].path).toEqual(['requestVerificationCheck', expect.any(String)]);
    const { rows } = await service.database.pool.query(
      'SELECT count(*)::int AS n FROM verification_checks WHERE customer_id = $1',
      [other],
    );
    expect(rows[0].n).toBe(1);
    await service.jobs.verificationChecks.runOnce();

    const decideIdOnly =
      'mutation($id: ID!, $input: VerificationDecisionInput!) { decideVerification(customerId: $id, input: $input) { customerId } }';
    const input = { outcome: 'VERIFIED', reason: 'Seen in person.' };
    expect(errorCodes(await graphql(service, decideIdOnly, { id: customerId, input }, as(tokens.writer)))).toEqual([
      'FORBIDDEN',
    ]);
    expect(
      data(await graphql(service, decideIdOnly, { id: customerId, input }, as(tokens.decider))).decideVerification,
    ).toEqual({ customerId });
  });

  it('reads the verifications of a page of customers in one statement, whatever its size', async () => {
    const ids = [await newPerson(), await newPerson('Review'), await newPerson()];
    for (const id of ids.slice(0, 2)) await checked(id);
    const many = `query { customers(first: 100) { nodes { customerId verification { status checks { outcome } } } } }`;
    service.statements.count = 0;
    const nodes = data(await graphql(service, many)).customers.nodes as {
      customerId: string;
      verification: { status: string };
    }[];
    const statementsForAll = service.statements.count;
    expect(nodes.length).toBeGreaterThanOrEqual(3);
    const byId = new Map(nodes.map((node) => [node.customerId, node.verification.status]));
    expect(ids.map((id) => byId.get(id))).toEqual(['VERIFIED', 'NEEDS_REVIEW', 'UNVERIFIED']);
    service.statements.count = 0;
    data(
      await graphql(
        service,
        `
          query {
            customers(first: 1) {
              nodes {
                customerId
                verification {
                  status
                }
              }
            }
          }
        `,
      ),
    );
    expect(service.statements.count).toBe(statementsForAll);
  });
});

describe('customers(filter: {verificationStatus})', () => {
  it('is the review queue, with verification:read besides customers:read', async () => {
    const inReview = await newPerson('Review');
    await checked(inReview);
    const verified = await newPerson();
    await checked(verified);
    const queue =
      '{ customers(first: 100, filter: { verificationStatus: NEEDS_REVIEW }) { nodes { customerId verification { status } } } }';
    const nodes = data(await graphql(service, queue, undefined, as(tokens.reader))).customers.nodes as {
      customerId: string;
      verification: { status: string };
    }[];
    expect(nodes.map((node) => node.customerId)).toContain(inReview);
    expect(nodes.map((node) => node.customerId)).not.toContain(verified);
    for (const node of nodes) expect(node.verification.status).toBe('NEEDS_REVIEW');
    expect(errorCodes(await graphql(service, queue, undefined, as(tokens.customersOnly)))).toEqual(['FORBIDDEN']);
  });
});

describe('Event.verificationStatus', () => {
  it('shows the statuses to verification:read and null to events:read alone', async () => {
    const customerId = await newPerson();
    await checked(customerId);
    await service.jobs.eventOutbox.runOnce();
    const query = `{ events(first: 100, types: ["customer.verification_updated"]) { events { type customerId verificationStatus previousVerificationStatus requiredScope } } }`;
    const read = async (token: string) =>
      (data(await graphql(service, query, undefined, as(token))).events.events as { customerId: string }[]).filter(
        (event) => event.customerId === customerId,
      );
    expect(await read(tokens.eventsAndVerification)).toEqual([
      {
        type: 'customer.verification_updated',
        customerId,
        verificationStatus: 'PENDING',
        previousVerificationStatus: 'UNVERIFIED',
        requiredScope: null,
      },
      {
        type: 'customer.verification_updated',
        customerId,
        verificationStatus: 'VERIFIED',
        previousVerificationStatus: 'PENDING',
        requiredScope: null,
      },
    ]);
    expect(await read(tokens.eventsOnly)).toEqual([
      {
        type: 'customer.verification_updated',
        customerId,
        verificationStatus: null,
        previousVerificationStatus: null,
        requiredScope: 'verification:read',
      },
      {
        type: 'customer.verification_updated',
        customerId,
        verificationStatus: null,
        previousVerificationStatus: null,
        requiredScope: 'verification:read',
      },
    ]);
  });
});
