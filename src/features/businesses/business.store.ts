import type { BusinessProfile, BusinessProfileReader } from '../customers/index.js';
import { externalIdTaken, taxIdAlreadyExists, validationFailed } from '../../domain/errors.js';
import { TOO_MANY_METADATA_KEYS } from '../../domain/metadata.js';
import type { CreationEffects, CreationOutcome, WriteEffects } from '../../domain/write-effects.js';
import type { NewAuditEvent } from '../../domain/audit-event.js';
import { violatedCheck, violatedUniqueIndex } from '../../db/sql/errors.js';
import type { PrismaClient } from '../../db/connection/prisma-client.js';
import { CUSTOMER_COLUMNS, customerVersionOf, NEW_CUSTOMER_COLUMNS } from '../../db/sql/columns.js';
import { jsonParameter, queryRows, statement } from '../../db/sql/sql.js';
import { createCustomerRow, CUSTOMER_EXTERNAL_ID_UNIQUE_INDEX } from '../../db/sql/customer-creation.js';
import {
  auditChangedFields,
  auditInsert,
  auditValues,
  claimQueries,
  DEFAULT_IDEMPOTENCY_WAIT_MS,
  eventInsert,
} from '../../db/sql/write-effects.js';
import type { BusinessProfileChanges, BusinessStore, BusinessUpdate, NewBusinessRecord } from './ports.js';

const TAX_ID_UNIQUE_INDEX = 'business_profiles_environment_tax_id_blind_index_key';
const METADATA_KEYS_CHECK = 'customers_metadata_keys';

/** A business's profile as it reads (never its tax id): alias `b`. */
export const PROFILE_COLUMNS = `b.customer_id AS id, b.legal_name AS "legalName", b.doing_business_as AS "doingBusinessAs",
  b.entity_type AS "entityType", to_char(b.formation_date, 'YYYY-MM-DD') AS "formationDate", b.formation_state AS "formationState",
  b.formation_country AS "formationCountry", b.industry, b.website`;

/**
 * An event about a business (from `customerOf`): the customer's columns as a person's event carries them (its
 * person columns NULL), `customerType` and `business`, its profile as it reads (PROFILE_COLUMNS): never the tax id.
 */
const EVENT_PAYLOAD = 'to_jsonb(x)';
const customerOf = (customer: string) =>
  `(SELECT ${customer}.*, 'BUSINESS' AS "customerType", to_jsonb(profile) - 'id' AS business
      FROM ${customer} JOIN profile ON profile.id = ${customer}.id)`;

/**
 * The customers row (a BUSINESS: no person column), its profile, the audit event ($20…), the event and, with an
 * idempotency key, the key's record ($29…), in one statement, as a person's creation (customer.store.ts).
 */
const insertSql = (withKey: boolean) =>
  `WITH ${withKey ? `${claimQueries(29)},` : ''}
     customer AS (
       INSERT INTO customers AS c (id, environment, customer_type, emails, phone_numbers, addresses, external_id, metadata, phone_search_keys)
       SELECT $1::uuid, $2::varchar, 'BUSINESS', $3::text[], $4::jsonb, $5::jsonb, $6::varchar, $7::jsonb, $8::text[] ${withKey ? 'FROM claimed' : ''}
       RETURNING ${NEW_CUSTOMER_COLUMNS}
     ), profile AS (
       INSERT INTO business_profiles AS b (customer_id, environment, legal_name, doing_business_as, tax_id_ciphertext, tax_id_blind_index,
                                      pii_key_id, entity_type, formation_date, formation_state, formation_country, industry, website)
       SELECT customer.id, $2::varchar, $9::text, $10::text, $11::bytea, $12::bytea, $13::varchar, $14::varchar, $15::date, $16::text,
              $17::bpchar, $18::varchar, $19::text FROM customer
       RETURNING ${PROFILE_COLUMNS}
     ), audit AS (${auditInsert(20, 'profile')}),
     event AS (${eventInsert('$2::varchar', customerOf('customer'), { type: "'customer.created'", resourceType: 'customer', resourceId: 'x.id', payload: EVENT_PAYLOAD, changedFields: auditChangedFields(20) })})
   SELECT count(*)::int AS created FROM profile`;

