import type { NewAuditEvent } from '../../domain/audit-event.js';
import type { CustomerFilter } from './customer-search.js';
import type { Customer } from './customer.js';
import { customerAlreadyExists, externalIdTaken, validationFailed } from '../../domain/errors.js';
import { TOO_MANY_METADATA_KEYS } from '../../domain/metadata.js';
import type { PageRequest } from '../../domain/pagination.js';
import type { CreationOutcome, WriteEffects } from '../../domain/write-effects.js';
import type {
  CustomerChanges,
  CustomerCreationEffects,
  CustomerDeletion,
  CustomerStore,
  CustomerUpdate,
  NewCustomerRecord,
} from './ports.js';
import {
  CUSTOMER_COLUMNS,
  type CustomerRow,
  customerVersionOf,
  NEW_CUSTOMER_COLUMNS,
  toCustomer,
} from '../../db/sql/columns.js';
import { isForeignKeyViolation, violatedCheck, violatedUniqueIndex } from '../../db/sql/errors.js';
import { CoalescedReads } from '../../db/sql/coalesced-reads.js';
import type { PrismaClient } from '../../db/connection/prisma-client.js';
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
import { customerSearchSql } from './customer-search.sql.js';

/** The unique keys a new customer can clash on (ids are fresh UUIDs): the SSN's blind index, and its externalId (CUSTOMER_EXTERNAL_ID_UNIQUE_INDEX). */
const SSN_UNIQUE_INDEX = 'customers_environment_ssn_blind_index_key';
/** At most METADATA_LIMITS.keys metadata keys, counted by the database on what an update's merge leaves. */
const METADATA_KEYS_CHECK = 'customers_metadata_keys';

const INSERT_COLUMNS = `id, environment, ssn_blind_index, ssn_ciphertext, document_locator_number_ciphertext, pii_key_id,
                            date_of_birth, preferred_name, first_name, middle_name, last_name, emails, phone_numbers, addresses,
                            external_id, metadata, phone_search_keys`;
const INSERT_VALUES = `$1::uuid, $2::varchar, $3::bytea, $4::bytea, $5::bytea, $6::varchar, $7::date, $8::text, $9::text, $10::text,
                            $11::text, $12::text[], $13::jsonb, $14::jsonb, $15::varchar, $16::jsonb, $17::text[]`;

/**
 * The customer, its audit event ($18…) and, with an idempotency key, the key's record ($27…), in one
 * statement (src/db/sql/write-effects.ts). Raw SQL: the typed API cannot make the writes one statement.
 */
const insertSql = (withKey: boolean) =>
  `WITH ${withKey ? `${claimQueries(27)},` : ''}
     customer AS (
       INSERT INTO customers AS c (${INSERT_COLUMNS})
       SELECT ${INSERT_VALUES} ${withKey ? 'FROM claimed' : ''}
       RETURNING ${NEW_CUSTOMER_COLUMNS}
     ), audit AS (${auditInsert(18, 'customer')}),
     event AS (${eventInsert('$2::varchar', 'customer', { type: "'customer.created'", resourceType: 'customer', resourceId: 'x.id', payload: 'to_jsonb(x)', changedFields: auditChangedFields(18) })})
   SELECT count(*)::int AS created FROM customer`;

