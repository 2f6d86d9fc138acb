import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { Button, Link } from 'react-aria-components';
import { downloadFile } from '../api/download';
import { ProblemMessage } from '../components/ProblemMessage';
import { money } from '../format';
import { graphql } from '../gql';
import { paths } from '../router';
import { useViewer } from '../viewer';

const TaxFormYears = graphql(`
  query TaxFormYears {
    clock {
      businessDate
    }
  }
`);

const CustomerTaxForm = graphql(`
  query CustomerTaxForm($customerId: ID!, $year: Int!) {
    customer(customerId: $customerId) {
      id
      taxForm1099Int(year: $year) {
        taxYear
        final
        reportable
        reportingThreshold
        currency
        recipient {
          tinType
          tinLastFour
        }
        box1InterestIncome
        accounts {
          accountId
          accountNumberLast4
          interestPaid
        }
        otherCurrencyAccounts {
          accountId
          currency
          interestPaid
        }
      }
    }
  }
`);

/** The service's first tax year (src/features/tax-forms/tax-form.ts): no picker offers an earlier one. */
const FIRST_TAX_YEAR = 2000;
/** How many years the picker offers: the current one and the six before it. */
const YEARS_OFFERED = 7;

/** The years the environment's clock has reached, newest first: at most the last seven. */
export function taxYearsUpTo(currentYear: number): number[] {
  const years: number[] = [];
  for (let year = currentYear; year >= FIRST_TAX_YEAR && years.length < YEARS_OFFERED; year -= 1) years.push(year);
  return years;
}

/**
 * The customer's 1099-INT (docs/tax-forms.md) of a year the environment's clock has reached: Box 1, whether the year
 * is final and reportable, the accounts' lines, and the PDF fetched with the token in a header (never a URL). The
 * recipient's TIN shows as its last four only: the API answers nothing more. Shown with `tax-forms:read`; its year
 * picker reads the environment's clock (`accounts:read`), so the page offers the section only with both.
 */
export function TaxFormsSection({ customerId }: { customerId: string }) {
  const clock = useQuery(TaxFormYears);
  const businessDate = clock.data?.clock.businessDate;
  return (
    <section aria-labelledby="tax-forms-heading">
      <h2 id="tax-forms-heading">Tax forms</h2>
      {businessDate ? (
        <TaxFormOfYear customerId={customerId} currentYear={Number(businessDate.slice(0, 4))} />
      ) : (
        <ProblemMessage error={clock.error} />
      )}
    </section>
  );
}

function TaxFormOfYear({ customerId, currentYear }: { customerId: string; currentYear: number }) {
  const { environment } = useViewer();
  const years = taxYearsUpTo(currentYear);
  // The last finished year by default; the current one while none has finished (the clock is in the first year).
  const [year, setYear] = useState(years[1] ?? currentYear);
  const { data, error, loading } = useQuery(CustomerTaxForm, { variables: { customerId, year } });
  const form = data?.customer?.taxForm1099Int;
  const [busy, setBusy] = useState(false);
  const [downloadProblem, setDownloadProblem] = useState<unknown>(null);
  const downloadPdf = async () => {
    setDownloadProblem(null);
    setBusy(true);
    try {
      const path = `/${encodeURIComponent(environment)}/customer/${encodeURIComponent(customerId)}/tax-form/1099-INT/${year}`;
      await downloadFile(path, 'application/pdf', `1099-INT-${year}-${customerId}.pdf`);
    } catch (reason) {
      setDownloadProblem(reason);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <form className="inline-form" data-reads onSubmit={(event) => event.preventDefault()}>
        <div className="field">
          <label htmlFor="tax-year">Tax year</label>
          <select
            id="tax-year"
            value={year}
            onChange={(event) => {
              setDownloadProblem(null);
              setYear(Number(event.target.value));
            }}
          >
            {years.map((option) => (
              <option key={option} value={option}>
                {option}
                {option === currentYear ? ' (not finished)' : ''}
              </option>
            ))}
          </select>
        </div>
        <Button isDisabled={busy || !form} onPress={() => void downloadPdf()}>
          Download PDF
        </Button>
      </form>
      <ProblemMessage error={error ?? downloadProblem} />
      {form && !error ? (
        <>
          <h3>1099-INT {form.taxYear}</h3>
          <dl className="facts">
            <dt>Box 1 (interest paid)</dt>
            <dd>{money(form.box1InterestIncome, form.currency)}</dd>
            <dt>Final</dt>
            <dd>
              {form.final
                ? 'Final: the year has ended and its last end of day has run.'
                : 'Not final: the year has not finished, the amounts may still change.'}
            </dd>
            <dt>Reportable</dt>
            <dd>
              {form.reportable ? 'Reportable' : 'Not reportable'}: the threshold is Box 1 of at least{' '}
              {money(form.reportingThreshold, form.currency)}.
            </dd>
            <dt>Recipient TIN</dt>
            <dd>
              {form.recipient.tinType} ending {form.recipient.tinLastFour}
            </dd>
          </dl>
          {form.accounts.length === 0 ? (
            <p className="empty">No interest was posted in {form.taxYear}.</p>
          ) : (
            <table>
              <caption>Interest paid in {form.taxYear}, by account</caption>
              <thead>
                <tr>
                  <th scope="col">Account</th>
                  <th scope="col">Number ending</th>
                  <th scope="col">Interest paid</th>
                </tr>
              </thead>
              <tbody>
                {form.accounts.map((line) => (
                  <tr key={line.accountId}>
                    <td>
                      <Link href={paths.account(line.accountId)}>{line.accountId}</Link>
                    </td>
                    <td>{line.accountNumberLast4 ?? 'none'}</td>
                    <td>{money(line.interestPaid, form.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {form.otherCurrencyAccounts.length > 0 ? (
            <p className="muted">
              Left out of Box 1 (another currency):{' '}
              {form.otherCurrencyAccounts
                .map((line) => `${line.accountId} ${money(line.interestPaid, line.currency)}`)
                .join('; ')}
              .
            </p>
          ) : null}
        </>
      ) : loading ? (
        <p className="muted">Reading the form…</p>
      ) : null}
    </>
  );
}