const SQL = {
  insert: statement('business_insert', insertSql(false)),
  insertWithKey: statement('business_insert_with_key', insertSql(true)),
  // After an insert refused on the tax id's blind index: the externalId decides first, as for an SSN.
  taxIdRefusal: statement(
    'business_tax_id_refusal',
    `WITH taken AS MATERIALIZED (
       SELECT EXISTS (SELECT 1 FROM customers k WHERE k.environment = $1::varchar AND k.external_id = $2::varchar) AS external_id_taken
     ), audit AS (${auditInsert(3, 'taken WHERE NOT taken.external_id_taken')})
     SELECT external_id_taken FROM taken`,
  ),
  profiles: statement(
    'business_profiles_by_ids',
    `SELECT ${PROFILE_COLUMNS},
            coalesce((SELECT array_agg(o.owner_customer_id::text ORDER BY o.added_at, o.owner_customer_id) FROM beneficial_owners o
                       WHERE o.business_customer_id = b.customer_id AND o.environment = b.environment), '{}') AS "beneficialOwnerIds"
       FROM business_profiles b WHERE b.environment = $1 AND b.customer_id = ANY($2::uuid[])`,
  ),
  // The profile first (its trigger moves the customer's version when what it answers changed), then the
  // customer's own columns, both only on a BUSINESS row at an expected version ($26, NULL: any).
  update: statement(
    'business_update',
    `WITH target AS MATERIALIZED (
       SELECT c.id FROM customers c
        WHERE c.id = $1::uuid AND c.environment = $2 AND c.customer_type = 'BUSINESS'
          AND ($26::int[] IS NULL OR ${customerVersionOf('c')} = ANY($26::int[]))
        FOR NO KEY UPDATE
     ), profile AS (
       UPDATE business_profiles b
          SET doing_business_as = CASE WHEN $3::boolean THEN $4::text ELSE b.doing_business_as END,
              website = CASE WHEN $5::boolean THEN $6::text ELSE b.website END,
              industry = CASE WHEN $7::boolean THEN $8::varchar ELSE b.industry END
         FROM target WHERE b.customer_id = target.id AND b.environment = $2
       RETURNING ${PROFILE_COLUMNS}
     ), updated AS (
       UPDATE customers c SET emails = coalesce($9::text[], c.emails), phone_numbers = coalesce($10::jsonb, c.phone_numbers),
              phone_search_keys = coalesce($11::text[], c.phone_search_keys), addresses = coalesce($12::jsonb, c.addresses),
              external_id = CASE WHEN $13::boolean THEN $14::varchar ELSE c.external_id END,
              metadata = CASE WHEN $16::boolean THEN NULL WHEN $15::jsonb IS NULL THEN c.metadata
                              ELSE nullif(jsonb_strip_nulls(coalesce(c.metadata, '{}'::jsonb) || $15::jsonb), '{}'::jsonb) END,
              updated_at = CURRENT_TIMESTAMP
         FROM profile WHERE c.id = profile.id AND c.environment = $2
       RETURNING ${CUSTOMER_COLUMNS}
     ), audit AS (${auditInsert(17, 'updated')}),
     event AS (${eventInsert('$2::varchar', customerOf('updated'), { type: "'customer.updated'", resourceType: 'customer', resourceId: 'x.id', payload: EVENT_PAYLOAD, changedFields: auditChangedFields(17) })})
     SELECT (SELECT count(*)::int FROM customers f WHERE f.id = $1::uuid AND f.environment = $2 AND f.customer_type = 'BUSINESS') AS found,
            (SELECT count(*)::int FROM updated) AS updated`,
  ),
};

/** Business customers on PostgreSQL (raw SQL: each write is one statement with its effects). */
export class PrismaBusinessStore implements BusinessStore, BusinessProfileReader {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly idempotencyWaitMs = DEFAULT_IDEMPOTENCY_WAIT_MS,
  ) {}

  async insert(
    record: NewBusinessRecord,
    effects: CreationEffects & { taxIdRefusalAudit: NewAuditEvent },
  ): Promise<CreationOutcome> {
    const { profile } = record;
    const values = [
      record.id,
      record.environment,
      record.emails,
      jsonParameter(record.phoneNumbers),
      jsonParameter(record.addresses),
      record.externalId ?? null,
      record.metadata === undefined ? null : jsonParameter(record.metadata),
      record.phoneSearchKeys,
      profile.legalName,
      profile.doingBusinessAs,
      Buffer.from(record.sealed.taxIdCiphertext),
      Buffer.from(record.sealed.taxIdBlindIndex),
      record.sealed.keyId,
      profile.entityType,
      profile.formationDate,
      profile.formationState,
      profile.formationCountry,
      profile.industry,
      profile.website,
      ...auditValues(effects.audit),
    ];
    return createCustomerRow(
      this.prisma,
      {
        insert: SQL.insert,
        insertWithKey: SQL.insertWithKey,
        values,
        environment: record.environment,
        externalId: record.externalId,
        identifier: {
          uniqueIndex: TAX_ID_UNIQUE_INDEX,
          refusal: SQL.taxIdRefusal,
          refusalAudit: effects.taxIdRefusalAudit,
          alreadyExists: taxIdAlreadyExists,
        },
      },
      effects,
      this.idempotencyWaitMs,
    );
  }

  async profilesByIds(environment: string, ids: readonly string[]): Promise<Map<string, BusinessProfile>> {
    const rows = await queryRows<BusinessProfile & { id: string }>(this.prisma, SQL.profiles, [environment, ids]);
    return new Map(rows.map(({ id, ...profile }) => [id, profile]));
  }

  async update(
    environment: string,
    id: string,
    changes: BusinessProfileChanges,
    effects: WriteEffects,
    expectedVersions: readonly number[] | null,
  ): Promise<BusinessUpdate> {
    let row: { found: number; updated: number } | undefined;
    try {
      [row] = await queryRows<{ found: number; updated: number }>(this.prisma, SQL.update, [
        id,
        environment,
        changes.doingBusinessAs !== undefined,
        changes.doingBusinessAs ?? null,
        changes.website !== undefined,
        changes.website ?? null,
        changes.industry !== undefined,
        changes.industry ?? null,
        changes.emails ?? null,
        changes.phoneNumbers === undefined ? null : jsonParameter(changes.phoneNumbers),
        changes.phoneSearchKeys ?? null,
        changes.addresses === undefined ? null : jsonParameter(changes.addresses),
        changes.externalId !== undefined,
        changes.externalId ?? null,
        changes.metadata === undefined || changes.metadata === null ? null : jsonParameter(changes.metadata),
        changes.metadata === null,
        ...auditValues(effects.audit),
        expectedVersions,
      ]);
    } catch (error) {
      if (violatedUniqueIndex(error) === CUSTOMER_EXTERNAL_ID_UNIQUE_INDEX) throw externalIdTaken('customer');
      if (violatedCheck(error) === METADATA_KEYS_CHECK) throw validationFailed([{ ...TOO_MANY_METADATA_KEYS }]);
      throw error;
    }
    if (row!.updated > 0) return { outcome: 'updated' };
    return expectedVersions !== null && row!.found > 0 ? { outcome: 'stale' } : { outcome: 'not-found' };
  }
}