const SQL = {
  insert: statement('customer_insert', insertSql(false)),
  insertWithKey: statement('customer_insert_with_key', insertSql(true)),
  // After an insert refused on the SSN's blind index (nothing of it was written): the externalId is looked at
  // first, in a statement of its own (which sees every committed customer), and only when no customer has it is
  // the refusal an SSN refusal, its audit event ($3…) written by the same statement. Only on that path: a
  // creation that succeeds never runs it.
  ssnRefusal: statement(
    'customer_ssn_refusal',
    `WITH taken AS MATERIALIZED (
       SELECT EXISTS (SELECT 1 FROM customers c WHERE c.environment = $1::varchar AND c.external_id = $2::varchar) AS external_id_taken
     ), audit AS (${auditInsert(3, 'taken WHERE NOT taken.external_id_taken')})
     SELECT external_id_taken FROM taken`,
  ),
  // Hot reads (every GET, coalesced across concurrent requests, and every GraphQL loader batch): one statement with the account ids, named.
  findByIds: statement(
    'customer_find_by_ids',
    `SELECT ${CUSTOMER_COLUMNS} FROM customers c WHERE c.environment = $1 AND c.id = ANY($2::uuid[])`,
  ),
  // An absent change is NULL and keeps the stored value (the domain never sets these fields to null). The
  // external id may be cleared: $8 says whether it changes. Metadata: $10 removes all pairs; otherwise the
  // changes $9 are merged in (a null value removes its key) and no pair left is no metadata (NULL). With
  // expected versions ($21, NULL: unconditional) the row is written only at one of them: the UPDATE compares the
  // row as it is when locked, so two writers naming the same version cannot both pass. `found` tells a stale
  // version from a missing customer, and a business (which this statement never writes: docs/adr/0090).
  update: statement(
    'customer_update',
    `WITH updated AS (
       UPDATE customers c SET preferred_name = coalesce($3::text, c.preferred_name), emails = coalesce($4::text[], c.emails),
              phone_numbers = coalesce($5::jsonb, c.phone_numbers), phone_search_keys = coalesce($7::text[], c.phone_search_keys),
              addresses = coalesce($6::jsonb, c.addresses),
              external_id = CASE WHEN $8::boolean THEN $9::varchar ELSE c.external_id END,
              metadata = CASE WHEN $11::boolean THEN NULL WHEN $10::jsonb IS NULL THEN c.metadata
                              ELSE nullif(jsonb_strip_nulls(coalesce(c.metadata, '{}'::jsonb) || $10::jsonb), '{}'::jsonb) END,
              updated_at = CURRENT_TIMESTAMP
       WHERE c.id = $1::uuid AND c.environment = $2 AND c.customer_type = 'INDIVIDUAL' AND ($21::int[] IS NULL OR ${customerVersionOf('c')} = ANY($21::int[]))
       RETURNING ${CUSTOMER_COLUMNS}
     ), audit AS (${auditInsert(12, 'updated')}),
     event AS (${eventInsert('$2::varchar', 'updated', { type: "'customer.updated'", resourceType: 'customer', resourceId: 'x.id', payload: 'to_jsonb(x)', changedFields: auditChangedFields(12) })})
     SELECT (SELECT f.customer_type FROM customers f WHERE f.id = $1::uuid AND f.environment = $2) AS "foundType", updated.*
     FROM (SELECT 1) one LEFT JOIN updated ON true`,
  ),
  // Links reference the customer ON DELETE RESTRICT: with an account linked, the database refuses.
  delete: statement(
    'customer_delete',
    `WITH deleted AS (DELETE FROM customers WHERE id = $1::uuid AND environment = $2 AND ($12::int[] IS NULL OR ${customerVersionOf('customers')} = ANY($12::int[])) RETURNING id),
          audit AS (${auditInsert(3, 'deleted')}),
          event AS (${eventInsert('$2::varchar', 'deleted', { type: "'customer.deleted'", resourceType: 'customer', resourceId: 'x.id', payload: "jsonb_build_object('id', x.id)" })})
     SELECT count(*)::int AS deleted, (SELECT count(*)::int FROM customers f WHERE f.id = $1::uuid AND f.environment = $2) AS found FROM deleted`,
  ),
  typeOf: statement(
    'customer_type_of',
    'SELECT customer_type AS "customerType" FROM customers WHERE id = $1::uuid AND environment = $2',
  ),
  countLinkedAccounts: statement(
    'customer_count_linked_accounts',
    'SELECT count(*)::int AS count FROM account_customers WHERE customer_id = $1::uuid AND environment = $2',
  ),
  // An individual who owns or controls a business (docs/adr/0094): its key refuses the delete too.
  countOwnedBusinesses: statement(
    'customer_count_owned_businesses',
    'SELECT count(*)::int AS count FROM beneficial_owners WHERE owner_customer_id = $1::uuid AND environment = $2',
  ),
};

/** Customers on PostgreSQL, through Prisma Client. */
export class PrismaCustomerStore implements CustomerStore {
  private readonly byId = new CoalescedReads<Customer>(
    (environment, ids) => this.findByIds(environment, ids),
    (customer) => customer.customerId,
  );

  constructor(
    private readonly prisma: PrismaClient,
    private readonly idempotencyWaitMs = DEFAULT_IDEMPOTENCY_WAIT_MS,
  ) {}

