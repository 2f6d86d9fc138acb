import { createContext, type ReactNode, useContext, useEffect, useId, useMemo, useRef, useState } from 'react';
import { FieldError, Input, type InputProps, Label, TextField, type TextFieldProps } from 'react-aria-components';
import { type ApiProblem, fieldProblems } from '../api/errors';

/** How a form names its fields to people: a label by the API's field path (`emails.0` → "Email 1"). */
export type FieldLabels = (field: string) => string | undefined;

interface FormProblemsValue {
  /** The refusal's details by field, less those the user has edited since. */
  shown: ReadonlyMap<string, ApiProblem>;
  idOf(field: string): string;
  edited(field: string): void;
}

const FormProblemsContext = createContext<FormProblemsValue | null>(null);

/**
 * The API's refusal of a form, by field, in GOV.UK's error pattern: a summary at the top of the form that links
 * to each field it names (focused when a refusal arrives, so a screen reader reads it), and each field's own
 * error next to it. A field's error goes once it is edited; the summary stays until the next answer. Nothing
 * typed is lost: this only reads the refusal. The checks stay the API's; the form's own (required fields, types)
 * are the browser's, shown by the same field errors.
 */
export function FormProblems({
  error,
  labels,
  children,
}: {
  error: unknown;
  labels: FieldLabels;
  children: ReactNode;
}) {
  const formId = useId();
  const all = useMemo(() => fieldProblems(error), [error]);
  const [edited, setEdited] = useState<ReadonlySet<string>>(new Set());
  const summary = useRef<HTMLDivElement>(null);
  useEffect(() => {
    setEdited(new Set());
    if (all.size > 0) summary.current?.focus();
  }, [all]);
  const idOf = (field: string) => `${formId}-${field.replace(/[^A-Za-z0-9_-]/g, '-')}`;
  const value: FormProblemsValue = {
    shown: new Map([...all].filter(([field]) => !edited.has(field))),
    idOf,
    edited: (field) => {
      if (all.has(field) && !edited.has(field)) setEdited(new Set(edited).add(field));
    },
  };
  return (
    <FormProblemsContext.Provider value={value}>
      {all.size > 0 ? (
        <div className="error-summary" role="alert" tabIndex={-1} ref={summary} aria-labelledby={`${formId}-summary`}>
          <h2 id={`${formId}-summary`}>There is a problem</h2>
          <ul>
            {[...all].map(([field, problem]) => {
              const label = labels(field);
              const text = (
                <>
                  {label ?? <code>{field}</code>}: {problem.message} <code>{problem.code}</code>
                </>
              );
              return (
                <li key={field}>
                  {label ? (
                    <a
                      href={`#${idOf(field)}`}
                      onClick={(event) => {
                        // The field itself takes the focus (a fragment link only scrolls to it).
                        const input = document.getElementById(idOf(field));
                        if (!input) return;
                        event.preventDefault();
                        input.focus();
                        input.scrollIntoView({ block: 'center' });
                      }}
                    >
                      {text}
                    </a>
                  ) : (
                    text
                  )}
                </li>
              );
            })}
          </ul>
        </div>
      ) : null}
      {children}
    </FormProblemsContext.Provider>
  );
}

/**
 * What a React Aria field needs to show the refusal of `field`: its input's id (the summary links to it), its
 * invalid state while the refusal stands (undefined otherwise, so the browser's own checks still show), and an
 * `onChange` that takes the refusal away once the value is edited.
 */
export function useFieldProblem<T>(
  field: string,
  onChange: (value: T) => void,
): { id: string | undefined; isInvalid: true | undefined; onChange: (value: T) => void } {
  const context = useContext(FormProblemsContext);
  return {
    id: context?.idOf(field),
    isInvalid: context?.shown.has(field) ? true : undefined,
    onChange: (value: T) => {
      context?.edited(field);
      onChange(value);
    },
  };
}

/**
 * A field's error: the API's refusal of `field` while it stands, else the browser's message for a required or
 * mistyped field once the form is submitted (React Aria's native validation).
 */
export function FieldProblem({ field }: { field: string }) {
  const problem = useContext(FormProblemsContext)?.shown.get(field);
  return (
    <FieldError className="field-problem">
      {problem ? (
        <>
          {problem.message} <code>{problem.code}</code>
        </>
      ) : undefined}
    </FieldError>
  );
}

/**
 * A labelled text field that shows its errors: the API's refusal of `field` (see `FormProblems`) or the
 * browser's message for a required or mistyped value.
 */
export function ProblemTextField({
  field,
  label,
  onChange,
  inputProps,
  ...props
}: Omit<TextFieldProps, 'onChange' | 'id' | 'isInvalid' | 'children'> & {
  field: string;
  label: ReactNode;
  onChange(value: string): void;
  inputProps?: InputProps;
}) {
  const problem = useFieldProblem(field, onChange);
  return (
    <TextField className="field" {...props} {...problem}>
      <Label>{label}</Label>
      <Input {...inputProps} />
      <FieldProblem field={field} />
    </TextField>
  );
}
