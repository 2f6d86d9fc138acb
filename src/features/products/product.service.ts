import { auditEventFor } from '../../domain/audit-event.js';
import { authorize } from '../../domain/authorization.js';
import type { Caller } from '../../domain/caller.js';
import { type EnvironmentTime, realTime } from '../../domain/environment-clock.js';
import {
  type ErrorDetail,
  productCodeTaken,
  productNotFound,
  productRateNotAllowed,
  validationFailed,
} from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import { type Page, pageOf, type PageQuery, readPage } from '../../domain/pagination.js';
import { parseInput, toErrorDetails } from '../../domain/validation.js';
import { businessDateOf } from '../clock/index.js';
import type { CreateOptions, Creation, IdempotentCreation } from '../idempotency/index.js';
import { amountProblemMessage, exactAmount } from '../ledger/index.js';
import type { NewProductRecord, ProductStore } from './ports.js';
import type { Product, RateTier } from './product.js';
import { changeProductRateSchema, createProductSchema, isProductCode, productCursorSchema } from './product.schemas.js';

/** "0.0400" → "0.04", "0.000" → "0": a rate as it is stored and answered. */
const normalRate = (rate: string): string => (rate.includes('.') ? rate.replace(/\.?0+$/, '') : rate);

/** -1, 0 or 1 as exact decimal text `a` is below, equal to or above `b` (non-negative, normalised). */
function compareDecimals(a: string, b: string): number {
  const [aWhole = '', aFraction = ''] = a.split('.');
  const [bWhole = '', bFraction = ''] = b.split('.');
  if (aWhole.length !== bWhole.length) return aWhole.length < bWhole.length ? -1 : 1;
  const width = Math.max(aFraction.length, bFraction.length);
  const left = aWhole + aFraction.padEnd(width, '0');
  const right = bWhole + bFraction.padEnd(width, '0');
  return left === right ? 0 : left < right ? -1 : 1;
}

const isZero = (value: number | string): boolean =>
  value === 0 || (typeof value === 'string' && /^0+(\.0+)?$/.test(value.trim()));

/**
 * The exact amounts of an input, in its currency, as the ledger checks a posting's (TOO_PRECISE, OUT_OF_RANGE,
 * INVALID_FORMAT): every problem is collected, so one VALIDATION_FAILED names each field.
 */
class Amounts {
  readonly details: ErrorDetail[] = [];
  constructor(private readonly currency: string) {}

  of(value: number | string, field: string, zero: 'allowed' | 'refused' = 'refused'): string {
    if (zero === 'allowed' && isZero(value)) return '0';
    const exact = exactAmount(value, this.currency);
    if ('problem' in exact) {
      const code =
        exact.problem === 'too-many-decimals'
          ? 'TOO_PRECISE'
          : exact.problem === 'not-a-number'
            ? 'INVALID_FORMAT'
            : 'OUT_OF_RANGE';
      this.details.push({ field, code, message: amountProblemMessage(exact.problem, this.currency) });
      return '0';
    }
    return exact.amount;
  }

  optional(value: number | string | undefined, field: string, zero: 'allowed' | 'refused' = 'refused') {
    return value === undefined ? null : this.of(value, field, zero);
  }

  /** Tiers: the first from "0", each next from a strictly greater balance. */
  tiers(tiers: readonly { minimumBalance: number | string; annualRate: string }[], field: string): RateTier[] {
    const exact = tiers.map((tier, i) => ({
      minimumBalance: this.of(tier.minimumBalance, `${field}.${i}.minimumBalance`, i === 0 ? 'allowed' : 'refused'),
      annualRate: normalRate(tier.annualRate),
    }));
    if (exact[0] && !isZero(tiers[0]!.minimumBalance))
      this.details.push({
        field: `${field}.0.minimumBalance`,
        code: 'INVALID_VALUE',
        message: 'The first tier must start at "0".',
      });
    for (let i = 1; i < exact.length; i++)
      if (compareDecimals(exact[i]!.minimumBalance, exact[i - 1]!.minimumBalance) <= 0)
        this.details.push({
          field: `${field}.${i}.minimumBalance`,
          code: 'NOT_ASCENDING',
          message: "Must be greater than the previous tier's minimumBalance.",
        });
    return exact;
  }

  check(): void {
    if (this.details.length > 0) throw validationFailed(this.details);
  }
}

