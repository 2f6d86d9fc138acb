import { useMutation } from '@apollo/client/react';
import { type FormEvent, type ReactNode, useRef, useState } from 'react';
import { Button, FieldError, Input, Label, TextField } from 'react-aria-components';
import { fieldProblems } from '../api/errors';
import { type ContactDraft, ContactFields, listsInput } from '../components/ContactFields';
import { ProblemMessage } from '../components/ProblemMessage';
import { entityTypeLabel } from '../format';
import { graphql } from '../gql';
import type { EntityType } from '../gql/graphql';
import { paths, useRoute } from '../router';
import { newIdempotencyKey } from '../session';

const CreateBusinessCustomer = graphql(`
  mutation CreateBusinessCustomer($input: CreateBusinessCustomerInput!, $idempotencyKey: String) {
    createBusinessCustomer(input: $input, idempotencyKey: $idempotencyKey) {
      id
      customerId
    }
  }
`);

const ENTITY_TYPES: readonly EntityType[] = [
  'CORPORATION',
  'LLC',
  'PARTNERSHIP',
  'SOLE_PROPRIETORSHIP',
  'NONPROFIT',
  'TRUST',
];

interface BusinessDraft {
  legalName: string;
  doingBusinessAs: string;
  entityType: EntityType;
  formationDate: string;
  formationState: string;
  formationCountry: string;
  industry: string;
  website: string;
  externalId: string;
}

const EMPTY: BusinessDraft = {
  legalName: '',
  doingBusinessAs: '',
  entityType: 'LLC',
  formationDate: '',
  formationState: '',
  formationCountry: 'US',
  industry: '',
  website: '',
  externalId: '',
};
const NO_CONTACT: ContactDraft = { preferredName: '', emails: [''], phoneNumbers: [], addresses: [] };

/** An optional field: left out when blank. */
const optional = <K extends string>(name: K, value: string) =>
  (value.trim() === '' ? {} : { [name]: value.trim() }) as Partial<Record<K, string>>;

/**
 * A new business customer (`createBusinessCustomer`). The tax id is typed into a masked text field with
 * autocomplete off (as the social security number is: not a password field, which a password manager would offer
 * to keep); it lives only in this form's state, is sent as a variable of the mutation, never in an address or
 * browser storage, and the field is emptied after every submit (typed again after a refusal). The API's refusals
 * are shown next to the fields they name (`extensions.details[].field`), the rest above the button. One
 * idempotency key per draft, as for a person.
 */
export function NewBusinessForm() {
  const { navigate } = useRoute();
  const [draft, setDraft] = useState<BusinessDraft>(EMPTY);
  const [taxId, setTaxId] = useState('');
  const [contact, setContact] = useState<ContactDraft>(NO_CONTACT);
  const key = useRef<string | null>(null);
  const inFlight = useRef(false);
  const [createBusiness, result] = useMutation(CreateBusinessCustomer);
  const problems = fieldProblems(result.error);
  const changed =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      key.current = null;
      set(value);
    };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (inFlight.current) return;
    inFlight.current = true;
    key.current ??= newIdempotencyKey();
    const typedTaxId = taxId.trim();
    setTaxId('');
    try {
      const answer = await createBusiness({
        variables: {
          idempotencyKey: key.current,
          input: {
            ...listsInput(contact),
            legalName: draft.legalName.trim(),
            taxId: typedTaxId,
            entityType: draft.entityType,
            formationDate: draft.formationDate,
            formationCountry: draft.formationCountry.trim(),
            ...optional('doingBusinessAs', draft.doingBusinessAs),
            ...optional('formationState', draft.formationState),
            ...optional('industry', draft.industry),
            ...optional('website', draft.website),
            ...optional('externalId', draft.externalId),
          },
        },
      });
      if (answer.data) {
        setDraft(EMPTY);
        setContact(NO_CONTACT);
        navigate(paths.customer(answer.data.createBusinessCustomer.customerId));
      }
    } catch {
      // Shown next to the fields and below; the tax id is typed again (a new key, as the draft changed).
      key.current = null;
    } finally {
      inFlight.current = false;
    }
  };

  /** A refusal of the API for this field, as the field's error (announced with it, aria-describedby). */
  const problemOf = (name: string): ReactNode => {
    const problem = problems.get(name);
    return problem ? (
      <FieldError className="field-problem">
        <code>{problem.code}</code> {problem.message}
      </FieldError>
    ) : null;
  };
  const field = (
    name: Exclude<keyof BusinessDraft, 'entityType'>,
    label: string,
    props: { isRequired?: boolean; type?: string; maxLength?: number; description?: string } = {},
  ) => (
    <TextField
      className="field"
      value={draft[name]}
      onChange={changed((value: string) => setDraft({ ...draft, [name]: value }))}
      isInvalid={problems.has(name)}
      validationBehavior="aria"
      {...props}
    >
      <Label>{label}</Label>
      <Input />
      {problemOf(name)}
    </TextField>
  );
  // Refusals no field of this form shows (e.g. of a contact list entry): listed with the refusal.
  const elsewhere = [...problems].filter(([name]) => !(name in EMPTY) && name !== 'taxId');

  return (
    <form onSubmit={(event) => void submit(event)} className="stacked-form wide-form" aria-label="New business">
      {field('legalName', 'Legal name', { isRequired: true, maxLength: 200 })}
      {field('doingBusinessAs', 'Doing business as (optional)', { maxLength: 200 })}
      <TextField
        className="field"
        value={taxId}
        onChange={changed(setTaxId)}
        isRequired
        autoComplete="off"
        isInvalid={problems.has('taxId')}
        validationBehavior="aria"
      >
        <Label>Tax id (EIN)</Label>
        <Input
          className="react-aria-Input masked"
          name="business-tax-id"
          spellCheck={false}
          autoCorrect="off"
          autoCapitalize="off"
        />
        {problemOf('taxId')}
      </TextField>
      <div className="field">
        <label htmlFor="entity-type">Entity type</label>
        <select
          id="entity-type"
          value={draft.entityType}
          onChange={(event) => changed(setDraft)({ ...draft, entityType: event.target.value as EntityType })}
        >
          {ENTITY_TYPES.map((type) => (
            <option key={type} value={type}>
              {entityTypeLabel(type)}
            </option>
          ))}
        </select>
      </div>
      {field('formationDate', 'Formation date', { isRequired: true, type: 'date' })}
      {field('formationState', 'Formation state (optional)', { maxLength: 100 })}
      {field('formationCountry', 'Formation country (ISO code, e.g. US)', { isRequired: true, maxLength: 2 })}
      {field('industry', 'Industry (NAICS code, optional)', { maxLength: 6 })}
      {field('website', 'Website (optional)')}
      <ContactFields draft={contact} onChange={changed(setContact)} withPreferredName={false} />
      {field('externalId', 'External id (optional)', { maxLength: 128 })}
      <Button type="submit" isDisabled={result.loading}>
        Create business
      </Button>
      <ProblemMessage error={result.error} />
      {elsewhere.length > 0 ? (
        <ul className="problem" aria-label="Other problems">
          {elsewhere.map(([name, problem]) => (
            <li key={name}>
              <code>{name}</code>: <code>{problem.code}</code> {problem.message}
            </li>
          ))}
        </ul>
      ) : null}
    </form>
  );
}
