import { enumLabel, money, percent } from '../format';
import { graphql } from '../gql';
import type { DayCount, ProductTermsFragment } from '../gql/graphql';

/** A rate row of a product, as its terms answer it. */
export interface ProductRateView {
  effectiveFrom: string;
  annualRate?: string | null;
  tiers?: readonly { minimumBalance: string; annualRate: string }[] | null;
}

/** A product's terms as the Products page and a product's own page show them. */
export const ProductTerms = graphql(`
  fragment ProductTerms on Product {
    id
    code
    name
    accountType
    currency
    interest {
      dayCount
      balanceBasis
      compounding
      posting
      rate {
        effectiveFrom
        annualRate
        tiers {
          minimumBalance
          annualRate
        }
      }
      rateHistory {
        effectiveFrom
        annualRate
        tiers {
          minimumBalance
          annualRate
        }
      }
    }
    fees {
      monthlyMaintenance {
        amount
        waivedAtMinimumDailyBalance
      }
    }
    minimumOpeningDeposit
    minimumBalance
    limits {
      dailyWithdrawalTotal
      withdrawalsPerMonth
    }
  }
`);

/** The parts of a product the console shows, as both `products` and `product` answer them. */
export type ProductView = ProductTermsFragment;

const DAY_COUNTS: Readonly<Record<DayCount, string>> = {
  ACTUAL_365: 'Actual/365',
  ACTUAL_360: 'Actual/360',
  ACTUAL_ACTUAL: 'Actual/actual',
};

export const dayCountLabel = (dayCount: DayCount): string => DAY_COUNTS[dayCount] ?? dayCount;

/** A rate in words: "4.25%", or each tier "0.5% from $0.00; 3.75% from $25,000.00". */
export function rateText(rate: ProductRateView | null | undefined, currency: string): string {
  if (!rate) return 'No rate in force';
  if (typeof rate.annualRate === 'string') return percent(rate.annualRate);
  return (rate.tiers ?? [])
    .map((tier) => `${percent(tier.annualRate)} from ${money(tier.minimumBalance, currency)}`)
    .join('; ');
}

/** How the product's interest works, in one line: "Actual/365, end-of-day balance, compounds daily, paid monthly". */
export function interestTermsText(interest: NonNullable<ProductView['interest']>): string {
  return [
    dayCountLabel(interest.dayCount),
    interest.balanceBasis === 'AVERAGE_DAILY' ? 'average daily balance' : 'end-of-day balance',
    `compounds ${interest.compounding.toLowerCase()}`,
    `paid ${interest.posting.toLowerCase()}`,
  ].join(', ');
}

/** The monthly maintenance fee and when it is waived, or "None". */
export function feeText(product: ProductView): string {
  const fee = product.fees?.monthlyMaintenance;
  if (!fee) return 'None';
  const waiver = fee.waivedAtMinimumDailyBalance
    ? `, waived at a minimum daily balance of ${money(fee.waivedAtMinimumDailyBalance, product.currency)}`
    : ', never waived';
  return `${money(fee.amount, product.currency)} a month${waiver}`;
}

export const amountOrNone = (amount: string | null | undefined, currency: string): string =>
  typeof amount === 'string' ? money(amount, currency) : 'None';

export function limitsText(product: ProductView): string {
  const limits = product.limits;
  const parts = [
    typeof limits?.dailyWithdrawalTotal === 'string'
      ? `at most ${money(limits.dailyWithdrawalTotal, product.currency)} withdrawn a day`
      : null,
    typeof limits?.withdrawalsPerMonth === 'number'
      ? `at most ${limits.withdrawalsPerMonth} withdrawals a month`
      : null,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join('; ') : 'None';
}

/** The rates dated after the one in force: scheduled by `changeProductRate`, oldest first. */
export function upcomingRates(product: ProductView): readonly ProductRateView[] {
  const interest = product.interest;
  if (!interest) return [];
  const from = interest.rate?.effectiveFrom ?? '';
  return interest.rateHistory.filter((rate) => rate.effectiveFrom > from).reverse();
}

/** Every term of a product, as a definition list (its own page shows it; the list shows a summary). */
export function ProductTermsList({ product }: { product: ProductView }) {
  const upcoming = upcomingRates(product);
  return (
    <dl className="facts">
      <dt>Code</dt>
      <dd>
        <code>{product.code}</code>
      </dd>
      <dt>Account type</dt>
      <dd>{enumLabel(product.accountType)}</dd>
      <dt>Currency</dt>
      <dd>{product.currency}</dd>
      <dt>Interest</dt>
      <dd>{product.interest ? interestTermsText(product.interest) : 'Pays no interest'}</dd>
      {product.interest ? (
        <>
          <dt>Rate in force</dt>
          <dd>
            {rateText(product.interest.rate, product.currency)}
            {product.interest.rate ? ` (since ${product.interest.rate.effectiveFrom})` : null}
          </dd>
          <dt>Upcoming rates</dt>
          <dd>
            {upcoming.length === 0 ? (
              'None scheduled'
            ) : (
              <ul aria-label="Upcoming rates">
                {upcoming.map((rate) => (
                  <li key={rate.effectiveFrom}>
                    From {rate.effectiveFrom}: {rateText(rate, product.currency)}
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </>
      ) : null}
      <dt>Monthly maintenance fee</dt>
      <dd>{feeText(product)}</dd>
      <dt>Minimum opening deposit</dt>
      <dd>{amountOrNone(product.minimumOpeningDeposit, product.currency)}</dd>
      <dt>Minimum balance</dt>
      <dd>{amountOrNone(product.minimumBalance, product.currency)}</dd>
      <dt>Limits</dt>
      <dd>{limitsText(product)}</dd>
    </dl>
  );
}
