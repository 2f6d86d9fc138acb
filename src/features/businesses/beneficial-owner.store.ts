import type { PrismaClient } from '../../db/connection/prisma-client.js';
import { isForeignKeyViolation } from '../../db/sql/errors.js';
import { queryRows, statement } from '../../db/sql/sql.js';
import { auditChangedFields, auditInsert, auditValues, eventInsert } from '../../db/sql/write-effects.js';
import type { WriteEffects } from '../../domain/write-effects.js';
import type {
  BeneficialOwner,
  BeneficialOwnerAddition,
  BeneficialOwnerRemoval,
  BeneficialOwnerStore,
  BusinessOwnership,
  NewBeneficialOwner,
} from './ports.js';

/** An owner as it lists (alias `o`): the percentage as exact text with its two decimals, addedAt in UTC. */
const OWNER_COLUMNS = `o.owner_customer_id::text AS "customerId", o.prongs, o.ownership_percentage::text AS "ownershipPercentage",
  o.title, to_char(o.added_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "addedAt"`;

/** What the events carry (docs/adr/0094): the business, the owner and its prongs; ids and the stated share only. */
const EVENT_PAYLOAD = `jsonb_build_object('customerId', x.business_customer_id, 'ownerCustomerId', x.owner_customer_id, 'prongs', to_jsonb(x.prongs),
  'ownershipPercentage', x.ownership_percentage::text, 'title', x.title)`;

/** The business answers `beneficialOwnerIds`: a change of its owners moves its version (its ETag), as a profile change does. */
const BUMP_VERSION = (source: string) =>
  `UPDATE customers c SET version = cas_next_version(c.version), updated_at = CURRENT_TIMESTAMP
     FROM ${source} s WHERE c.id = s.business_customer_id AND c.environment = s.environment RETURNING c.id`;

const SQL = {
  typeOf: statement(
    'beneficial_owner_business_type',
    `SELECT c.customer_type AS "customerType" FROM customers c WHERE c.id = $1::uuid AND c.environment = $2`,
  ),
  list: statement(
    'beneficial_owner_list',
    `SELECT ${OWNER_COLUMNS} FROM beneficial_owners o
      WHERE o.business_customer_id = $1::uuid AND o.environment = $2 ORDER BY o.added_at, o.owner_customer_id`,
  ),
  listOfMany: statement(
    'beneficial_owner_list_of_many',
    `SELECT o.business_customer_id::text AS "businessCustomerId", ${OWNER_COLUMNS} FROM beneficial_owners o
      WHERE o.business_customer_id = ANY($1::uuid[]) AND o.environment = $2
      ORDER BY o.business_customer_id, o.added_at, o.owner_customer_id`,
  ),
  // Bounded per owner: a person may own or control any number of businesses; each answers its oldest `$3`.
  ownershipsOfMany: statement(
    'beneficial_owner_ownerships_of_many',
    `SELECT w."ownerCustomerId", w."businessCustomerId", w.prongs, w."ownershipPercentage", w.title, w."addedAt"
       FROM (SELECT o.owner_customer_id::text AS "ownerCustomerId", o.business_customer_id::text AS "businessCustomerId",
                    o.prongs, o.ownership_percentage::text AS "ownershipPercentage", o.title,
                    to_char(o.added_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "addedAt",
                    row_number() OVER (PARTITION BY o.owner_customer_id ORDER BY o.added_at, o.business_customer_id) AS n
               FROM beneficial_owners o WHERE o.owner_customer_id = ANY($1::uuid[]) AND o.environment = $2) w
      WHERE w.n <= $3::int ORDER BY w."ownerCustomerId", w.n`,
  ),
  // The business's row, held to the transaction's end (as a PUT of it holds it, before its profile: one lock
  // order): concurrent additions to one business take turns, so each counts what the one before it committed.
  lockBusiness: statement(
    'beneficial_owner_lock_business',
    `SELECT c.customer_type AS "customerType" FROM customers c WHERE c.id = $1::uuid AND c.environment = $2 FOR NO KEY UPDATE`,
  ),
  state: statement(
    'beneficial_owner_state',
    `SELECT (SELECT c.customer_type FROM customers c WHERE c.id = $3::uuid AND c.environment = $2) AS "ownerType",
            bool_or(o.owner_customer_id = $3::uuid) AS "exists", count(*)::int AS owners,
            coalesce(sum(o.ownership_percentage), 0)::text AS owned,
            coalesce(sum(o.ownership_percentage), 0) + coalesce($4::numeric, 0) > 100 AS over
       FROM beneficial_owners o WHERE o.business_customer_id = $1::uuid AND o.environment = $2`,
  ),
  insert: statement(
    'beneficial_owner_insert',
    `WITH added AS (
       INSERT INTO beneficial_owners (business_customer_id, environment, owner_customer_id, prongs, ownership_percentage, title)
       VALUES ($1::uuid, $2::varchar, $3::uuid, $4::text[], $5::numeric, $6::text)
       RETURNING *
     ), bumped AS (${BUMP_VERSION('added')}),
     audit AS (${auditInsert(7, 'added')}),
     event AS (${eventInsert('$2::varchar', 'added', { type: "'customer.beneficial_owner_added'", resourceType: 'customer', resourceId: 'x.business_customer_id', payload: EVENT_PAYLOAD, changedFields: auditChangedFields(7) })})
     SELECT ${OWNER_COLUMNS} FROM added o`,
  ),
  remove: statement(
    'beneficial_owner_remove',
    `WITH removed AS (
       DELETE FROM beneficial_owners o WHERE o.business_customer_id = $1::uuid AND o.environment = $2 AND o.owner_customer_id = $3::uuid
       RETURNING o.*
     ), bumped AS (${BUMP_VERSION('removed')}),
     audit AS (${auditInsert(4, 'removed')}),
     event AS (${eventInsert('$2::varchar', 'removed', { type: "'customer.beneficial_owner_removed'", resourceType: 'customer', resourceId: 'x.business_customer_id', payload: EVENT_PAYLOAD, changedFields: auditChangedFields(4) })})
     SELECT (SELECT c.customer_type FROM customers c WHERE c.id = $1::uuid AND c.environment = $2) AS "customerType",
            (SELECT count(*)::int FROM removed) AS removed`,
  ),
};

