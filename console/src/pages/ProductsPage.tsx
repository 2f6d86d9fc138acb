import { useMutation, useQuery } from '@apollo/client/react';
import { createColumnHelper } from '@tanstack/react-table';
import { type FormEvent, useRef, useState } from 'react';
import { Button, Link } from 'react-aria-components';
import { DataTable } from '../components/DataTable';
import { FormProblems, ProblemTextField } from '../components/FormProblems';
import { Pager } from '../components/Pager';
import { ProblemMessage } from '../components/ProblemMessage';
import { useCursorStack } from '../components/usePages';
import { enumLabel } from '../format';
import { graphql } from '../gql';
import type {
  BalanceBasis,
  Compounding,
  CreateProductInput,
  DayCount,
  InterestPosting,
  ProductsPageQuery,
} from '../gql/graphql';
import { paths, useRoute } from '../router';
import { newIdempotencyKey } from '../session';
import { useCan } from '../viewer';
import { amountOrNone, feeText, interestTermsText, limitsText, rateText, upcomingRates } from './ProductTerms';
import { EMPTY_RATE, type RateDraft, RateFields, rateInput, rateLabel } from './RateFields';

const ProductsPageQuery = graphql(`
  query ProductsPage($after: String) {
    products(first: 20, after: $after) {
      nodes {
        ...ProductTerms
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

const CreateProduct = graphql(`
  mutation CreateProduct($input: CreateProductInput!, $idempotencyKey: String) {
    createProduct(input: $input, idempotencyKey: $idempotencyKey) {
      id
      code
    }
  }
`);

type ProductRow = ProductsPageQuery['products']['nodes'][number];
const column = createColumnHelper<ProductRow>();
const columns = [
  column.accessor('code', {
    header: 'Code',
    cell: (info) => <Link href={paths.product(info.getValue())}>{info.getValue()}</Link>,
  }),
  column.accessor('name', { header: 'Name' }),
  column.accessor('accountType', { header: 'Account type', cell: (info) => enumLabel(info.getValue()) }),
  column.accessor('currency', { header: 'Currency' }),
  column.display({
    id: 'interest',
    header: 'Interest',
    cell: ({ row: { original: product } }) => {
      if (!product.interest) return 'None';
      const upcoming = upcomingRates(product);
      return (
        <>
          {rateText(product.interest.rate, product.currency)}
          <br />
          <span className="muted">{interestTermsText(product.interest)}</span>
          {upcoming.map((rate) => (
            <span key={rate.effectiveFrom} className="muted">
              <br />
              From {rate.effectiveFrom}: {rateText(rate, product.currency)}
            </span>
          ))}
        </>
      );
    },
  }),
  column.display({ id: 'fee', header: 'Monthly fee', cell: ({ row }) => feeText(row.original) }),
  column.accessor('minimumOpeningDeposit', {
    header: 'Minimum opening deposit',
    cell: (info) => amountOrNone(info.getValue(), info.row.original.currency),
  }),
  column.accessor('minimumBalance', {
    header: 'Minimum balance',
    cell: (info) => amountOrNone(info.getValue(), info.row.original.currency),
  }),
  column.display({ id: 'limits', header: 'Limits', cell: ({ row }) => limitsText(row.original) }),
];

/**
 * The environment's deposit products (docs/products.md), 20 a page by code, each with its terms and the rate in
 * force; a code opens the product's own page. With `products:write`, **New product** defines one.
 */
export function ProductsPage() {
  const canWrite = useCan('products:write');
  const pages = useCursorStack<string>();
  const { data, error } = useQuery(ProductsPageQuery, {
    variables: { after: pages.current },
    fetchPolicy: 'cache-and-network',
  });
  return (
    <>
      <h1>Products</h1>
      <p className="muted">The deposit products accounts open on: their interest, fees and limits.</p>
      <ProblemMessage error={error} />
      {data ? (
        <DataTable
          caption="Products, by code"
          columns={columns}
          data={[...data.products.nodes]}
          empty="No product is defined in this environment."
        />
      ) : null}
      <Pager
        label="Product pages"
        hasPrevious={pages.hasPrevious}
        hasNext={data?.products.pageInfo.hasNextPage ?? false}
        onPrevious={pages.previous}
        onNext={() => pages.next(data!.products.pageInfo.endCursor!)}
      />
      {canWrite ? <NewProductForm /> : null}
    </>
  );
}

interface ProductDraft {
  code: string;
  name: string;
  accountType: string;
  currency: string;
  paysInterest: boolean;
  rate: RateDraft;
  dayCount: DayCount;
  balanceBasis: BalanceBasis;
  compounding: Compounding;
  posting: InterestPosting;
  monthlyFee: string;
  waivedAt: string;
  minimumOpeningDeposit: string;
  minimumBalance: string;
  dailyWithdrawalTotal: string;
  withdrawalsPerMonth: string;
}

const EMPTY_DRAFT: ProductDraft = {
  code: '',
  name: '',
  accountType: 'SAVINGS',
  currency: 'USD',
  paysInterest: true,
  rate: EMPTY_RATE,
  dayCount: 'ACTUAL_365',
  balanceBasis: 'END_OF_DAY',
  compounding: 'DAILY',
  posting: 'MONTHLY',
  monthlyFee: '',
  waivedAt: '',
  minimumOpeningDeposit: '',
  minimumBalance: '',
  dailyWithdrawalTotal: '',
  withdrawalsPerMonth: '',
};

/** The labels of the form's fields, by the API's field paths (the error summary links to them by these). */
const PRODUCT_LABELS: Readonly<Record<string, string>> = {
  code: 'Code',
  name: 'Name',
  accountType: 'Account type',
  currency: 'Currency',
  'fees.monthlyMaintenance.amount': 'Monthly maintenance fee (optional)',
  'fees.monthlyMaintenance.waivedAtMinimumDailyBalance': 'Waived at a minimum daily balance of (optional)',
  minimumOpeningDeposit: 'Minimum opening deposit (optional)',
  minimumBalance: 'Minimum balance (optional)',
  'limits.dailyWithdrawalTotal': 'Most withdrawn a day (optional)',
  'limits.withdrawalsPerMonth': 'Most withdrawals a month (optional)',
};

const productLabel = (field: string) => PRODUCT_LABELS[field] ?? rateLabel(field, 'interest.');

const UPPER_SNAKE = /^[A-Z][A-Z0-9_]*$/;
const upperSnake = (value: string) =>
  value.trim() === '' || UPPER_SNAKE.test(value.trim()) ? null : 'Upper case letters, digits and _, e.g. HIGH_YIELD.';
const amount = (value: string) =>
  value.trim() === '' || /^\d+(\.\d+)?$/.test(value.trim()) ? null : 'Enter an amount, e.g. 25.00.';

const optional = (value: string) => (value.trim() === '' ? undefined : value.trim());

function productInput(draft: ProductDraft): CreateProductInput {
  const withdrawals = optional(draft.withdrawalsPerMonth);
  const dailyTotal = optional(draft.dailyWithdrawalTotal);
  const fee = optional(draft.monthlyFee);
  return {
    code: draft.code.trim(),
    name: draft.name.trim(),
    accountType: draft.accountType.trim(),
    currency: draft.currency.trim().toUpperCase(),
    ...(draft.paysInterest && {
      interest: {
        ...rateInput(draft.rate),
        dayCount: draft.dayCount,
        balanceBasis: draft.balanceBasis,
        compounding: draft.compounding,
        posting: draft.posting,
      },
    }),
    ...(fee && {
      fees: {
        monthlyMaintenance: {
          amount: fee,
          ...(optional(draft.waivedAt) && { waivedAtMinimumDailyBalance: optional(draft.waivedAt) }),
        },
      },
    }),
    ...(optional(draft.minimumOpeningDeposit) && { minimumOpeningDeposit: optional(draft.minimumOpeningDeposit) }),
    ...(optional(draft.minimumBalance) && { minimumBalance: optional(draft.minimumBalance) }),
    ...((withdrawals || dailyTotal) && {
      limits: {
        ...(dailyTotal && { dailyWithdrawalTotal: dailyTotal }),
        ...(withdrawals && { withdrawalsPerMonth: Number(withdrawals) }),
      },
    }),
  };
}

function Choice<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: readonly (readonly [T, string])[];
  onChange(value: T): void;
}) {
  return (
    <label className="field">
      {label}
      <select value={value} onChange={(event) => onChange(event.target.value as T)}>
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * A new product (`createProduct`): what the browser can check (codes in upper snake case, a three-letter currency,
 * rates as percentages below 100 with at most 4 decimals, amounts) is said at the field first; the API's refusal
 * (PRODUCT_CODE_TAKEN, an amount too precise for the currency) at the field it names. One idempotency key per draft.
 */
function NewProductForm() {
  const { navigate } = useRoute();
  const [draft, setDraft] = useState<ProductDraft>(EMPTY_DRAFT);
  const [create, result] = useMutation(CreateProduct);
  const key = useRef<string | null>(null);
  const inFlight = useRef(false);
  const set = (change: Partial<ProductDraft>) => {
    key.current = null;
    setDraft({ ...draft, ...change });
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (inFlight.current) return;
    inFlight.current = true;
    key.current ??= newIdempotencyKey();
    try {
      const answer = await create({ variables: { input: productInput(draft), idempotencyKey: key.current } });
      if (answer.data) navigate(paths.product(answer.data.createProduct.code));
    } catch {
      // Shown at its fields and above, with its code; what was typed stays.
    } finally {
      inFlight.current = false;
    }
  };
  const text = (
    name: keyof ProductDraft & keyof typeof FIELD_PATHS,
    props: { isRequired?: boolean; maxLength?: number; validate?: (value: string) => string | null } = {},
  ) => (
    <ProblemTextField
      field={FIELD_PATHS[name]}
      label={PRODUCT_LABELS[FIELD_PATHS[name]]}
      value={draft[name]}
      onChange={(value) => set({ [name]: value })}
      {...props}
    />
  );
  return (
    <section aria-labelledby="new-product-heading">
      <h2 id="new-product-heading">New product</h2>
      <p>A product never changes but for its rate: a new version of a product is a new code.</p>
      <form onSubmit={(event) => void submit(event)} className="stacked-form wide-form" aria-label="New product">
        <FormProblems error={result.error} labels={productLabel}>
          {text('code', { isRequired: true, maxLength: 32, validate: upperSnake })}
          {text('name', { isRequired: true, maxLength: 100 })}
          {text('accountType', { isRequired: true, maxLength: 32, validate: upperSnake })}
          {text('currency', {
            isRequired: true,
            maxLength: 3,
            validate: (value) => (/^[A-Za-z]{3}$/.test(value.trim()) ? null : 'A currency is three letters.'),
          })}
          <label className="checkbox">
            <input
              type="checkbox"
              checked={draft.paysInterest}
              onChange={(event) => set({ paysInterest: event.target.checked })}
            />{' '}
            Pays interest
          </label>
          {draft.paysInterest ? (
            <>
              <RateFields
                draft={draft.rate}
                onChange={(rate) => set({ rate })}
                prefix="interest."
                legend="Its rate, in force from today's business date"
              />
              <Choice
                label="Day count"
                value={draft.dayCount}
                onChange={(dayCount) => set({ dayCount })}
                options={[
                  ['ACTUAL_365', 'Actual/365'],
                  ['ACTUAL_360', 'Actual/360'],
                  ['ACTUAL_ACTUAL', 'Actual/actual'],
                ]}
              />
              <Choice
                label="Balance interest is figured on"
                value={draft.balanceBasis}
                onChange={(balanceBasis) => set({ balanceBasis })}
                options={[
                  ['END_OF_DAY', 'Each day’s closing balance'],
                  ['AVERAGE_DAILY', 'The period’s average daily balance'],
                ]}
              />
              <Choice
                label="Compounding"
                value={draft.compounding}
                onChange={(compounding) => set({ compounding })}
                options={[
                  ['DAILY', 'Daily'],
                  ['MONTHLY', 'Monthly'],
                ]}
              />
              <Choice
                label="Interest posted"
                value={draft.posting}
                onChange={(posting) => set({ posting })}
                options={[
                  ['MONTHLY', 'Monthly'],
                  ['QUARTERLY', 'Quarterly'],
                ]}
              />
            </>
          ) : null}
          {text('monthlyFee', { validate: amount })}
          {text('waivedAt', {
            // A threshold waives a fee: without one it would be dropped, not sent.
            validate: (value) =>
              value.trim() !== '' && draft.monthlyFee.trim() === ''
                ? 'Enter the monthly fee it waives.'
                : amount(value),
          })}
          {text('minimumOpeningDeposit', { validate: amount })}
          {text('minimumBalance', { validate: amount })}
          {text('dailyWithdrawalTotal', { validate: amount })}
          {text('withdrawalsPerMonth', {
            validate: (value) => (value.trim() === '' || /^\d+$/.test(value.trim()) ? null : 'A whole number.'),
          })}
          <Button type="submit" isDisabled={result.loading}>
            Create product
          </Button>
          <ProblemMessage error={result.error} />
        </FormProblems>
      </form>
    </section>
  );
}

/** Each text field of the draft by the API's field path. */
const FIELD_PATHS = {
  code: 'code',
  name: 'name',
  accountType: 'accountType',
  currency: 'currency',
  monthlyFee: 'fees.monthlyMaintenance.amount',
  waivedAt: 'fees.monthlyMaintenance.waivedAtMinimumDailyBalance',
  minimumOpeningDeposit: 'minimumOpeningDeposit',
  minimumBalance: 'minimumBalance',
  dailyWithdrawalTotal: 'limits.dailyWithdrawalTotal',
  withdrawalsPerMonth: 'limits.withdrawalsPerMonth',
} as const;
