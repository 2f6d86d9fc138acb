import { useMutation } from '@apollo/client/react';
import { type FormEvent, useRef, useState } from 'react';
import { Button } from 'react-aria-components';
import { type ContactDraft, ContactFields, contactLabel, listsInput } from '../components/ContactFields';
import { FormProblems, ProblemTextField } from '../components/FormProblems';
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

/** The labels of a business's fields, by the API's field names (the error summary links to them by these). */
const BUSINESS_LABELS = {
  legalName: 'Legal name',
  doingBusinessAs: 'Doing business as (optional)',
  taxId: 'Tax id (EIN)',
  formationDate: 'Formation date',
  formationState: 'Formation state (optional)',
  formationCountry: 'Formation country (ISO code, e.g. US)',
  industry: 'Industry (NAICS code, optional)',
  website: 'Website (optional)',
  externalId: 'External id (optional)',
} as const;

const businessLabel = (field: string) =>
  Object.hasOwn(BUSINESS_LABELS, field) ? BUSINESS_LABELS[field as keyof typeof BUSINESS_LABELS] : contactLabel(field);

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

  const field = (
    name: Exclude<keyof BusinessDraft, 'entityType'>,
    props: { isRequired?: boolean; type?: string; maxLength?: number } = {},
  ) => (
    <ProblemTextField
      field={name}
      label={BUSINESS_LABELS[name]}
      value={draft[name]}
      onChange={changed((value: string) => setDraft({ ...draft, [name]: value }))}
      {...props}
    />
  );

  return (
    <form onSubmit={(event) => void submit(event)} className="stacked-form wide-form" aria-label="New business">
      <FormProblems error={result.error} labels={businessLabel}>
        {field('legalName', { isRequired: true, maxLength: 200 })}
        {field('doingBusinessAs', { maxLength: 200 })}
        <ProblemTextField
          field="taxId"
          label={BUSINESS_LABELS.taxId}
          value={taxId}
          onChange={changed(setTaxId)}
          isRequired
          autoComplete="off"
          inputProps={{
            className: 'react-aria-Input masked',
            name: 'business-tax-id',
            spellCheck: false,
            autoCorrect: 'off',
            autoCapitalize: 'off',
          }}
        />
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
        {field('formationDate', { isRequired: true, type: 'date' })}
        {field('formationState', { maxLength: 100 })}
        {field('formationCountry', { isRequired: true, maxLength: 2 })}
        {field('industry', { maxLength: 6 })}
        {field('website')}
        <ContactFields draft={contact} onChange={changed(setContact)} withPreferredName={false} />
        {field('externalId', { maxLength: 128 })}
        <Button type="submit" isDisabled={result.loading}>
          Create business
        </Button>
        <ProblemMessage error={result.error} />
      </FormProblems>
    </form>
  );
}
