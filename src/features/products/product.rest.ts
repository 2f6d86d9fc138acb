import type { Caller } from '../../domain/caller.js';
import { productCodeTaken, productNotFound, productRateNotAllowed, validationFailed } from '../../domain/errors.js';
import type { PageQuery } from '../../domain/pagination.js';
import { failure, limitValidationFailure, validationFailureOf } from '../../rest/operations/failures.js';
import { parseQuery, type QueryString } from '../../rest/operations/query.js';
import type { RestRoute } from '../../rest/operations/route.js';
import { productDataSchema, productPageDataSchema } from './product.presenter.js';
import { changeProductRateSchema, createProductSchema, productPageQuerySchema } from './product.schemas.js';

/** `GET /{environment}/product`: the query string as ProductService.list's page. */
export function listProductsQuery(caller: Caller, query: QueryString): PageQuery {
  const { limit, after } = parseQuery(caller, 'products:read', productPageQuerySchema, query);
  return { first: limit, after };
}

const productNotFoundFailure = failure(
  'PRODUCT_NOT_FOUND',
  'No product with this code in this environment (a code that is not upper snake case cannot name one).',
  productNotFound(),
);

const CREATE_EXAMPLE = {
  code: 'HIGH_YIELD_SAVINGS',
  name: 'High-yield savings',
  accountType: 'SAVINGS',
  currency: 'USD',
  interest: {
    tiers: [
      { minimumBalance: '0', annualRate: '0.0100' },
      { minimumBalance: '10000', annualRate: '0.0425' },
    ],
    dayCount: 'ACTUAL_365',
    balanceBasis: 'END_OF_DAY',
    compounding: 'DAILY',
    posting: 'MONTHLY',
  },
  fees: { monthlyMaintenance: { amount: '5', waivedAtMinimumDailyBalance: '500' } },
  minimumOpeningDeposit: '100',
  limits: { withdrawalsPerMonth: 6 },
};

/** Deposit products (docs/adr/0112), tagged Products; the account envelope (`logRefId`): products belong with accounts. */
export const PRODUCTS_ROUTES = [
  {
    operationId: 'createProduct',
    method: 'POST',
    path: '/:environment/product',
    family: 'account',
    tag: 'Products',
    summary: 'Define a deposit product',
    description:
      'Not in the contract. A product is the terms accounts are opened on: its `code` (upper snake case, unique in the environment for ever), ' +
      '`accountType` and `currency` (its accounts must have them), optional `interest` (a flat `annualRate` or ascending `tiers` from "0"; ' +
      'rates are decimal strings, 0 ≤ rate < 1, at most 6 decimals; `dayCount`, `balanceBasis`, `compounding`, `posting`), `fees`, ' +
      '`minimumOpeningDeposit`, `minimumBalance` and `limits` (amounts in the currency, as the ledger checks them). With interest, the ' +
      "rate is in force from the environment's business date. Nothing about a product changes afterwards but its rate " +
      '(`POST …/product/{code}/rate`): a new version is a new code. Applied to its accounts: interest accrual and posting, the monthly maintenance fee, ' +
      'the minimums and the limits (docs/products.md). Audited (`product.create`); event `product.created`.',
    scope: 'products:write',
    requestBody: { schema: createProductSchema, component: 'CreateProductRequest', example: CREATE_EXAMPLE },
    success: { status: 201, description: 'Defined: the product.', data: productDataSchema, component: 'Product' },
    failures: [
      failure(
        'VALIDATION_FAILED_interest',
        'A field breaks its rule: a rate not a decimal string from 0 to below 1 with at most 6 decimals, both or neither of `annualRate` and `tiers`, tiers not ascending from "0", an amount with more decimals than the currency has; nothing is written.',
        validationFailureOf(createProductSchema, {
          ...CREATE_EXAMPLE,
          interest: { ...CREATE_EXAMPLE.interest, tiers: undefined },
        }),
      ),
      failure(
        'PRODUCT_CODE_TAKEN',
        'The environment has a product with this code (a product never changes: define a new code); nothing is written.',
        productCodeTaken(),
      ),
    ],
  },
  {
    operationId: 'listProducts',
    method: 'GET',
    path: '/:environment/product',
    family: 'account',
    tag: 'Products',
    summary: "List the environment's products",
    description:
      'Not in the contract. By code, a page at a time (`limit` 1–100, default 20; `after`: the `nextAfter` of the previous page), each with the rate in force today.',
    scope: 'products:read',
    query: { schema: productPageQuerySchema, example: { limit: '20' } },
    success: {
      status: 200,
      description: 'A page of products.',
      data: productPageDataSchema,
      component: 'ProductPage',
    },
    failures: [
      limitValidationFailure(productPageQuerySchema),
      failure(
        'VALIDATION_FAILED_after',
        '`after` is not a product code.',
        validationFailed([{ field: 'after', code: 'INVALID_VALUE', message: 'Must be a code from a previous page.' }]),
      ),
    ],
  },
  {
    operationId: 'getProduct',
    method: 'GET',
    path: '/:environment/product/:code',
    family: 'account',
    tag: 'Products',
    summary: 'Get a product',
    description:
      "Not in the contract. The product with the rate in force on the environment's business date and its rates, scheduled ones included (newest date first, at most 24).",
    scope: 'products:read',
    success: { status: 200, description: 'The product.', data: productDataSchema, component: 'Product' },
    failures: [productNotFoundFailure],
  },
  {
    operationId: 'changeProductRate',
    method: 'POST',
    path: '/:environment/product/:code/rate',
    family: 'account',
    tag: 'Products',
    summary: "Schedule a product's new rate",
    description:
      "Not in the contract. `{annualRate | tiers, effectiveFrom}`: the rate from `effectiveFrom` (YYYY-MM-DD), a business date after the environment's current one: " +
      'rates change only forward, and the rate in force and past ones never change. One rate per date. Audited (`product.rate.change`); event `product.rate_changed`.',
    scope: 'products:write',
    withoutIdempotencyKey:
      'a repeat names a date that has its rate already, refused with PRODUCT_RATE_NOT_ALLOWED and nothing written; read the product after a lost answer',
    requestBody: {
      schema: changeProductRateSchema,
      component: 'ChangeProductRateRequest',
      example: { annualRate: '0.0450', effectiveFrom: '2027-01-01' },
    },
    success: {
      status: 200,
      description: 'The product, with the rate scheduled.',
      data: productDataSchema,
      component: 'Product',
    },
    failures: [
      failure(
        'VALIDATION_FAILED_effectiveFrom',
        '`effectiveFrom` is not a date, the rate breaks its rules, or both or neither of `annualRate` and `tiers` are given; nothing is written.',
        validationFailureOf(changeProductRateSchema, { annualRate: '0.045', effectiveFrom: '2027-13-01' }),
      ),
      productNotFoundFailure,
      failure(
        'PRODUCT_RATE_NOT_ALLOWED',
        "`effectiveFrom` is not after the environment's business date, a rate from that date exists, or the product pays no interest (the detail says which); nothing is written.",
        productRateNotAllowed({
          field: 'effectiveFrom',
          code: 'NOT_AFTER_BUSINESS_DATE',
          message: "Must be after the environment's business date (2026-12-02): rates change only forward.",
        }),
      ),
    ],
  },
] as const satisfies readonly RestRoute[];