type CustomerType = 'INDIVIDUAL' | 'BUSINESS';

/** The beneficial owners of business customers (docs/adr/0094), in beneficial_owners. */
export class PrismaBeneficialOwnerStore implements BeneficialOwnerStore {
  constructor(private readonly prisma: PrismaClient) {}

  async list(environment: string, businessId: string): Promise<BeneficialOwner[] | null | 'INDIVIDUAL'> {
    const [customer] = await queryRows<{ customerType: CustomerType }>(this.prisma, SQL.typeOf, [
      businessId,
      environment,
    ]);
    if (!customer) return null;
    if (customer.customerType !== 'BUSINESS') return 'INDIVIDUAL';
    return queryRows<BeneficialOwner>(this.prisma, SQL.list, [businessId, environment]);
  }

  async listOfMany(environment: string, businessIds: readonly string[]): Promise<BeneficialOwner[][]> {
    const rows = await queryRows<BeneficialOwner & { businessCustomerId: string }>(this.prisma, SQL.listOfMany, [
      [...businessIds],
      environment,
    ]);
    const byBusiness = groupBy(rows, (row) => row.businessCustomerId);
    return businessIds.map((id) =>
      (byBusiness.get(id.toLowerCase()) ?? []).map(({ businessCustomerId: _business, ...owner }) => owner),
    );
  }

  async ownershipsOfMany(
    environment: string,
    ownerIds: readonly string[],
    limit: number,
  ): Promise<BusinessOwnership[][]> {
    const rows = await queryRows<BusinessOwnership & { ownerCustomerId: string }>(this.prisma, SQL.ownershipsOfMany, [
      [...ownerIds],
      environment,
      limit,
    ]);
    const byOwner = groupBy(rows, (row) => row.ownerCustomerId);
    return ownerIds.map((id) =>
      (byOwner.get(id.toLowerCase()) ?? []).map(({ ownerCustomerId: _owner, ...ownership }) => ownership),
    );
  }

  async add(
    environment: string,
    businessId: string,
    owner: NewBeneficialOwner,
    limit: number,
    effects: WriteEffects,
  ): Promise<BeneficialOwnerAddition> {
    try {
      return await this.prisma.$transaction(async (tx) => {
        const [business] = await queryRows<{ customerType: CustomerType }>(tx, SQL.lockBusiness, [
          businessId,
          environment,
        ]);
        if (!business) return { outcome: 'business-not-found' };
        if (business.customerType !== 'BUSINESS') return { outcome: 'not-a-business' };
        const [state] = await queryRows<{
          ownerType: CustomerType | null;
          exists: boolean | null;
          owners: number;
          owned: string;
          over: boolean;
        }>(tx, SQL.state, [businessId, environment, owner.ownerCustomerId, owner.ownershipPercentage]);
        if (state!.ownerType === null) return { outcome: 'owner-not-found' };
        if (state!.ownerType !== 'INDIVIDUAL') return { outcome: 'owner-not-an-individual' };
        if (state!.exists === true) return { outcome: 'exists' };
        if (state!.owners >= limit) return { outcome: 'limit' };
        if (state!.over) return { outcome: 'over-100', owned: state!.owned };
        const [added] = await queryRows<BeneficialOwner>(tx, SQL.insert, [
          businessId,
          environment,
          owner.ownerCustomerId,
          owner.prongs,
          owner.ownershipPercentage,
          owner.title,
          ...auditValues(effects.audit),
        ]);
        return { outcome: 'added', owner: added! };
      });
    } catch (error) {
      // The owner deleted between the look-up and the insert: its key refuses the row.
      if (isForeignKeyViolation(error)) return { outcome: 'owner-not-found' };
      throw error;
    }
  }

  async remove(
    environment: string,
    businessId: string,
    ownerId: string,
    effects: WriteEffects,
  ): Promise<BeneficialOwnerRemoval> {
    const [row] = await queryRows<{ customerType: CustomerType | null; removed: number }>(this.prisma, SQL.remove, [
      businessId,
      environment,
      ownerId,
      ...auditValues(effects.audit),
    ]);
    if (row!.removed > 0) return { outcome: 'removed' };
    if (row!.customerType === null) return { outcome: 'business-not-found' };
    if (row!.customerType !== 'BUSINESS') return { outcome: 'not-a-business' };
    return { outcome: 'not-found' };
  }
}

/** Rows by a key, each group in the rows' order. */
function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}
