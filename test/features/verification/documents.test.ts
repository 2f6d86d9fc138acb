import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrismaClient } from '../../../src/db/connection/prisma-client.js';
import type { AccessScope } from '../../../src/domain/caller.js';
import { PrismaSealedDocumentStore } from '../../../src/features/verification/index.js';
import { PiiCipher } from '../../../src/pii/pii-cipher.js';
import { rotateDocumentChunks } from '../../../src/pii/pii-rotation.js';
import { errorCodes, graphql } from '../../graphql/helpers.js';
import { issueApiToken } from '../../support/api-tokens.js';
import { startTestService, TEST_PII_ENV, type TestService } from '../../support/service.js';
import { documentHelpers, fileOf, MARKER, sha256 } from './documents-support.js';
import { verificationHelpers } from './support.js';

/**
 * A customer's verification documents (docs/adr/0103) over REST and GraphQL, on the real database: an upload of each
 * type and media type, stored only sealed under the PII keys (the column is checked), with its size and SHA-256; the
 * magic-number check (415) and the size limit (413), each storing nothing; the content read with its own scope, as
 * an attachment, audited; reviews by another principal than the uploader; the requirements they feed; key rotation.
 */

let service: TestService;
let v: ReturnType<typeof verificationHelpers>;
let d: ReturnType<typeof documentHelpers>;
const tokens = { uploader: '', reviewer: '', metadataReader: '', contentReader: '', writerOnly: '' };
const principals = { uploader: '', reviewer: '', contentReader: '' };

beforeAll(async () => {
  service = await startTestService({ VERIFICATION_SANDBOX_DELAY_MS: '0', VERIFICATION_JOB_INTERVAL_MS: '3600000' });
  v = verificationHelpers(service);
  d = documentHelpers(service);
  const issue = async (scopes: AccessScope[]) =>
    issueApiToken(service.database.pool, { environments: ['sandbox'], scopes });
  const uploader = await issue(['verification:write', 'verification:read', 'verification:decide']);
  const reviewer = await issue(['verification:decide', 'verification:read']);
  const contentReader = await issue(['documents:read']);
  tokens.uploader = uploader.token;
  tokens.reviewer = reviewer.token;
  tokens.contentReader = contentReader.token;
  tokens.metadataReader = (await issue(['verification:read'])).token;
  tokens.writerOnly = (await issue(['verification:write'])).token;
  principals.uploader = uploader.principalId;
  principals.reviewer = reviewer.principalId;
  principals.contentReader = contentReader.principalId;
});
afterAll(async () => service?.stop());

const as = (token: string) => ({ auth: false, headers: { authorization: `Bearer ${token}` } });

