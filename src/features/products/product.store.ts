import type { PrismaClient } from '../../db/connection/prisma-client.js';
import { isLockTimeout, violatedUniqueIndex } from '../../db/sql/errors.js';
import { jsonParameter, queryRows, statement } from '../../db/sql/sql.js';
import {
  auditChangedFields,
  auditInsert,
  auditValues,
  claimQueries,
  claimValues,
  DEFAULT_IDEMPOTENCY_WAIT_MS,
  eventInsert,
} from '../../db/sql/write-effects.js';
import { idempotencyKeyInProgress } from '../../domain/errors.js';
import type { PageRequest } from '../../domain/pagination.js';
import type { CreationEffects, WriteEffects } from '../../domain/write-effects.js';
import type { NewProductRecord, ProductInsertion, ProductStore, RateInsertion } from './ports.js';
import {
  type BalanceBasis,
  type Compounding,
  type DayCount,
  type Posting,
  type Product,
  type ProductRate,
  RATE_HISTORY_LIMIT,
} from './product.js';

/** Unique per environment (migration 20261215000000_products): a second product with a code is PRODUCT_CODE_TAKEN. */
export const PRODUCT_CODE_UNIQUE_INDEX = 'products_environment_code_key';
/** One rate per product and business date. */
export const PRODUCT_RATE_DATE_UNIQUE_INDEX = 'product_rates_product_id_effective_from_key';

/** A rate row (alias `r`) as JSON: exact decimals as text without trailing zeros, the date as YYYY-MM-DD. */
const RATE_JSON = `jsonb_build_object('effectiveFrom', to_char(r.effective_from, 'YYYY-MM-DD'),
  'annualRate', trim_scale(r.annual_rate)::text, 'tiers', r.tiers)`;

const amount = (column: string, alias: string) => `trim_scale(p.${column})::text AS "${alias}"`;

/**
 * A product as it is read (alias `p`), with the rate in force on the business date `$date` (the newest whose date is
 * not after it) and its newest RATE_HISTORY_LIMIT rates, scheduled ones included, newest date first.
 */
const productColumns = (
  date: string,
) => `p.id::text AS "productId", p.code, p.name, p.account_type AS "accountType", p.currency::text AS currency,
  p.day_count AS "dayCount", p.balance_basis AS "balanceBasis", p.compounding, p.posting,
  ${amount('monthly_maintenance_fee', 'monthlyMaintenanceFee')}, ${amount('maintenance_fee_waived_at', 'maintenanceFeeWaivedAt')},
  ${amount('minimum_opening_deposit', 'minimumOpeningDeposit')}, ${amount('minimum_balance', 'minimumBalance')},
  ${amount('daily_withdrawal_total', 'dailyWithdrawalTotal')}, p.withdrawals_per_month AS "withdrawalsPerMonth",
  to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt",
  (SELECT ${RATE_JSON} FROM product_rates r
    WHERE r.product_id = p.id AND r.effective_from <= ${date}::date ORDER BY r.effective_from DESC LIMIT 1) AS rate,
  (SELECT coalesce(jsonb_agg(h.rate ORDER BY h.effective_from DESC), '[]'::jsonb)
     FROM (SELECT r.effective_from, ${RATE_JSON} AS rate FROM product_rates r
            WHERE r.product_id = p.id ORDER BY r.effective_from DESC LIMIT ${RATE_HISTORY_LIMIT}) h) AS rates`;

/**
 * The product ($1…$16), its first rate ($17…$20; none when $17 is NULL), its audit row ($21…), its event and, with a
 * key, the key's record ($30…), in one statement. The event carries the product's id and code only: the terms are
 * read with `products:read` (docs/adr/0112).
 */