/**
 * Deposit products (docs/adr/0112): a product's terms (interest, fees, minimums, limits), defined once under a code
 * and never changed but for its rate, which changes only forward (a dated row from a later business date). Reading
 * needs `products:read`, defining and changing a rate `products:write`. Every refusal is a coded DomainError and
 * changes nothing; every write is audited and has its event, in its own statement.
 */
export class ProductService {
  constructor(
    private readonly stores: { products: ProductStore },
    private readonly creation: IdempotentCreation,
    private readonly clock: EnvironmentTime = realTime,
    private readonly timeZoneOf: (environment: string) => string = () => 'America/New_York',
  ) {}

  /** The environment's business date now (its clock, its time zone): what "in force" and "forward" are read against. */
  private async today(environment: string): Promise<string> {
    return businessDateOf(await this.clock.now(environment), this.timeZoneOf(environment));
  }

  /**
   * Defines a product; with interest, its first rate is in force from today's business date. Refusals, in order:
   * FORBIDDEN, VALIDATION_FAILED (the key, the body's shape, then amounts by the currency and the tiers' order),
   * PRODUCT_CODE_TAKEN. With an idempotency key, a retry answers the product first written.
   */
  async create(caller: Caller, input: unknown, options?: CreateOptions): Promise<Creation<Product>> {
    authorize(caller, 'products:write');
    const { idempotencyKey } = this.creation.parseOptions(options);
    const valid = parseInput(createProductSchema, input);
    const amounts = new Amounts(valid.currency);
    const fee = valid.fees?.monthlyMaintenance;
    const interest = valid.interest;
    const tiers = interest?.tiers ? amounts.tiers(interest.tiers, 'interest.tiers') : null;
    const terms = {
      monthlyMaintenanceFee: fee
        ? {
            amount: amounts.of(fee.amount, 'fees.monthlyMaintenance.amount'),
            waivedAtMinimumDailyBalance: amounts.optional(
              fee.waivedAtMinimumDailyBalance,
              'fees.monthlyMaintenance.waivedAtMinimumDailyBalance',
              'allowed',
            ),
          }
        : null,
      minimumOpeningDeposit: amounts.optional(valid.minimumOpeningDeposit, 'minimumOpeningDeposit', 'allowed'),
      minimumBalance: amounts.optional(valid.minimumBalance, 'minimumBalance', 'allowed'),
      limits: valid.limits
        ? {
            dailyWithdrawalTotal: amounts.optional(valid.limits.dailyWithdrawalTotal, 'limits.dailyWithdrawalTotal'),
            withdrawalsPerMonth: valid.limits.withdrawalsPerMonth ?? null,
          }
        : null,
    };
    amounts.check();
    const today = await this.today(caller.environment);
    const productId = newId();
    const record: NewProductRecord = {
      id: productId,
      environment: caller.environment,
      code: valid.code,
      name: valid.name,
      accountType: valid.accountType,
      currency: valid.currency,
      interest: interest
        ? {
            dayCount: interest.dayCount,
            balanceBasis: interest.balanceBasis,
            compounding: interest.compounding,
            posting: interest.posting,
          }
        : null,
      rate: interest
        ? {
            id: newId(),
            effectiveFrom: today,
            annualRate: interest.annualRate === undefined ? null : normalRate(interest.annualRate),
            tiers,
          }
        : null,
      ...terms,
    };
    const audit = auditEventFor(caller, {
      operation: 'product.create',
      resourceType: 'product',
      resourceId: productId,
      changedFields: Object.keys(valid).filter((key) => valid[key as keyof typeof valid] !== undefined),
      idempotencyKey,
    });
    const { value, replayed } = await this.creation.run(
      caller,
      'product.create',
      valid,
      idempotencyKey,
      { productId, code: valid.code },
      async (idempotency) => {
        const insertion = await this.stores.products.insert(record, { audit, idempotency });
        if (insertion.outcome === 'code-taken') throw productCodeTaken();
        return insertion.outcome === 'key-taken' ? 'key-taken' : 'created';
      },
    );
    // The product as it is now (a replay: the one its key's first request defined, whose terms never change).
    const product = await this.stores.products.findByCode(caller.environment, value.code, today);
    if (!product) throw productNotFound();
    return { value: product, replayed };
  }