describe('an upload', () => {
  const cases = [
    ['ID_DOCUMENT', 'image/jpeg'],
    ['PROOF_OF_ADDRESS', 'application/pdf'],
    ['CERTIFICATE_OF_FORMATION', 'application/pdf'],
    ['EIN_LETTER', 'image/png'],
    ['OTHER', 'image/png'],
  ] as const;
  for (const [type, mediaType] of cases)
    it(`of a ${type} (${mediaType}) is stored with its size and SHA-256 and read back byte for byte`, async () => {
      const customerId = await v.person();
      // Over two chunks of 256 KiB, so the content is sealed and read back in pieces.
      const bytes = fileOf(mediaType, 600 * 1024 + 17);
      const res = await d.upload(customerId, type, bytes, mediaType, tokens.uploader);
      expect(res.status, res.text).toBe(201);
      const document = res.json.data;
      expect(document).toEqual({
        documentId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        customerId,
        type,
        mediaType,
        sizeBytes: bytes.length,
        sha256: sha256(bytes),
        status: 'RECEIVED',
        reasonCode: null,
        uploadedBy: principals.uploader,
        uploadedAt: expect.stringMatching(/Z$/),
        reviewedBy: null,
        reviewedAt: null,
      });
      expect(res.headers.get('location')).toBe(`/sandbox/customer/${customerId}/document/${document.documentId}`);

      const metadata = await d.get(customerId, document.documentId, tokens.metadataReader);
      expect(metadata.status, metadata.text).toBe(200);
      expect(metadata.json.data).toEqual(document);

      const content = await d.content(customerId, document.documentId, tokens.contentReader);
      expect(content.status).toBe(200);
      expect(content.bytes.equals(bytes)).toBe(true);
      expect(content.headers.get('content-type')).toBe(mediaType);
      expect(content.headers.get('content-disposition')).toMatch(
        new RegExp(`^attachment; filename="document-${document.documentId}\\.(pdf|png|jpg)"$`),
      );
      expect(content.headers.get('cache-control')).toBe('no-store');
      expect(content.headers.get('x-content-type-options')).toBe('nosniff');

      // Listed by the verification, metadata only.
      expect((await v.read(customerId)).documents).toEqual([document]);
    });

  it('is stored sealed: the chunks in the database are not the plaintext, and open only with the PII key', async () => {
    const customerId = await v.person();
    const bytes = fileOf('application/pdf', 300 * 1024);
    const { documentId } = await d.stored(customerId, 'ID_DOCUMENT', bytes);
    const chunks = await d.storedChunks(documentId);
    expect(chunks.map((chunk) => chunk.seq)).toEqual([0, 1]);
    expect(chunks.every((chunk) => chunk.pii_key_id === 'test-1')).toBe(true);
    const stored = Buffer.concat(chunks.map((chunk) => chunk.ciphertext));
    expect(stored.includes(MARKER)).toBe(false);
    expect(stored.includes(bytes.subarray(0, 64))).toBe(false);
    expect(stored.includes(bytes.subarray(200_000, 200_064))).toBe(false);
    // The digest column is the plaintext's SHA-256, and no column of the row holds the content.
    const { rows } = await service.database.pool.query(
      `SELECT encode(sha256, 'hex') AS sha256, size_bytes, row_to_json(d)::text AS row FROM verification_documents d WHERE id = $1`,
      [documentId],
    );
    expect(rows[0]).toMatchObject({ sha256: sha256(bytes), size_bytes: bytes.length });
    expect(rows[0].row).not.toContain(MARKER.toString('utf8'));
    // Never in a log line, an event or an audit row either.
    expect(service.logLines.some((line) => line.includes(MARKER.toString('utf8')))).toBe(false);
  });

  it('moves an UNVERIFIED customer to NEEDS_REVIEW once, with an event that carries no document', async () => {
    const customerId = await v.person();
    const first = await d.stored(customerId, 'ID_DOCUMENT', fileOf('image/png'), 'image/png', tokens.uploader);
    expect((await v.read(customerId)).status).toBe('NEEDS_REVIEW');
    const second = await d.stored(customerId, 'PROOF_OF_ADDRESS', fileOf('application/pdf'));
    expect((await v.read(customerId)).status).toBe('NEEDS_REVIEW');
    const events = await v.events(customerId);
    expect(events.map((event) => event.payload)).toEqual([
      { customerId, status: 'NEEDS_REVIEW', previousStatus: 'UNVERIFIED' },
    ]);
    const stored = JSON.stringify(
      (await service.database.pool.query('SELECT payload FROM events WHERE resource_id = $1', [customerId])).rows,
    );
    for (const document of [first, second]) {
      expect(stored).not.toContain(document.documentId);
      expect(stored).not.toContain(document.sha256);
    }
    expect(await d.audit(first.documentId)).toEqual([
      {
        operation: 'customer.verification.document_upload',
        principal_id: principals.uploader,
        resource_type: 'verification_document',
        changed_fields: ['documents', 'status'],
      },
    ]);
    expect((await d.audit(second.documentId)).map((row) => row.changed_fields)).toEqual([['documents']]);
  });

  it('leaves a PENDING or VERIFIED customer where it is', async () => {
    for (const status of ['PENDING', 'VERIFIED', 'REJECTED']) {
      const customerId = await v.person();
      await v.setStatus(customerId, status);
      await d.stored(customerId, 'ID_DOCUMENT', fileOf('application/pdf'));
      expect((await v.read(customerId)).status).toBe(status);
      expect(await v.events(customerId)).toEqual([]);
    }
  });

  it('answers the id alone to a token without verification:read', async () => {
    const customerId = await v.person();
    const res = await d.upload(customerId, 'OTHER', fileOf('image/jpeg'), 'image/jpeg', tokens.writerOnly);
    expect(res.status, res.text).toBe(201);
    expect(res.json.data).toEqual({ documentId: expect.any(String) });
  });
});

