import type { ApiTokenRecord, ApiTokenStore, ApiTokenSummary } from '../auth/api-tokens.js';
import type { PrismaClient } from './prisma-client.js';

const SUMMARY_COLUMNS = {
  id: true,
  name: true,
  environments: true,
  scopes: true,
  createdAt: true,
  revokedAt: true,
  lastUsedAt: true,
} as const;

/** Managed API tokens on PostgreSQL (table api_tokens); secrets are never stored, only their digests. */
export class PrismaApiTokenStore implements ApiTokenStore {
  constructor(private readonly client: PrismaClient) {}

  async insert(record: Pick<ApiTokenRecord, 'id' | 'name' | 'secretHash' | 'environments' | 'scopes'>): Promise<ApiTokenSummary> {
    return this.client.apiToken.create({
      data: {
        id: record.id,
        name: record.name,
        secretHash: Buffer.from(record.secretHash),
        environments: record.environments,
        scopes: record.scopes,
      },
      select: SUMMARY_COLUMNS,
    });
  }

  async findById(id: string): Promise<ApiTokenRecord | null> {
    return this.client.apiToken.findUnique({ where: { id }, select: { ...SUMMARY_COLUMNS, secretHash: true } });
  }

  async list(): Promise<ApiTokenSummary[]> {
    return this.client.apiToken.findMany({ orderBy: [{ createdAt: 'desc' }, { id: 'asc' }], select: SUMMARY_COLUMNS });
  }

  async revoke(id: string, at: Date): Promise<'revoked' | 'already-revoked' | 'not-found'> {
    const { count } = await this.client.apiToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: at } });
    if (count > 0) return 'revoked';
    const exists = await this.client.apiToken.count({ where: { id } });
    return exists > 0 ? 'already-revoked' : 'not-found';
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.client.apiToken.updateMany({ where: { id }, data: { lastUsedAt: at } });
  }
}
