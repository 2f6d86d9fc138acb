import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { assertDocumentedResponse } from '../../openapi/response-contract.js';
import type { TestService } from '../../support/service.js';

/** Helpers of the verification document tests (docs/adr/0103): raw uploads, downloads, reviews, what is stored. */

/** A plaintext marker in every fixture: the stored chunks must never contain it. */
export const MARKER = Buffer.from('PASSPORT-NO-X1234567-PLAINTEXT-MARKER', 'utf8');

/** Content that starts with the media type's magic number, `size` bytes long, with the marker in it. */
export function fileOf(mediaType: 'application/pdf' | 'image/png' | 'image/jpeg', size = 4096): Buffer {
  const magic = {
    'application/pdf': Buffer.from('%PDF-1.7\n', 'latin1'),
    'image/png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    'image/jpeg': Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
  }[mediaType];
  const body = Buffer.concat([magic, MARKER, randomBytes(Math.max(0, size - magic.length - MARKER.length))]);
  return body.subarray(0, size);
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export interface Answer {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
  text: string;
}

export function documentHelpers(service: TestService) {
  const base = (customerId: string) => `/sandbox/customer/${customerId}/document`;
  const send = async (
    method: string,
    path: string,
    init: { token?: string; body?: Uint8Array | string; headers?: Record<string, string>; duplex?: boolean } = {},
  ): Promise<Answer> => {
    const response = await fetch(`${service.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${init.token ?? service.token}`, ...init.headers },
      ...(init.body !== undefined && { body: init.body }),
      ...(init.duplex && { duplex: 'half' }),
    } as RequestInit);
    const text = await response.text();
    assertDocumentedResponse(method, path, response.status, response.headers, text);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, json, text };
  };
  const helpers = {
    upload: (
      customerId: string,
      type: string,
      bytes: Uint8Array,
      contentType = 'application/pdf',
      token?: string,
    ): Promise<Answer> =>
      send('POST', `${base(customerId)}?type=${encodeURIComponent(type)}`, {
        ...(token && { token }),
        body: bytes,
        headers: { 'content-type': contentType },
      }),
    /** An upload that must be stored: its metadata. */
    stored: async (
      customerId: string,
      type: string,
      bytes: Uint8Array,
      contentType = 'application/pdf',
      token?: string,
    ) => {
      const res = await helpers.upload(customerId, type, bytes, contentType, token);
      expect(res.status, res.text).toBe(201);
      return res.json.data;
    },
    get: (customerId: string, documentId: string, token?: string) =>
      send('GET', `${base(customerId)}/${documentId}`, token ? { token } : {}),
    /** The content, as bytes (fetch's own read, not the text helper). */
    content: async (customerId: string, documentId: string, token?: string) => {
      const response = await fetch(`${service.url}${base(customerId)}/${documentId}/content`, {
        headers: { authorization: `Bearer ${token ?? service.token}` },
      });
      const bytes = Buffer.from(await response.arrayBuffer());
      assertDocumentedResponse(
        'GET',
        `${base(customerId)}/${documentId}/content`,
        response.status,
        response.headers,
        bytes.toString('latin1'),
      );
      return { status: response.status, headers: response.headers, bytes, json: tryJson(bytes) };
    },
    review: (customerId: string, documentId: string, body: unknown, token?: string) =>
      send('POST', `${base(customerId)}/${documentId}/review`, {
        ...(token && { token }),
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      }),
    /** Everything an upload or a review writes: a refusal leaves it as it was. */
    snapshot: async () => {
      const { rows } = await service.database.pool.query<Record<string, string>>(
        `SELECT (SELECT count(*)::text FROM verification_documents) AS documents,
                (SELECT count(*)::text FROM verification_document_chunks) AS chunks,
                (SELECT md5(coalesce(string_agg(concat_ws(':', id, status, reason_code, reviewed_by), ',' ORDER BY id), ''))
                   FROM verification_documents) AS reviews,
                (SELECT md5(coalesce(string_agg(concat_ws(':', customer_id, status), ',' ORDER BY customer_id), ''))
                   FROM customer_verifications) AS verifications,
                (SELECT count(*)::text FROM events) AS events, (SELECT count(*)::text FROM audit_events) AS audit`,
      );
      return rows[0]!;
    },
    /** The document's chunks as stored, in order. */
    storedChunks: async (documentId: string) =>
      (
        await service.database.pool.query<{ seq: number; pii_key_id: string; ciphertext: Buffer }>(
          'SELECT seq, pii_key_id, ciphertext FROM verification_document_chunks WHERE document_id = $1 ORDER BY seq',
          [documentId],
        )
      ).rows,
    /** The audit rows about a document, oldest first. */
    audit: async (documentId: string) =>
      (
        await service.database.pool.query<{
          operation: string;
          principal_id: string;
          resource_type: string;
          changed_fields: string[];
        }>(
          `SELECT operation, principal_id, resource_type, changed_fields FROM audit_events WHERE resource_id = $1
            ORDER BY occurred_at, id`,
          [documentId],
        )
      ).rows,
  };
  return helpers;
}

function tryJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}
