import { useMutation, useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { Link } from 'react-aria-components';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { FormProblems, ProblemTextField } from '../components/FormProblems';
import { ProblemMessage } from '../components/ProblemMessage';
import { graphql } from '../gql';
import { paths } from '../router';
import { useCan } from '../viewer';
import { type ProductView, ProductTermsList, rateText } from './ProductTerms';
import { EMPTY_RATE, percentProblem, type RateDraft, RateFields, rateInput, rateLabel } from './RateFields';

const ProductPageQuery = graphql(`
  query ProductPage($code: String!) {
    clock {
      businessDate
    }
    product(code: $code) {
      ...ProductTerms
      createdAt
    }
  }
`);

const ChangeProductRate = graphql(`
  mutation ChangeProductRate($code: String!, $input: ChangeProductRateInput!) {
    changeProductRate(code: $code, input: $input) {
      id
      code
    }
  }
`);

/** A product's own page: every term, the rate in force and the rates scheduled; with `products:write`, Change rate. */
export function ProductPage({ code }: { code: string }) {
  const canWrite = useCan('products:write');
  const { data, error, loading } = useQuery(ProductPageQuery, {
    variables: { code },
    fetchPolicy: 'cache-and-network',
  });
  const product = data?.product;
  if (!product) {
    return (
      <>
        <h1>{loading ? 'Product' : 'Product not found'}</h1>
        <ProblemMessage error={error} />
        <p>
          <Link href={paths.products()}>All products</Link>
        </p>
      </>
    );
  }
  return (
    <>
      <h1>{product.name}</h1>
      <p>
        <Link href={paths.products()}>All products</Link>
      </p>
      <ProblemMessage error={error} />
      <section aria-labelledby="terms-heading">
        <h2 id="terms-heading">Terms</h2>
        <ProductTermsList product={product} />
      </section>
      {canWrite && product.interest ? <ChangeRate product={product} businessDate={data.clock.businessDate} /> : null}
    </>
  );
}

const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** The fields of a rate change by the API's field path, for the error summary. */
const changeLabel = (field: string) => (field === 'effectiveFrom' ? 'From business date' : rateLabel(field, ''));

function rateDraftProblem(draft: RateDraft): string | null {
  if (draft.kind === 'FLAT')
    return draft.annualRate.trim() === '' ? 'Enter the new rate.' : percentProblem(draft.annualRate);
  for (const tier of draft.tiers) {
    if (tier.minimumBalance.trim() === '' || tier.annualRate.trim() === '') return 'Fill in every tier.';
    const problem = percentProblem(tier.annualRate);
    if (problem) return problem;
  }
  return null;
}

/**
 * Schedules a new rate from a business date after today's (`changeProductRate`): only forward, so what accounts
 * earned is never rewritten. A confirmation names the product, the new rate and the date; the API's refusal
 * (PRODUCT_RATE_NOT_ALLOWED: a date not ahead, a rate already on that date) stays in the dialog and at the field.
 */
function ChangeRate({ product, businessDate }: { product: ProductView; businessDate: string }) {
  const [draft, setDraft] = useState<RateDraft>(EMPTY_RATE);
  const [effectiveFrom, setEffectiveFrom] = useState(() => nextDay(businessDate));
  const [change, result] = useMutation(ChangeProductRate, { refetchQueries: ['ProductPage'] });
  const [done, setDone] = useState<string | null>(null);
  const dateProblem =
    effectiveFrom > businessDate ? null : `Choose a date after today's business date, ${businessDate}.`;
  const ready = rateDraftProblem(draft) === null && dateProblem === null;
  const newRate = rateText({ effectiveFrom, ...rateInput(draft) }, product.currency);
  return (
    <section aria-labelledby="change-rate-heading">
      <h2 id="change-rate-heading">Change rate</h2>
      <p>
        The new rate applies from a business date after today&apos;s ({businessDate}), to every account on the product;
        interest already earned is never refigured.
      </p>
      {/* Not a form: the dialog sends it, and a form never submitted would count as unsaved after the change. */}
      <div className="stacked-form" role="group" aria-labelledby="change-rate-heading">
        <FormProblems error={result.error} labels={changeLabel}>
          <RateFields draft={draft} onChange={setDraft} prefix="" legend="The new rate" />
          <ProblemTextField
            field="effectiveFrom"
            label="From business date"
            type="date"
            value={effectiveFrom}
            onChange={setEffectiveFrom}
            isRequired
            validate={() => dateProblem}
            validationBehavior="aria"
          />
          <ConfirmDialog
            trigger="Change rate…"
            tone="primary"
            title={`Change the rate of ${product.name}?`}
            confirmLabel="Change rate"
            isDisabled={!ready}
            busy={result.loading}
            error={result.error}
            onOpen={() => result.reset()}
            onConfirm={async () => {
              const answer = await change({
                variables: { code: product.code, input: { ...rateInput(draft), effectiveFrom } },
              }).catch(() => null);
              if (!answer?.data) return false;
              setDone(`${product.name} pays ${newRate} from ${effectiveFrom}.`);
              setDraft(EMPTY_RATE);
              return true;
            }}
          >
            <p>
              {product.name} (<code>{product.code}</code>) will pay {newRate} from {effectiveFrom}, on every account
              opened on it. A scheduled rate cannot be withdrawn.
            </p>
          </ConfirmDialog>
          {done ? (
            <p role="status" className="done">
              {done}
            </p>
          ) : null}
        </FormProblems>
      </div>
    </section>
  );
}