  /**
   * A new rate from `effectiveFrom`, a business date after today's (rates change only forward; the rate in force and
   * the past ones never change). Refusals, in order: FORBIDDEN, VALIDATION_FAILED, PRODUCT_NOT_FOUND,
   * PRODUCT_RATE_NOT_ALLOWED (no interest; not after today's business date; a rate from that date exists).
   */
  async changeRate(caller: Caller, code: string, input: unknown): Promise<Product> {
    authorize(caller, 'products:write');
    const valid = parseInput(changeProductRateSchema, input);
    if (!isProductCode(code)) throw productNotFound();
    const today = await this.today(caller.environment);
    const product = await this.stores.products.findByCode(caller.environment, code, today);
    if (!product) throw productNotFound();
    if (!product.interest)
      throw productRateNotAllowed({
        field: 'interest',
        code: 'NO_INTEREST',
        message: 'The product pays no interest: it has no rate to change (define a product with interest instead).',
      });
    const amounts = new Amounts(product.currency);
    const tiers = valid.tiers ? amounts.tiers(valid.tiers, 'tiers') : null;
    amounts.check();
    if (valid.effectiveFrom <= today)
      throw productRateNotAllowed({
        field: 'effectiveFrom',
        code: 'NOT_AFTER_BUSINESS_DATE',
        message: `Must be after the environment's business date (${today}): rates change only forward.`,
      });
    const inserted = await this.stores.products.insertRate(
      caller.environment,
      product.productId,
      {
        id: newId(),
        code: product.code,
        effectiveFrom: valid.effectiveFrom,
        annualRate: valid.annualRate === undefined ? null : normalRate(valid.annualRate),
        tiers,
      },
      {
        audit: auditEventFor(caller, {
          operation: 'product.rate.change',
          resourceType: 'product',
          resourceId: product.productId,
          changedFields: [valid.tiers ? 'tiers' : 'annualRate', 'effectiveFrom'],
        }),
      },
    );
    if (inserted.outcome === 'date-taken')
      throw productRateNotAllowed({
        field: 'effectiveFrom',
        code: 'ALREADY_SCHEDULED',
        message: 'The product has a rate from this date already; a rate is never edited: choose another date.',
      });
    return (await this.stores.products.findByCode(caller.environment, code, today)) ?? product;
  }

  /**
   * The terms an account opened on `code` must match (AccountService's ProductTerms port), null when no product has
   * it. No scope of its own: it is part of the account's creation (`accounts:write`), and answers nothing but these.
   */
  async termsOf(environment: string, code: string): Promise<{ accountType: string; currency: string } | null> {
    if (!isProductCode(code)) return null;
    const product = await this.stores.products.findByCode(environment, code, await this.today(environment));
    return product ? { accountType: product.accountType, currency: product.currency } : null;
  }

  /** The product with its rate in force today and its newest rates. PRODUCT_NOT_FOUND (any code not of this shape too). */
  async get(caller: Caller, code: string): Promise<Product> {
    authorize(caller, 'products:read');
    if (!isProductCode(code)) throw productNotFound();
    const product = await this.stores.products.findByCode(
      caller.environment,
      code,
      await this.today(caller.environment),
    );
    if (!product) throw productNotFound();
    return product;
  }

  /**
   * Batch look-up for per-request loaders (`Account.product` of a list of accounts): one statement, one entry per
   * code, null where there is none. products:read is checked once for the batch (FORBIDDEN).
   */
  async getMany(caller: Caller, codes: readonly string[]): Promise<(Product | null)[]> {
    authorize(caller, 'products:read');
    const valid = [...new Set(codes.filter(isProductCode))];
    const found =
      valid.length > 0
        ? await this.stores.products.findByCodes(caller.environment, valid, await this.today(caller.environment))
        : [];
    const byCode = new Map(found.map((product) => [product.code, product]));
    return codes.map((code) => byCode.get(code) ?? null);
  }

  /** Products by code, a page at a time (`after`: the last code of the previous page). VALIDATION_FAILED for `first`, `after`. */
  async list(caller: Caller, page: PageQuery = {}): Promise<Page<Product>> {
    authorize(caller, 'products:read');
    const request = pageOf(page);
    if (request.after !== undefined) {
      const cursor = productCursorSchema.safeParse(request.after, { reportInput: true });
      if (!cursor.success)
        throw validationFailed(toErrorDetails(cursor.error).map((detail) => ({ ...detail, field: 'after' })));
    }
    const today = await this.today(caller.environment);
    return readPage(
      request,
      (paged) => this.stores.products.list(caller.environment, paged, today),
      (product) => product.code,
    );
  }
}
