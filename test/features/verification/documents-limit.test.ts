import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/service.js';
import { documentHelpers, fileOf } from './documents-support.js';
import { verificationHelpers } from './support.js';

/**
 * VERIFICATION_DOCUMENT_MAX_BYTES (docs/verification-documents.md): an instance's document cap below the 10 MiB
 * ceiling. A document of exactly the cap is stored; one byte more is refused with 413 DOCUMENT_CONTENT_TOO_LARGE
 * naming the cap, whether its Content-Length announces it or it is streamed without one, and nothing is stored.
 */

const CAP = 4096;
let service: TestService;

beforeAll(async () => {
  service = await startTestService({
    VERIFICATION_SANDBOX_DELAY_MS: '0',
    VERIFICATION_JOB_INTERVAL_MS: '3600000',
    VERIFICATION_DOCUMENT_MAX_BYTES: String(CAP),
  });
});
afterAll(async () => service?.stop());

describe('an instance with a lower document cap', () => {
  it('stores a document of exactly the cap and refuses one byte more, announced or streamed, storing nothing', async () => {
    const d = documentHelpers(service);
    const v = verificationHelpers(service);
    const customerId = await v.person();
    const stored = await d.stored(customerId, 'ID_DOCUMENT', fileOf('application/pdf', CAP));
    expect(stored.sizeBytes).toBe(CAP);

    const over = fileOf('application/pdf', CAP + 1);
    const before = await d.snapshot();
    const announced = await d.upload(customerId, 'ID_DOCUMENT', over);
    expect(announced.status).toBe(413);
    expect(announced.json.error).toMatchObject({
      code: 'DOCUMENT_CONTENT_TOO_LARGE',
      message: `A document is at most ${CAP} bytes. Nothing was stored.`,
    });
    const streamed = await fetch(`${service.url}/sandbox/customer/${customerId}/document?type=ID_DOCUMENT`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/pdf' },
      body: new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(over.subarray(0, 3000));
          controller.enqueue(over.subarray(3000));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(((await streamed.json()) as { error: { code: string } }).error.code).toBe('DOCUMENT_CONTENT_TOO_LARGE');
    expect(await d.snapshot()).toEqual(before);
  });
});