  async insert(record: NewCustomerRecord, effects: CustomerCreationEffects): Promise<CreationOutcome> {
    const values = [
      record.id,
      record.environment,
      Buffer.from(record.sealed.ssnBlindIndex),
      Buffer.from(record.sealed.ssnCiphertext),
      Buffer.from(record.sealed.documentLocatorNumberCiphertext),
      record.sealed.keyId,
      record.dateOfBirth,
      record.preferredName,
      record.firstName,
      record.middleName,
      record.lastName,
      record.emails,
      jsonParameter(record.phoneNumbers),
      jsonParameter(record.addresses),
      record.externalId ?? null,
      record.metadata === undefined ? null : jsonParameter(record.metadata),
      record.phoneSearchKeys,
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
          uniqueIndex: SSN_UNIQUE_INDEX,
          refusal: SQL.ssnRefusal,
          refusalAudit: effects.ssnRefusalAudit,
          alreadyExists: customerAlreadyExists,
        },
      },
      effects,
      this.idempotencyWaitMs,
    );
  }

  /** Coalesced with concurrent look-ups into one findByIds statement (src/db/sql/coalesced-reads.ts). */
  findById(environment: string, id: string): Promise<Customer | null> {
    return this.byId.load(environment, id.toLowerCase());
  }

  async findByIds(environment: string, ids: readonly string[]): Promise<Customer[]> {
    const rows = await queryRows<CustomerRow>(this.prisma, SQL.findByIds, [environment, ids]);
    return rows.map(toCustomer);
  }

  async update(
    environment: string,
    id: string,
    changes: CustomerChanges,
    effects: WriteEffects,
    expectedVersions: readonly number[] | null = null,
  ): Promise<CustomerUpdate> {
    let row: ({ foundType: string | null } & Partial<CustomerRow>) | undefined;
    try {
      [row] = await queryRows<{ foundType: string | null } & Partial<CustomerRow>>(this.prisma, SQL.update, [
        id,
        environment,
        changes.preferredName ?? null,
        changes.emails ?? null,
        changes.phoneNumbers === undefined ? null : jsonParameter(changes.phoneNumbers),
        changes.addresses === undefined ? null : jsonParameter(changes.addresses),
        changes.phoneSearchKeys ?? null,
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
    if (row!.id !== null && row!.id !== undefined)
      return { outcome: 'updated', customer: toCustomer(row as CustomerRow) };
    // Not written: a business is written by its own feature (docs/adr/0090); a stale version only if one was expected and the customer is there (else it is gone).
    if (row!.foundType === 'BUSINESS') return { outcome: 'business' };
    return expectedVersions !== null && row!.foundType !== null ? { outcome: 'stale' } : { outcome: 'not-found' };
  }

  async typeOf(environment: string, id: string): Promise<'INDIVIDUAL' | 'BUSINESS' | null> {
    const [row] = await queryRows<{ customerType: 'INDIVIDUAL' | 'BUSINESS' }>(this.prisma, SQL.typeOf, [
      id,
      environment,
    ]);
    return row?.customerType ?? null;
  }

  async delete(
    environment: string,
    id: string,
    effects: WriteEffects,
    expectedVersions: readonly number[] | null = null,
  ): Promise<CustomerDeletion> {
    // An account linked and unlinked again between the refusal and the count: try once more.
    for (let attempt = 1; ; attempt++) {
      try {
        const [row] = await queryRows<{ deleted: number; found: number }>(this.prisma, SQL.delete, [
          id,
          environment,
          ...auditValues(effects.audit),
          expectedVersions,
        ]);
        if (row!.deleted > 0) return { outcome: 'deleted' };
        return expectedVersions !== null && row!.found > 0 ? { outcome: 'stale' } : { outcome: 'not-found' };
      } catch (error) {
        if (!isForeignKeyViolation(error)) throw error;
        const [row] = await queryRows<{ count: number }>(this.prisma, SQL.countLinkedAccounts, [id, environment]);
        if (row!.count > 0) return { outcome: 'has-accounts', linkedAccounts: row!.count };
        const [owned] = await queryRows<{ count: number }>(this.prisma, SQL.countOwnedBusinesses, [id, environment]);
        if (owned!.count > 0) return { outcome: 'is-beneficial-owner', businesses: owned!.count };
        if (attempt === 2) return { outcome: 'has-accounts', linkedAccounts: 1 };
      }
    }
  }

  /**
   * One statement whatever the page's size: the matches (customer-search.sql.ts) and, for an audited search,
   * its audit event with the number found. Unnamed (its text depends on the filters given), so PostgreSQL plans
   * it for the values at hand: a name prefix becomes an index range. The page comes back as one JSON text
   * (its rows are CustomerRow's fields): Prisma Client's per-row, per-column result mapping cost about as much
   * as the rest of the request for a page of 20, parsing one JSON text a fraction of it.
   */
  async search(environment: string, filter: CustomerFilter, page: PageRequest): Promise<Customer[]> {
    const { text, values, outerOrder } = customerSearchSql(filter);
    const asJson = `SELECT coalesce(json_agg(p ${outerOrder}), '[]')::text AS page FROM (${text}) p`;
    return pageOf(
      await this.prisma.$queryRawUnsafe<PageRow[]>(asJson, environment, page.first, page.after ?? null, ...values),
    );
  }

  async auditedSearch(
    environment: string,
    filter: CustomerFilter,
    page: PageRequest,
    audit: NewAuditEvent,
  ): Promise<Customer[]> {
    const { text, values, outerOrder } = customerSearchSql(filter);
    const params = [environment, page.first, page.after ?? null, ...values];
    const at = params.length + 1;
    const audited = `WITH found AS MATERIALIZED (${text}),
       audit AS (
         INSERT INTO audit_events (id, principal_id, environment, operation, resource_type, resource_id, request_id, idempotency_key, changed_fields, matched_count)
         SELECT $${at}::uuid, $${at + 1}::varchar, $${at + 2}::varchar, $${at + 3}::varchar, $${at + 4}::varchar, $${at + 5}::uuid, $${at + 6}::varchar, $${at + 7}::varchar, $${at + 8}::text[],
                (SELECT count(*)::int FROM found)
       )
       SELECT coalesce(json_agg(found ${outerOrder}), '[]')::text AS page FROM found`;
    return pageOf(await this.prisma.$queryRawUnsafe<PageRow[]>(audited, ...params, ...auditValues(audit)));
  }

  /** A page in id order: the typed API (two statements: customers, then their links), rare enough not to matter. */
  async list(environment: string, page: PageRequest): Promise<Customer[]> {
    const customers = await this.prisma.customer.findMany({
      // Archived customers are left out of the list (docs/account-lifecycle.md): `status=ARCHIVED` is a search.
      where: { environment, archivedAt: null, ...(page.after === undefined ? {} : { id: { gt: page.after } }) },
      orderBy: { id: 'asc' },
      take: page.first,
      select: {
        id: true,
        dateOfBirth: true,
        preferredName: true,
        firstName: true,
        middleName: true,
        lastName: true,
        emails: true,
        phoneNumbers: true,
        addresses: true,
        version: true,
        externalId: true,
        metadata: true,
        accountLinks: { select: { accountId: true }, orderBy: [{ createdAt: 'asc' }, { accountId: 'asc' }] },
      },
    });
    return customers.map((customer) => ({
      customerId: customer.id,
      accountIds: customer.accountLinks.map((link) => link.accountId),
      preferredName: customer.preferredName ?? '',
      firstName: customer.firstName ?? '',
      middleName: customer.middleName ?? '',
      lastName: customer.lastName ?? '',
      // A DATE arrives as midnight UTC. A business has none (docs/adr/0090).
      dateOfBirth: customer.dateOfBirth?.toISOString().slice(0, 10) ?? '',
      emails: customer.emails,
      // Only this store writes these jsonb columns, from validated domain values.
      phoneNumbers: customer.phoneNumbers as unknown as Customer['phoneNumbers'],
      addresses: customer.addresses as unknown as Customer['addresses'],
      version: customer.version,
      ...(customer.externalId !== null && { externalId: customer.externalId }),
      ...(customer.metadata !== null && { metadata: customer.metadata as Customer['metadata'] }),
      ...(customer.lastName === null && { customerType: 'BUSINESS' as const }),
    }));
  }
}

/** A page of customers as one JSON array of CustomerRow objects (see CustomerStore.search). */
interface PageRow {
  page: string;
}

const pageOf = (rows: PageRow[]): Customer[] => (JSON.parse(rows[0]!.page) as CustomerRow[]).map(toCustomer);
