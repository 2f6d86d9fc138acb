import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ACCESS_SCOPES, type AccessScope, type PostingLimits } from '../../domain/caller.js';
import type { Authentication, TokenVerifier } from '../../auth/bearer-token.js';

/**
 * Managed API tokens: `cas_<id>_<secret>`. The id (16 hex digits) finds the row; the secret (32 random
 * bytes, base64url) is checked against its SHA-256 digest in constant time. A hash without salt or
 * stretching is right here: the secret has 256 bits of entropy, so nothing can be guessed from the digest.
 * The fixed `cas_` prefix lets secret scanners recognise a leaked token.
 */
export const API_TOKEN_PREFIX = 'cas_';
const TOKEN_FORMAT = /^cas_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

export interface ApiTokenRecord {
  id: string;
  name: string;
  secretHash: Uint8Array;
  /** Environment names, or ['*'] for every environment. */
  environments: string[];
  scopes: string[];
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  /** Refused from this instant on, like an unknown token; null: never expires. */
  expiresAt: Date | null;
  /** Limits on the money the token may move; null: none. */
  limits: PostingLimits | null;
}

export type ApiTokenSummary = Omit<ApiTokenRecord, 'secretHash'>;

/** What a new token is stored with. */
export type NewApiToken = Pick<
  ApiTokenRecord,
  'id' | 'name' | 'secretHash' | 'environments' | 'scopes' | 'expiresAt' | 'limits'
>;

export interface ApiTokenStore {
  findById(id: string): Promise<ApiTokenRecord | null>;
  /** Records a use at `at`, unless one was recorded less than a minute before (one cheap conditional UPDATE). */
  touch(id: string, at: Date): Promise<void>;
}

const secretDigest = (secret: string): Buffer => hash('sha256', secret, 'buffer');

/** A new token and the row that stores it; the token is shown once and never again. */
export function generateApiToken(): { id: string; token: string; secretHash: Buffer } {
  const id = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  return { id, token: `${API_TOKEN_PREFIX}${id}_${secret}`, secretHash: secretDigest(secret) };
}

export const isAccessScope = (value: string): value is AccessScope =>
  (ACCESS_SCOPES as readonly string[]).includes(value);

const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Checks managed tokens against the database on every request, with no cache: a revoked token stops
 * working on the very next request, on every instance. The cost is one primary-key look-up. last_used_at
 * is written at most once a minute per token and instance, off the request path, and the UPDATE itself only
 * changes a row whose last use is a minute old (so a fleet of instances writes it about once a minute too).
 */
export class ManagedTokenAuthenticator implements TokenVerifier {
  private readonly lastTouched = new Map<string, number>();

  constructor(
    private readonly store: ApiTokenStore,
    private readonly onTouchFailed: (error: unknown) => void = () => {},
  ) {}

  async verify(token: string): Promise<Authentication> {
    const match = TOKEN_FORMAT.exec(token);
    if (!match) return { ok: false, reason: 'invalid' };
    const [, id, secret] = match as unknown as [string, string, string];
    const record = await this.store.findById(id);
    if (!record) return { ok: false, reason: 'invalid' };
    const stored = Buffer.from(record.secretHash);
    const presented = secretDigest(secret);
    if (stored.length !== presented.length || !timingSafeEqual(stored, presented))
      return { ok: false, reason: 'invalid' };
    if (record.revokedAt !== null) return { ok: false, reason: 'revoked' };
    // An expired token is refused exactly like an unknown one: the answer says nothing about whether it existed.
    if (record.expiresAt !== null && record.expiresAt.getTime() <= Date.now()) return { ok: false, reason: 'invalid' };
    this.touch(id);
    return {
      ok: true,
      principal: {
        id: `token:${id}`,
        kind: 'api-token',
        name: record.name,
        scopes: record.scopes.filter(isAccessScope),
        environments: record.environments.includes('*') ? '*' : record.environments,
        ...(record.limits !== null && { limits: record.limits }),
      },
    };
  }

  private touch(id: string): void {
    const now = Date.now();
    if (now - (this.lastTouched.get(id) ?? 0) < LAST_USED_RESOLUTION_MS) return;
    this.lastTouched.set(id, now);
    this.store.touch(id, new Date(now)).catch(this.onTouchFailed);
  }
}
