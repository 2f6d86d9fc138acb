import type { Account } from '../domain/accounts/account.js';
import type { Address, Customer, Phone } from '../domain/customers/customer.js';
import type { AccountModel, CustomerModel } from './generated/prisma/models.js';
import { idList } from './sql.js';

/**
 * What the raw reads select of a customer (alias `c`) and an account (alias `a`), named like the Prisma
 * model's fields so the rows are typed by the generated models. The encrypted SSN, document locator
 * number and blind index are deliberately absent: what is never selected can never be returned. Each
 * record's links come in the same statement (one round trip per read, or per batch of reads).
 */
const ACCOUNT_IDS_OF_CUSTOMER = `array_to_string(ARRAY(SELECT ac.account_id FROM account_customers ac
                        WHERE ac.customer_id = c.id AND ac.environment = c.environment
                        ORDER BY ac.created_at, ac.account_id), ',')`;
/** The account's customer ids in the order given at creation. */
const CUSTOMER_IDS_OF_ACCOUNT = `array_to_string(ARRAY(SELECT ac.customer_id FROM account_customers ac
                        WHERE ac.account_id = a.id AND ac.environment = a.environment
                        ORDER BY ac.position), ',')`;

/** The customer's columns after its id, in this order (the link walk lines them up with NULL padding). */
export const CUSTOMER_FIELDS = `to_char(c.date_of_birth, 'YYYY-MM-DD') AS "dateOfBirth", c.preferred_name AS "preferredName",
  c.first_name AS "firstName", c.middle_name AS "middleName", c.last_name AS "lastName", c.emails,
  c.phone_numbers AS "phoneNumbers", c.addresses, ${ACCOUNT_IDS_OF_CUSTOMER} AS "accountIds"`;
export const CUSTOMER_COLUMNS = `c.id, ${CUSTOMER_FIELDS}`;
/** NULLs of CUSTOMER_FIELDS' types, for a row that is an account. */
export const NO_CUSTOMER_FIELDS = 'NULL::text, NULL::text, NULL::text, NULL::text, NULL::text, NULL::text[], NULL::jsonb, NULL::jsonb, NULL::text';

/** trim_scale gives the amount as the shortest exact decimal ("0", "12.5"), never a float. */
export const ACCOUNT_FIELDS = `a.type, a.name, a.currency, trim_scale(a.amount)::text AS amount, coalesce(a.flags, '{}') AS flags,
  ${CUSTOMER_IDS_OF_ACCOUNT} AS "customerIds"`;
export const ACCOUNT_COLUMNS = `a.id, ${ACCOUNT_FIELDS}`;
/** NULLs of ACCOUNT_FIELDS' types, for a row that is a customer. */
export const NO_ACCOUNT_FIELDS =
  'NULL::varchar AS type, NULL::text AS name, NULL::bpchar AS currency, NULL::text AS amount, NULL::text[] AS flags, NULL::text AS "customerIds"';

export const ACCOUNT_IDS_OF = { customer: ACCOUNT_IDS_OF_CUSTOMER, account: CUSTOMER_IDS_OF_ACCOUNT } as const;

export type CustomerRow = Pick<CustomerModel, 'id' | 'preferredName' | 'firstName' | 'middleName' | 'lastName' | 'emails'> & {
  /** YYYY-MM-DD (to_char): a date, not an instant. */
  dateOfBirth: string;
  // Only the customer store writes these jsonb columns, from validated domain values.
  phoneNumbers: Phone[];
  addresses: Address[];
  /** Comma-separated (see idList). */
  accountIds: string;
};

export type AccountRow = Pick<AccountModel, 'id' | 'type' | 'name' | 'currency' | 'flags'> & {
  /** Exact decimal text (trim_scale). */
  amount: string;
  /** Comma-separated (see idList). */
  customerIds: string;
};

export const toCustomer = (row: CustomerRow): Customer => ({
  customerId: row.id,
  accountIds: idList(row.accountIds),
  preferredName: row.preferredName,
  firstName: row.firstName,
  middleName: row.middleName,
  lastName: row.lastName,
  dateOfBirth: row.dateOfBirth,
  emails: row.emails,
  phoneNumbers: row.phoneNumbers,
  addresses: row.addresses,
});

export const toAccount = (row: AccountRow): Account => ({
  accountId: row.id,
  type: row.type,
  name: row.name,
  amount: row.amount,
  currency: row.currency,
  customerIds: idList(row.customerIds),
  transactions: [],
  flags: row.flags,
});
