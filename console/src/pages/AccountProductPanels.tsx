import { useQuery } from '@apollo/client/react';
import { createColumnHelper } from '@tanstack/react-table';
import { useState } from 'react';
import { Link } from 'react-aria-components';
import { DataTable } from '../components/DataTable';
import { Pager } from '../components/Pager';
import { ProblemMessage } from '../components/ProblemMessage';
import { useCursorStack } from '../components/usePages';
import { enumLabel, exactMoney, money, percent } from '../format';
import { graphql } from '../gql';
import type { AccountProductFiguresQuery, FeeAssessmentOutcome } from '../gql/graphql';
import { paths } from '../router';
import { useCan } from '../viewer';

const AccountProductFigures = graphql(`
  query AccountProductFigures($accountId: ID!, $withProduct: Boolean!, $feesAfter: String) {
    account(accountId: $accountId) {
      id
      productCode
      product @include(if: $withProduct) {
        id
        code
        name
        fees {
          monthlyMaintenance {
            amount
          }
        }
      }
      interest {
        productCode
        annualRate
        annualPercentageYield
        accruedUnpaid
        lastAccrualDate
        lastPostingDate
        paidYearToDate
      }
      fees(first: 12, after: $feesAfter) {
        nodes {
          month
          minimumDailyBalance
          fee
          waivedAtMinimumDailyBalance
          outcome
          charged
          uncollected
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`);

/** The query's name, for the account page's live re-reading. */
export const ACCOUNT_PRODUCT_QUERY = 'AccountProductFigures';

/**
 * The figures of an account on a product: its product (named, a link with `products:read`), its interest and its
 * monthly fee assessments (a page at a time, newest month first). Skipped for an account on no product.
 */
export function useAccountProductFigures(accountId: string, productCode: string | null | undefined) {
  const withProduct = useCan('products:read');
  const feePages = useCursorStack<string>();
  // Another account's page starts at its newest assessments (the page component stays mounted between accounts).
  const [pagedAccount, setPagedAccount] = useState(accountId);
  if (pagedAccount !== accountId) {
    setPagedAccount(accountId);
    feePages.reset();
  }
  const query = useQuery(AccountProductFigures, {
    variables: { accountId, withProduct, feesAfter: feePages.current },
    skip: !productCode,
  });
  // The page before keeps showing while the next page of assessments loads.
  const figures = (query.data ?? query.previousData)?.account;
  // A product with a fee (read with `products:read`), or assessments already made (readable without it).
  const hasFees = Boolean(figures?.product?.fees) || (figures?.fees?.nodes.length ?? 0) > 0 || feePages.hasPrevious;
  return { productCode, figures, error: query.error, feePages, hasInterest: Boolean(figures?.interest), hasFees };
}

type Figures = ReturnType<typeof useAccountProductFigures>;
type Account = NonNullable<AccountProductFiguresQuery['account']>;
type Assessment = NonNullable<Account['fees']>['nodes'][number];

/** The account's product: its name as a link to the product's page (its code only, without `products:read`). */
export function AccountProductSection({ figures: { productCode, figures, error } }: { figures: Figures }) {
  return (
    <section aria-labelledby="product-heading">
      <h2 id="product-heading">Product</h2>
      <ProblemMessage error={error} />
      <p>
        Opened on{' '}
        {figures?.product ? (
          <>
            <Link href={paths.product(figures.product.code)}>{figures.product.name}</Link> (
            <code>{figures.product.code}</code>)
          </>
        ) : (
          <code>{productCode}</code>
        )}
        .
      </p>
    </section>
  );
}

const orNever = (date: string | null | undefined) => date ?? 'Not yet';

/** `Account.interest`: the rate in force for the balance, its APY, what has accrued and what was paid this year. */
export function InterestPanel({ figures, currency }: { figures: Figures; currency: string }) {
  const interest = figures.figures?.interest;
  if (!interest) return null;
  return (
    <section aria-labelledby="interest-heading">
      <h2 id="interest-heading">Interest</h2>
      <dl className="facts">
        <dt>Rate</dt>
        <dd>{percent(interest.annualRate)}</dd>
        <dt>Annual percentage yield</dt>
        <dd>{percent(interest.annualPercentageYield)}</dd>
        <dt>Accrued, not paid yet</dt>
        <dd>{exactMoney(interest.accruedUnpaid, currency)}</dd>
        <dt>Last accrual</dt>
        <dd>{orNever(interest.lastAccrualDate)}</dd>
        <dt>Last posting</dt>
        <dd>{orNever(interest.lastPostingDate)}</dd>
        <dt>Paid this year</dt>
        <dd>{money(interest.paidYearToDate, currency)}</dd>
      </dl>
    </section>
  );
}

const OUTCOME_BADGES: Readonly<Record<FeeAssessmentOutcome, string>> = {
  WAIVED: 'met',
  CHARGED: 'pending',
  UNCOLLECTED: 'due',
};

function feeColumns(currency: string) {
  const column = createColumnHelper<Assessment>();
  return [
    column.accessor('month', { header: 'Month' }),
    column.accessor('minimumDailyBalance', {
      header: 'Minimum daily balance',
      cell: (info) => money(info.getValue(), currency),
    }),
    column.accessor('outcome', {
      header: 'Outcome',
      cell: (info) => <span className={`badge ${OUTCOME_BADGES[info.getValue()]}`}>{enumLabel(info.getValue())}</span>,
    }),
    column.accessor('fee', { header: 'Fee', cell: (info) => money(info.getValue(), currency) }),
    column.accessor('charged', { header: 'Charged', cell: (info) => money(info.getValue(), currency) }),
    column.accessor('uncollected', { header: 'Uncollected', cell: (info) => money(info.getValue(), currency) }),
  ];
}

/** `Account.fees`: each month's maintenance fee assessment, newest first, 12 a page. */
export function FeesPanel({ figures, currency }: { figures: Figures; currency: string }) {
  if (!figures.hasFees) return null;
  const page = figures.figures?.fees;
  const pages = figures.feePages;
  return (
    <section aria-labelledby="fees-heading">
      <h2 id="fees-heading">Fees</h2>
      <DataTable
        caption="Monthly maintenance fee, newest month first"
        columns={feeColumns(currency)}
        data={[...(page?.nodes ?? [])]}
        empty="No month has been assessed yet: the fee is assessed on each month's last business date."
      />
      <Pager
        label="Fee assessment pages"
        hasPrevious={pages.hasPrevious}
        hasNext={page?.pageInfo.hasNextPage ?? false}
        onPrevious={pages.previous}
        onNext={() => pages.next(page!.pageInfo.endCursor!)}
      />
    </section>
  );
}