describe('a refused upload stores nothing', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const refused = async (request: () => Promise<{ status: number; json: any }>) => {
    const before = await d.snapshot();
    const res = await request();
    expect(await d.snapshot()).toEqual(before);
    return res;
  };

  it('415 DOCUMENT_TYPE_MISMATCH: content whose magic number is not its Content-Type’s', async () => {
    const customerId = await v.person();
    for (const [bytes, declared] of [
      [fileOf('image/png'), 'application/pdf'],
      [fileOf('application/pdf'), 'image/jpeg'],
      [fileOf('image/jpeg'), 'image/png'],
      [Buffer.from('%PD'), 'application/pdf'],
      [Buffer.from('just text, no magic number'), 'application/pdf'],
    ] as const) {
      const res = await refused(() => d.upload(customerId, 'ID_DOCUMENT', bytes, declared));
      expect(res.status).toBe(415);
      expect(res.json.error.code).toBe('DOCUMENT_TYPE_MISMATCH');
    }
    expect((await v.read(customerId)).status).toBe('UNVERIFIED');
  });

  it('415 UNSUPPORTED_MEDIA_TYPE: another Content-Type, or a compressed body', async () => {
    const customerId = await v.person();
    for (const contentType of ['text/plain', 'application/json', 'image/gif', 'application/octet-stream']) {
      const res = await refused(() => d.upload(customerId, 'ID_DOCUMENT', fileOf('application/pdf'), contentType));
      expect(res.status).toBe(415);
      expect(res.json.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    const res = await refused(() =>
      fetch(`${service.url}/sandbox/customer/${customerId}/document?type=OTHER`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${service.token}`,
          'content-type': 'application/pdf',
          'content-encoding': 'gzip',
        },
        body: fileOf('application/pdf'),
      }).then(async (r) => ({ status: r.status, json: await r.json() })),
    );
    expect(res.status).toBe(415);
  });

  it('413 DOCUMENT_CONTENT_TOO_LARGE: 10 MiB + 1 byte, announced by Content-Length or streamed without one', async () => {
    const customerId = await v.person();
    const over = fileOf('application/pdf', 10 * 1024 * 1024 + 1);
    const announced = await refused(() => d.upload(customerId, 'ID_DOCUMENT', over));
    expect(announced.status).toBe(413);
    expect(announced.json.error.code).toBe('DOCUMENT_CONTENT_TOO_LARGE');
    // Chunked: refused as soon as reading passes the limit; the rest is read and dropped, the answer still arrives.
    const streamed = await refused(async () => {
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= over.length) return controller.close();
          const piece = over.subarray(sent, sent + 256 * 1024);
          sent += piece.length;
          controller.enqueue(piece);
        },
      });
      const res = await fetch(`${service.url}/sandbox/customer/${customerId}/document?type=ID_DOCUMENT`, {
        method: 'POST',
        headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/pdf' },
        body,
        duplex: 'half',
      } as RequestInit);
      return { status: res.status, json: await res.json() };
    });
    expect(streamed.status).toBe(413);
    expect(streamed.json.error.code).toBe('DOCUMENT_CONTENT_TOO_LARGE');
    // The connection's next request is served (the refused body did not leave it out of step).
    expect((await v.get(customerId)).status).toBe(200);
  });

  it('503 DOCUMENT_UPLOADS_BUSY beyond 4 uploads being read at once, unread; the 4 are stored when they end', async () => {
    const customerId = await v.person();
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Four uploads whose bodies stop after their first bytes until the test releases them.
    const slow = Array.from({ length: 4 }, () => {
      let step = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          step += 1;
          if (step === 1) return controller.enqueue(fileOf('application/pdf', 1024));
          await released;
          controller.close();
        },
      });
      return fetch(`${service.url}/sandbox/customer/${customerId}/document?type=OTHER`, {
        method: 'POST',
        headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/pdf' },
        body,
        duplex: 'half',
      } as RequestInit).then(async (res) => ({ status: res.status, json: await res.json() }));
    });
    let busy: Awaited<ReturnType<typeof d.upload>> | undefined;
    for (let attempt = 0; attempt < 100 && busy === undefined; attempt++) {
      const res = await d.upload(customerId, 'OTHER', fileOf('image/png'), 'image/png');
      if (res.status === 503) busy = res;
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(busy?.json.error.code).toBe('DOCUMENT_UPLOADS_BUSY');
    expect(busy?.headers.get('retry-after')).toBe('1');
    release();
    expect((await Promise.all(slow)).map((res) => res.status)).toEqual([201, 201, 201, 201]);
  });

  it('400 VALIDATION_FAILED for a missing or unknown type, 404 for no such customer, 403 without verification:write', async () => {
    const customerId = await v.person();
    for (const type of ['', 'PASSPORT']) {
      const res = await refused(() => d.upload(customerId, type, fileOf('application/pdf')));
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe('VALIDATION_FAILED');
    }
    const missing = await refused(() =>
      d.upload('0193a5c2-0000-7000-8000-000000000000', 'ID_DOCUMENT', fileOf('application/pdf')),
    );
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe('CUSTOMER_NOT_FOUND');
    const forbidden = await refused(() =>
      d.upload(customerId, 'ID_DOCUMENT', fileOf('application/pdf'), 'application/pdf', tokens.metadataReader),
    );
    expect(forbidden.status).toBe(403);
    expect(forbidden.json.error.code).toBe('FORBIDDEN');
  });
});

describe('the content', () => {
  it('needs documents:read (verification:read reads only the metadata), and every read writes an audit row', async () => {
    const customerId = await v.person();
    const bytes = fileOf('application/pdf');
    const { documentId } = await d.stored(customerId, 'ID_DOCUMENT', bytes);
    const auditBefore = (await d.audit(documentId)).length;

    const refused = await d.content(customerId, documentId, tokens.metadataReader);
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ error: { code: 'FORBIDDEN' } });
    expect(refused.headers.get('www-authenticate')).toContain('scope="documents:read"');
    expect(refused.bytes.includes(MARKER)).toBe(false);
    expect(await d.audit(documentId)).toHaveLength(auditBefore);

    for (let read = 1; read <= 2; read++) {
      const served = await d.content(customerId, documentId, tokens.contentReader);
      expect(served.bytes.equals(bytes)).toBe(true);
      const reads = (await d.audit(documentId)).filter(
        (row) => row.operation === 'customer.verification.document_read',
      );
      expect(reads).toHaveLength(read);
      expect(reads.at(-1)).toEqual({
        operation: 'customer.verification.document_read',
        principal_id: principals.contentReader,
        resource_type: 'verification_document',
        changed_fields: [],
      });
    }
  });

  it('answers HEAD with the headers alone (a read, audited)', async () => {
    const customerId = await v.person();
    const bytes = fileOf('image/png');
    const { documentId } = await d.stored(customerId, 'ID_DOCUMENT', bytes, 'image/png');
    const res = await fetch(`${service.url}/sandbox/customer/${customerId}/document/${documentId}/content`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${tokens.contentReader}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; /);
    expect((await res.arrayBuffer()).byteLength).toBe(0);
    expect((await d.audit(documentId)).map((row) => row.operation)).toContain('customer.verification.document_read');
  });

  it('404 DOCUMENT_NOT_FOUND for another customer’s document or no document, unaudited', async () => {
    const owner = await v.person();
    const other = await v.person();
    const { documentId } = await d.stored(owner, 'ID_DOCUMENT', fileOf('application/pdf'));
    const before = await d.snapshot();
    for (const [customerId, id] of [
      [other, documentId],
      [owner, '0193a5c2-0000-7000-8000-000000000000'],
      [owner, 'not-a-uuid'],
    ]) {
      const res = await d.content(customerId!, id!, tokens.contentReader);
      expect(res.status).toBe(404);
      expect(res.json).toMatchObject({ error: { code: 'DOCUMENT_NOT_FOUND' } });
      const metadata = await d.get(customerId!, id!);
      expect(metadata.status).toBe(404);
    }
    expect(await d.snapshot()).toEqual(before);
  });
});

describe('a review', () => {
  it('is refused to the principal that uploaded the document (403 DOCUMENT_REVIEW_BY_UPLOADER), changing nothing', async () => {
    const customerId = await v.person();
    const { documentId } = await d.stored(customerId, 'ID_DOCUMENT', fileOf('image/png'), 'image/png', tokens.uploader);
    const before = await d.snapshot();
    const res = await d.review(customerId, documentId, { status: 'APPROVED' }, tokens.uploader);
    expect(res.status, res.text).toBe(403);
    expect(res.json.error.code).toBe('DOCUMENT_REVIEW_BY_UPLOADER');
    expect(await d.snapshot()).toEqual(before);
  });

  it('by another person: REJECTED needs a reason code, is kept with it, audited, and happens once', async () => {
    const customerId = await v.person();
    const { documentId } = await d.stored(customerId, 'ID_DOCUMENT', fileOf('image/png'), 'image/png', tokens.uploader);
    const before = await d.snapshot();
    for (const body of [
      { status: 'REJECTED' },
      { status: 'APPROVED', reasonCode: 'EXPIRED' },
      { status: 'RECEIVED' },
      { status: 'REJECTED', reasonCode: 'BLURRY' },
    ]) {
      const res = await d.review(customerId, documentId, body, tokens.reviewer);
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.code).toBe('VALIDATION_FAILED');
    }
    expect(await d.snapshot()).toEqual(before);

    const res = await d.review(customerId, documentId, { status: 'REJECTED', reasonCode: 'EXPIRED' }, tokens.reviewer);
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toMatchObject({
      documentId,
      status: 'REJECTED',
      reasonCode: 'EXPIRED',
      reviewedBy: principals.reviewer,
      reviewedAt: expect.stringMatching(/Z$/),
    });
    expect((await d.get(customerId, documentId)).json.data).toEqual(res.json.data);
    expect((await d.audit(documentId)).map((row) => [row.operation, row.principal_id])).toEqual([
      ['customer.verification.document_upload', principals.uploader],
      ['customer.verification.document_review', principals.reviewer],
    ]);

    const again = await d.review(customerId, documentId, { status: 'APPROVED' }, service.token);
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('DOCUMENT_ALREADY_REVIEWED');
  });

  it("feeds a business's formation_document requirement: pending when received, due when rejected, met when approved", async () => {
    const businessId = await v.business();
    const ownerId = await v.person();
    await v.addOwner(businessId, { customerId: ownerId, prongs: ['CONTROL'] });
    await v.setStatus(ownerId, 'VERIFIED');
    expect((await v.read(businessId)).requirements.currentlyDue).toContain('formation_document');

    const rejected = await d.stored(
      businessId,
      'CERTIFICATE_OF_FORMATION',
      fileOf('application/pdf'),
      'application/pdf',
      tokens.uploader,
    );
    let verification = await v.read(businessId);
    expect(verification.status).toBe('NEEDS_REVIEW');
    expect(verification.requirements.pendingVerification).toContain('formation_document');
    expect(verification.requirements.currentlyDue).not.toContain('formation_document');

    await d.review(businessId, rejected.documentId, { status: 'REJECTED', reasonCode: 'ILLEGIBLE' }, tokens.reviewer);
    verification = await v.read(businessId);
    expect(verification.requirements.currentlyDue).toContain('formation_document');
    expect(verification.requirements.errors).toContainEqual({
      requirement: 'formation_document',
      code: 'DOCUMENT_REJECTED',
      reason: expect.any(String),
    });

    // Another kind of document does not meet it.
    const letter = await d.stored(
      businessId,
      'EIN_LETTER',
      fileOf('application/pdf'),
      'application/pdf',
      tokens.uploader,
    );
    await d.review(businessId, letter.documentId, { status: 'APPROVED' }, tokens.reviewer);
    expect((await v.read(businessId)).requirements.currentlyDue).toContain('formation_document');

    const approved = await d.stored(
      businessId,
      'CERTIFICATE_OF_FORMATION',
      fileOf('image/png'),
      'image/png',
      tokens.uploader,
    );
    await d.review(businessId, approved.documentId, { status: 'APPROVED' }, tokens.reviewer);
    verification = await v.read(businessId);
    expect(verification.requirements).toEqual({
      currentlyDue: ['business_check'],
      pendingVerification: [],
      errors: [],
    });
    expect(verification.documents.map((document: { documentId: string }) => document.documentId)).toEqual([
      approved.documentId,
      letter.documentId,
      rejected.documentId,
    ]);

    // With the document approved and its owner verified, the business's passing check verifies it.
    const checked = await v.check(businessId);
    expect(checked.status).toBe('VERIFIED');
    expect(checked.requirements).toEqual({ currentlyDue: [], pendingVerification: [], errors: [] });
  });
});

describe('GraphQL', () => {
  const DOCUMENTS = `query($id: ID!) { customer(customerId: $id) { verification { status documents {
    documentId customerId type mediaType sizeBytes sha256 status reasonCode uploadedBy uploadedAt reviewedBy reviewedAt } } } }`;
  const REVIEW = `mutation($c: ID!, $d: ID!, $input: ReviewDocumentInput!) {
    reviewDocument(customerId: $c, documentId: $d, input: $input) { documentId status reasonCode reviewedBy } }`;

  it('lists Verification.documents (metadata) and reviews with reviewDocument, with REST’s scopes and codes', async () => {
    const customerId = await v.person();
    const bytes = fileOf('image/jpeg');
    const document = await d.stored(customerId, 'ID_DOCUMENT', bytes, 'image/jpeg', tokens.uploader);

    const listed = await graphql(service, DOCUMENTS, { id: customerId });
    expect(errorCodes(listed), listed.text).toEqual([]);
    expect(listed.json.data.customer.verification).toEqual({ status: 'NEEDS_REVIEW', documents: [document] });

    const byUploader = await graphql(
      service,
      REVIEW,
      { c: customerId, d: document.documentId, input: { status: 'APPROVED' } },
      as(tokens.uploader),
    );
    expect(errorCodes(byUploader)).toEqual(['DOCUMENT_REVIEW_BY_UPLOADER']);

    const missingReason = await graphql(
      service,
      REVIEW,
      { c: customerId, d: document.documentId, input: { status: 'REJECTED' } },
      as(tokens.reviewer),
    );
    expect(errorCodes(missingReason)).toEqual(['VALIDATION_FAILED']);

    const reviewed = await graphql(
      service,
      REVIEW,
      { c: customerId, d: document.documentId, input: { status: 'REJECTED', reasonCode: 'NAME_MISMATCH' } },
      as(tokens.reviewer),
    );
    expect(errorCodes(reviewed), reviewed.text).toEqual([]);
    expect(reviewed.json.data.reviewDocument).toEqual({
      documentId: document.documentId,
      status: 'REJECTED',
      reasonCode: 'NAME_MISMATCH',
      reviewedBy: principals.reviewer,
    });
    const again = await graphql(
      service,
      REVIEW,
      { c: customerId, d: document.documentId, input: { status: 'APPROVED' } },
      as(tokens.reviewer),
    );
    expect(errorCodes(again)).toEqual(['DOCUMENT_ALREADY_REVIEWED']);
  });

  it('without verification:read a review may select documentId only; without verification:decide it is refused', async () => {
    const customerId = await v.person();
    const document = await d.stored(customerId, 'OTHER', fileOf('application/pdf'), 'application/pdf', tokens.uploader);
    const decider = (
      await issueApiToken(service.database.pool, { environments: ['sandbox'], scopes: ['verification:decide'] })
    ).token;
    const idOnly = await graphql(
      service,
      'mutation($c: ID!, $d: ID!) { reviewDocument(customerId: $c, documentId: $d, input: { status: APPROVED }) { documentId } }',
      { c: customerId, d: document.documentId },
      as(decider),
    );
    expect(errorCodes(idOnly), idOnly.text).toEqual([]);
    expect(idOnly.json.data.reviewDocument).toEqual({ documentId: document.documentId });

    const other = await d.stored(customerId, 'OTHER', fileOf('application/pdf'), 'application/pdf', tokens.uploader);
    const refused = await graphql(
      service,
      'mutation($c: ID!, $d: ID!) { reviewDocument(customerId: $c, documentId: $d, input: { status: APPROVED }) { documentId } }',
      { c: customerId, d: other.documentId },
      as(tokens.metadataReader),
    );
    expect(errorCodes(refused)).toEqual(['FORBIDDEN']);
    expect((await d.get(customerId, other.documentId)).json.data.status).toBe('RECEIVED');
  });
});

describe('key rotation', () => {
  it('reseals every chunk under the new key, in small batches, and the content still opens byte for byte', async () => {
    const customerId = await v.person();
    const bytes = fileOf('application/pdf', 700 * 1024);
    const { documentId } = await d.stored(customerId, 'ID_DOCUMENT', bytes);
    const before = await d.storedChunks(documentId);
    const [keyId, oldKey] = TEST_PII_ENV.PII_KEYS.split(':') as [string, string];
    const newKey = Buffer.alloc(32, 7);
    const cipher = new PiiCipher({
      keys: new Map([
        [keyId, Buffer.from(oldKey, 'base64')],
        ['rotated', newKey],
      ]),
      activeKeyId: 'rotated',
      blindIndexKey: Buffer.from(TEST_PII_ENV.PII_BLIND_INDEX_KEY, 'base64'),
    });
    const prisma = createPrismaClient(service.database.pool);
    try {
      const report = await rotateDocumentChunks(new PrismaSealedDocumentStore(prisma), cipher, { batchSize: 500 });
      expect(report).toMatchObject({ activeKeyId: 'rotated', failed: [], remaining: 0 });
      expect(report.reencrypted).toBeGreaterThanOrEqual(before.length);
    } finally {
      await prisma.$disconnect();
    }
    const after = await d.storedChunks(documentId);
    expect(after.map((chunk) => chunk.pii_key_id)).toEqual(before.map(() => 'rotated'));
    const binding = { environment: 'sandbox', customerId, documentId };
    const opened = Buffer.concat(
      after.map((chunk) =>
        cipher.openChunk(binding, chunk.seq, { keyId: chunk.pii_key_id, ciphertext: chunk.ciphertext }),
      ),
    );
    expect(opened.equals(bytes)).toBe(true);
    // Bound to its place: a chunk opened as another position fails.
    expect(() =>
      cipher.openChunk(binding, 1, { keyId: after[0]!.pii_key_id, ciphertext: after[0]!.ciphertext }),
    ).toThrow();
    const { rows } = await service.database.pool.query(
      `SELECT count(*)::int AS n FROM audit_events WHERE operation = 'pii_rotation.reencrypt_customers' AND 'documents' = ANY(changed_fields)`,
    );
    expect(rows[0].n).toBeGreaterThan(0);
  });
});
