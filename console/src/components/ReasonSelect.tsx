import { enumLabel } from '../format';

/** A reason chosen from the API's list: a `select` whose empty first option asks for one. */
export function ReasonSelect<T extends string>({
  id,
  reasons,
  value,
  onChange,
  problem,
}: {
  id: string;
  reasons: readonly T[];
  value: '' | T;
  onChange(value: '' | T): void;
  problem: string | undefined;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>Reason</label>
      <select
        id={id}
        value={value}
        required
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
        onChange={(event) => onChange(event.target.value as '' | T)}
      >
        <option value="">Choose a reason</option>
        {reasons.map((reason) => (
          <option key={reason} value={reason}>
            {enumLabel(reason)}
          </option>
        ))}
      </select>
      {problem ? (
        <span id={`${id}-problem`} className="field-problem">
          {problem}
        </span>
      ) : null}
    </div>
  );
}