const insertSql = (withKey: boolean) => `WITH ${withKey ? `${claimQueries(30)},` : ''}
     product AS (
       INSERT INTO products (id, environment, code, name, account_type, currency, day_count, balance_basis, compounding, posting,
                             monthly_maintenance_fee, maintenance_fee_waived_at, minimum_opening_deposit, minimum_balance,
                             daily_withdrawal_total, withdrawals_per_month)
       SELECT $1::uuid, $2::varchar, $3::varchar, $4::varchar, $5::varchar, $6::bpchar, $7::varchar, $8::varchar, $9::varchar,
              $10::varchar, $11::numeric, $12::numeric, $13::numeric, $14::numeric, $15::numeric, $16::int${withKey ? ' FROM claimed' : ''}
       RETURNING *
     ), rate AS (
       INSERT INTO product_rates (id, environment, product_id, effective_from, annual_rate, tiers)
       SELECT $17::uuid, p.environment, p.id, $18::date, $19::numeric, $20::jsonb FROM product p WHERE $17::uuid IS NOT NULL
       RETURNING 1
     ), audit AS (${auditInsert(21, 'product')}),
     event AS (${eventInsert('$2::varchar', 'product', {
       type: "'product.created'",
       resourceType: 'product',
       resourceId: 'x.id',
       payload: "jsonb_build_object('productId', x.id, 'code', x.code)",
       changedFields: auditChangedFields(21),
     })})
   SELECT (SELECT count(*)::int FROM product) AS created`;

const SQL = {
  insert: statement('product_insert', insertSql(false)),
  insertWithKey: statement('product_insert_with_key', insertSql(true)),
  // The rate ($1…$6), its audit row ($7…) and its event (the product's id and code $16, the date), in one statement.
  insertRate: statement(
    'product_rate_insert',
    `WITH rate AS (
       INSERT INTO product_rates (id, environment, product_id, effective_from, annual_rate, tiers)
       VALUES ($1::uuid, $2::varchar, $3::uuid, $4::date, $5::numeric, $6::jsonb)
       RETURNING *
     ), audit AS (${auditInsert(7, 'rate')}),
     event AS (${eventInsert('$2::varchar', 'rate', {
       type: "'product.rate_changed'",
       resourceType: 'product',
       resourceId: 'x.product_id',
       payload:
         "jsonb_build_object('productId', x.product_id, 'code', $16::varchar, 'effectiveFrom', to_char(x.effective_from, 'YYYY-MM-DD'))",
       changedFields: auditChangedFields(7),
     })})
   SELECT (SELECT count(*)::int FROM rate) AS created`,
  ),
  findByCode: statement(
    'product_find_by_code',
    `SELECT ${productColumns('$3')} FROM products p WHERE p.environment = $1 AND p.code = $2::varchar`,
  ),
  // The products of the given codes (an account list's products in one statement).
  findByCodes: statement(
    'product_find_by_codes',
    `SELECT ${productColumns('$3')} FROM products p WHERE p.environment = $1 AND p.code = ANY($2::varchar[])`,
  ),
  // A page by code after $2 (NULL: the first), at most $4.
  list: statement(
    'product_list',
    `SELECT ${productColumns('$3')} FROM products p
      WHERE p.environment = $1 AND ($2::varchar IS NULL OR p.code > $2::varchar)
      ORDER BY p.code LIMIT $4::int`,
  ),
};

interface ProductRow {
  productId: string;
  code: string;
  name: string;
  accountType: string;
  currency: string;
  dayCount: DayCount | null;
  balanceBasis: BalanceBasis | null;
  compounding: Compounding | null;
  posting: Posting | null;
  monthlyMaintenanceFee: string | null;
  maintenanceFeeWaivedAt: string | null;
  minimumOpeningDeposit: string | null;
  minimumBalance: string | null;
  dailyWithdrawalTotal: string | null;
  withdrawalsPerMonth: number | null;
  createdAt: string;
  rate: ProductRate | null;
  rates: ProductRate[];
}

const rateOf = (rate: ProductRate): ProductRate => ({
  effectiveFrom: rate.effectiveFrom,
  annualRate: rate.annualRate ?? null,
  tiers: rate.tiers
    ? rate.tiers.map((tier) => ({ minimumBalance: tier.minimumBalance, annualRate: tier.annualRate }))
    : null,
});

