import type { PrismaClient } from '../../db/connection/prisma-client.js';
import { queryRows, statement } from '../../db/sql/sql.js';
import { auditInsert, auditValues } from '../../db/sql/write-effects.js';
import type { NewAuditEvent } from '../../domain/audit-event.js';
import type { AccountInterestRow, RecipientRow, TaxFormStore } from './ports.js';

const SQL = {
  // $1 environment, $2 customer. A person's full name (the middle name when it has one), a business's legal name; the
  // first address (as the escheatment's primary owner's state reads it); the SSN or the tax id still sealed.
  recipient: statement(
    'tax_form_recipient',
    `SELECT c.customer_type AS "customerType",
            coalesce(b.legal_name, concat_ws(' ', c.first_name, nullif(c.middle_name, ''), c.last_name)) AS name,
            CASE WHEN jsonb_array_length(c.addresses) > 0 THEN jsonb_build_object(
                   'street', c.addresses -> 0 ->> 'street', 'city', c.addresses -> 0 ->> 'city',
                   'state', c.addresses -> 0 ->> 'state', 'zip', c.addresses -> 0 ->> 'zip') END AS address,
            coalesce(b.pii_key_id, c.pii_key_id) AS "keyId",
            coalesce(b.tax_id_ciphertext, c.ssn_ciphertext) AS ciphertext,
            b.entity_type AS "entityType", b.formation_country AS "formationCountry"
       FROM customers c
       LEFT JOIN business_profiles b ON b.customer_id = c.id AND b.environment = c.environment
      WHERE c.id = $2::uuid AND c.environment = $1::varchar`,
  ),
  // $1 environment, $2 customer, $3 the year. The accounts whose first OWNER (the lowest position among the OWNER
  // links, docs/adr/0091) is the customer; each one's postings whose period end (the posting's business date) is in
  // the year. Postings of nothing (0: rounded to nothing, or deferred) add nothing; accounts with none are left out.
  interestByAccount: statement(
    'tax_form_interest_by_account',
    `SELECT a.id::text AS "accountId", a.currency, trim_scale(sum(x.posted))::text AS "interestPaid"
       FROM account_customers mine
       JOIN accounts a ON a.id = mine.account_id AND a.environment = mine.environment
       JOIN interest_postings x ON x.account_id = a.id
        AND x.period_end >= make_date($3::int, 1, 1) AND x.period_end < make_date($3::int + 1, 1, 1)
      WHERE mine.customer_id = $2::uuid AND mine.environment = $1::varchar AND mine.role = 'OWNER'
        AND NOT EXISTS (SELECT 1 FROM account_customers first WHERE first.account_id = mine.account_id
                          AND first.environment = mine.environment AND first.role = 'OWNER' AND first.position < mine.position)
      GROUP BY a.id, a.currency
     HAVING sum(x.posted) > 0
      ORDER BY a.id`,
  ),
  audit: statement('tax_form_audit', auditInsert(1, '(SELECT 1) AS form_read')),
};

type RecipientSqlRow = Omit<RecipientRow, 'sealedTin'> & { keyId: string; ciphertext: Uint8Array };

/** Tax forms on PostgreSQL (docs/adr/0116): two reads and the read's audit row. */
export class PrismaTaxFormStore implements TaxFormStore {
  constructor(private readonly prisma: PrismaClient) {}

  async recipient(environment: string, customerId: string): Promise<RecipientRow | null> {
    const [row] = await queryRows<RecipientSqlRow>(this.prisma, SQL.recipient, [environment, customerId]);
    if (!row) return null;
    const { keyId, ciphertext, ...recipient } = row;
    return { ...recipient, sealedTin: { keyId, ciphertext } };
  }

  interestByAccount(environment: string, customerId: string, year: number): Promise<AccountInterestRow[]> {
    return queryRows<AccountInterestRow>(this.prisma, SQL.interestByAccount, [environment, customerId, year]);
  }

  async audit(audit: NewAuditEvent): Promise<void> {
    await queryRows(this.prisma, SQL.audit, auditValues(audit));
  }
}
