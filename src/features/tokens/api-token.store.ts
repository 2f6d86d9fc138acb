import type { ApiTokenRecord, ApiTokenStore, ApiTokenSummary, NewApiToken } from './api-tokens.js';
import type { NewAuditEvent } from '../../domain/audit-event.js';
import type { PostingLimits } from '../../domain/caller.js';
import type { Prisma, PrismaClient } from '../../db/connection/prisma-client.js';

const SUMMARY_COLUMNS = {
  id: true,
  name: true,
  environments: true,
  scopes: true,
  createdAt: true,
  revokedAt: true,
  lastUsedAt: true,
  expiresAt: true,
  maxAmount: true,
  dailyLimits: true,
} as const;

type SummaryRow = Prisma.ApiTokenGetPayload<{ select: typeof SUMMARY_COLUMNS }>;

/** How often last_used_at may change: the UPDATE skips a row used less than this long ago. */
const LAST_USED_RESOLUTION = '1 minute';

function limitsOf(row: Pick<SummaryRow, 'maxAmount' | 'dailyLimits'>): PostingLimits | null {
  const daily = row.dailyLimits as Record<string, string> | null;
  if (row.maxAmount === null && daily === null) return null;
  return { ...(row.maxAmount !== null && { maxAmount: row.maxAmount.toString() }), ...(daily !== null && { daily }) };
}

const toSummary = ({ maxAmount, dailyLimits, ...row }: SummaryRow): ApiTokenSummary => ({
  ...row,
  limits: limitsOf({ maxAmount, dailyLimits }),
});

const auditRows = (events: readonly NewAuditEvent[]) =>
  events.map((event) => ({
    id: event.eventId,
    principalId: event.principalId,
    environment: event.environment,
    operation: event.operation,
    resourceType: event.resourceType,
    resourceId: event.resourceId,
    requestId: event.requestId,
    idempotencyKey: event.idempotencyKey,
    changedFields: event.changedFields,
  }));

/**
 * Managed API tokens on PostgreSQL (table api_tokens); secrets are never stored, only their digests.
 * Creating and revoking a token write its audit events in the same transaction as the change: a token
 * exists (or stops working) exactly when the audit trail says so.
 */
export class PrismaApiTokenStore implements ApiTokenStore {
  constructor(private readonly client: PrismaClient) {}

  async insert(record: NewApiToken, audit: readonly NewAuditEvent[]): Promise<ApiTokenSummary> {
    const [created] = await this.client.$transaction([
      this.client.apiToken.create({
        data: {
          id: record.id,
          name: record.name,
          secretHash: Buffer.from(record.secretHash),
          environments: record.environments,
          scopes: record.scopes,
          expiresAt: record.expiresAt,
          maxAmount: record.limits?.maxAmount ?? null,
          dailyLimits: record.limits?.daily ?? undefined,
        },
        select: SUMMARY_COLUMNS,
      }),
      this.client.auditEvent.createMany({ data: auditRows(audit) }),
    ]);
    return toSummary(created);
  }

  async findById(id: string): Promise<ApiTokenRecord | null> {
    const row = await this.client.apiToken.findUnique({
      where: { id },
      select: { ...SUMMARY_COLUMNS, secretHash: true },
    });
    return row && { ...toSummary(row), secretHash: row.secretHash };
  }

  async list(): Promise<ApiTokenSummary[]> {
    const rows = await this.client.apiToken.findMany({
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      select: SUMMARY_COLUMNS,
    });
    return rows.map(toSummary);
  }

  /**
   * Sets revoked_at once (a second revocation keeps the first date and writes no audit event). The row is
   * locked first, so `audit` is built from the environments of the token as revoked.
   */
  async revoke(
    id: string,
    at: Date,
    audit: (environments: string[]) => NewAuditEvent[],
  ): Promise<'revoked' | 'already-revoked' | 'not-found'> {
    return this.client.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<{ environments: string[]; revoked: boolean }[]>`
        SELECT environments, revoked_at IS NOT NULL AS revoked FROM api_tokens WHERE id = ${id} FOR UPDATE`;
      if (!row) return 'not-found';
      if (row.revoked) return 'already-revoked';
      await tx.apiToken.update({ where: { id }, data: { revokedAt: at } });
      await tx.auditEvent.createMany({ data: auditRows(audit(row.environments)) });
      return 'revoked';
    });
  }

  /** Tokens that would authenticate at `at`: not revoked, not expired. */
  async countUsable(at: Date): Promise<number> {
    return this.client.apiToken.count({
      where: { revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: at } }] },
    });
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.client.$executeRaw`
      UPDATE api_tokens SET last_used_at = ${at}
      WHERE id = ${id} AND (last_used_at IS NULL OR last_used_at < ${at}::timestamptz - ${LAST_USED_RESOLUTION}::interval)`;
  }
}