const toProduct = (row: ProductRow): Product => ({
  productId: row.productId,
  code: row.code,
  name: row.name,
  accountType: row.accountType,
  currency: row.currency,
  interest:
    row.dayCount && row.balanceBasis && row.compounding && row.posting
      ? { dayCount: row.dayCount, balanceBasis: row.balanceBasis, compounding: row.compounding, posting: row.posting }
      : null,
  rate: row.rate ? rateOf(row.rate) : null,
  rates: row.rates.map(rateOf),
  monthlyMaintenanceFee:
    row.monthlyMaintenanceFee === null
      ? null
      : { amount: row.monthlyMaintenanceFee, waivedAtMinimumDailyBalance: row.maintenanceFeeWaivedAt },
  minimumOpeningDeposit: row.minimumOpeningDeposit,
  minimumBalance: row.minimumBalance,
  limits:
    row.dailyWithdrawalTotal === null && row.withdrawalsPerMonth === null
      ? null
      : { dailyWithdrawalTotal: row.dailyWithdrawalTotal, withdrawalsPerMonth: row.withdrawalsPerMonth },
  createdAt: row.createdAt,
});

/** Deposit products on PostgreSQL (docs/adr/0112): one statement per write, its audit row and event in it. */
export class PrismaProductStore implements ProductStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly idempotencyWaitMs = DEFAULT_IDEMPOTENCY_WAIT_MS,
  ) {}

  async insert(product: NewProductRecord, effects: CreationEffects): Promise<ProductInsertion> {
    const values = [
      product.id,
      product.environment,
      product.code,
      product.name,
      product.accountType,
      product.currency,
      product.interest?.dayCount ?? null,
      product.interest?.balanceBasis ?? null,
      product.interest?.compounding ?? null,
      product.interest?.posting ?? null,
      product.monthlyMaintenanceFee?.amount ?? null,
      product.monthlyMaintenanceFee?.waivedAtMinimumDailyBalance ?? null,
      product.minimumOpeningDeposit,
      product.minimumBalance,
      product.limits?.dailyWithdrawalTotal ?? null,
      product.limits?.withdrawalsPerMonth ?? null,
      product.rate?.id ?? null,
      product.rate?.effectiveFrom ?? null,
      product.rate?.annualRate ?? null,
      product.rate?.tiers ? jsonParameter(product.rate.tiers) : null,
      ...auditValues(effects.audit),
    ];
    let row: { created: number } | undefined;
    try {
      [row] = effects.idempotency
        ? await queryRows<{ created: number }>(this.prisma, SQL.insertWithKey, [
            ...values,
            ...claimValues(effects.idempotency, this.idempotencyWaitMs),
          ])
        : await queryRows<{ created: number }>(this.prisma, SQL.insert, values);
    } catch (error) {
      if (violatedUniqueIndex(error) === PRODUCT_CODE_UNIQUE_INDEX) return { outcome: 'code-taken' };
      if (effects.idempotency && isLockTimeout(error)) throw idempotencyKeyInProgress();
      throw error;
    }
    return row!.created === 0 ? { outcome: 'key-taken' } : { outcome: 'created' };
  }

  async insertRate(
    environment: string,
    productId: string,
    rate: ProductRate & { id: string; code: string },
    effects: WriteEffects,
  ): Promise<RateInsertion> {
    try {
      await queryRows(this.prisma, SQL.insertRate, [
        rate.id,
        environment,
        productId,
        rate.effectiveFrom,
        rate.annualRate,
        rate.tiers ? jsonParameter(rate.tiers) : null,
        ...auditValues(effects.audit),
        rate.code,
      ]);
    } catch (error) {
      if (violatedUniqueIndex(error) === PRODUCT_RATE_DATE_UNIQUE_INDEX) return { outcome: 'date-taken' };
      throw error;
    }
    return { outcome: 'created' };
  }

  async findByCode(environment: string, code: string, businessDate: string): Promise<Product | null> {
    const [row] = await queryRows<ProductRow>(this.prisma, SQL.findByCode, [environment, code, businessDate]);
    return row ? toProduct(row) : null;
  }

  async findByCodes(environment: string, codes: readonly string[], businessDate: string): Promise<Product[]> {
    const rows = await queryRows<ProductRow>(this.prisma, SQL.findByCodes, [environment, [...codes], businessDate]);
    return rows.map(toProduct);
  }

  async list(environment: string, page: PageRequest, businessDate: string): Promise<Product[]> {
    const rows = await queryRows<ProductRow>(this.prisma, SQL.list, [
      environment,
      page.after ?? null,
      businessDate,
      page.first,
    ]);
    return rows.map(toProduct);
  }
}
