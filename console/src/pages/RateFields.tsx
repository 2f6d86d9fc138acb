import { Button } from 'react-aria-components';
import { ProblemTextField } from '../components/FormProblems';
import { fractionOfPercent } from '../format';
import type { RateTierInput } from '../gql/graphql';
import { tierOrderProblem } from '../tier-order';

/** A rate as typed: a flat percentage, or balance tiers each with its percentage. */
export interface RateDraft {
  kind: 'FLAT' | 'TIERED';
  annualRate: string;
  tiers: { minimumBalance: string; annualRate: string }[];
}

export const EMPTY_RATE: RateDraft = { kind: 'FLAT', annualRate: '', tiers: [{ minimumBalance: '0', annualRate: '' }] };

/**
 * A percentage the API takes (a fraction from 0 to below 1, at most 6 decimals: 4 of a percentage), or why not. The
 * person types "4.25"; the API is sent "0.0425", converted in text so nothing is rounded.
 */
export function percentProblem(text: string): string | null {
  const fraction = fractionOfPercent(text);
  if (fraction === null) return 'Enter a percentage, e.g. 4.25.';
  const [whole = '0', decimals = ''] = fraction.split('.');
  if (whole !== '0') return 'Enter less than 100%.';
  if (decimals.length > 6) return 'At most 4 decimals of a percent.';
  return null;
}

/** The draft as the API's `annualRate` or `tiers` (the caller checked it first). */
export function rateInput(draft: RateDraft): { annualRate: string } | { tiers: RateTierInput[] } {
  if (draft.kind === 'FLAT') return { annualRate: fractionOfPercent(draft.annualRate) ?? draft.annualRate };
  return {
    tiers: draft.tiers.map((tier) => ({
      minimumBalance: tier.minimumBalance.trim(),
      annualRate: fractionOfPercent(tier.annualRate) ?? tier.annualRate,
    })),
  };
}

const MAX_TIERS = 10;

/**
 * The rate's fields, named by the API's field paths under `prefix` (`interest.` in a new product, none in a rate
 * change), so a refusal shows at its field.
 */
export function RateFields({
  draft,
  onChange,
  prefix,
  legend,
}: {
  draft: RateDraft;
  onChange(draft: RateDraft): void;
  prefix: string;
  legend: string;
}) {
  const setTier = (index: number, tier: Partial<RateDraft['tiers'][number]>) =>
    onChange({ ...draft, tiers: draft.tiers.map((old, at) => (at === index ? { ...old, ...tier } : old)) });
  return (
    <fieldset className="rate-fields">
      <legend>{legend}</legend>
      {(
        [
          ['FLAT', 'A flat rate'],
          ['TIERED', 'Balance tiers'],
        ] as const
      ).map(([kind, label]) => (
        <label key={kind}>
          <input
            type="radio"
            name={`${prefix}rate-kind`}
            value={kind}
            checked={draft.kind === kind}
            onChange={() => onChange({ ...draft, kind })}
          />{' '}
          {label}
        </label>
      ))}
      {draft.kind === 'FLAT' ? (
        <ProblemTextField
          field={`${prefix}annualRate`}
          label="Annual rate (%)"
          value={draft.annualRate}
          onChange={(annualRate) => onChange({ ...draft, annualRate })}
          isRequired
          inputMode="decimal"
          validate={(value) => (value.trim() === '' ? null : percentProblem(value))}
        />
      ) : (
        <>
          {draft.tiers.map((tier, index) => (
            <div className="tier" key={index} role="group" aria-label={`Tier ${index + 1}`}>
              <ProblemTextField
                field={`${prefix}tiers.${index}.minimumBalance`}
                label={`Tier ${index + 1} from balance`}
                value={tier.minimumBalance}
                onChange={(minimumBalance) => setTier(index, { minimumBalance })}
                isRequired
                isReadOnly={index === 0}
                inputMode="decimal"
                validate={() => tierOrderProblem(draft.tiers, index)}
              />
              <ProblemTextField
                field={`${prefix}tiers.${index}.annualRate`}
                label={`Tier ${index + 1} annual rate (%)`}
                value={tier.annualRate}
                onChange={(annualRate) => setTier(index, { annualRate })}
                isRequired
                inputMode="decimal"
                validate={(value) => (value.trim() === '' ? null : percentProblem(value))}
              />
              {index > 0 ? (
                <Button
                  className="react-aria-Button secondary small"
                  onPress={() => onChange({ ...draft, tiers: draft.tiers.filter((_, at) => at !== index) })}
                >
                  Remove tier {index + 1}
                </Button>
              ) : null}
            </div>
          ))}
          {draft.tiers.length < MAX_TIERS ? (
            <Button
              className="react-aria-Button secondary small"
              onPress={() => onChange({ ...draft, tiers: [...draft.tiers, { minimumBalance: '', annualRate: '' }] })}
            >
              Add a tier
            </Button>
          ) : null}
        </>
      )}
    </fieldset>
  );
}

/** The labels of the rate's fields by the API's field path, for the error summary. */
export function rateLabel(field: string, prefix: string): string | undefined {
  if (field === `${prefix}annualRate`) return 'Annual rate (%)';
  const tier = new RegExp(`^${prefix.replace('.', '\\.')}tiers\\.(\\d+)\\.(minimumBalance|annualRate)$`).exec(field);
  if (!tier) return undefined;
  const number = Number(tier[1]) + 1;
  return tier[2] === 'minimumBalance' ? `Tier ${number} from balance` : `Tier ${number} annual rate (%)`;
}
