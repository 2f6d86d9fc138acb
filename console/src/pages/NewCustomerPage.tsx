import { useMutation } from '@apollo/client/react';
import { type FormEvent, useRef, useState } from 'react';
import { Button } from 'react-aria-components';
import { type ContactDraft, ContactFields, contactInput, contactLabel } from '../components/ContactFields';
import { FormProblems, ProblemTextField } from '../components/FormProblems';
import { ProblemMessage } from '../components/ProblemMessage';
import { graphql } from '../gql';
import { paths, useRoute } from '../router';
import { newIdempotencyKey } from '../session';
import { useCan } from '../viewer';
import { NewBusinessForm } from './NewBusinessForm';

const CreateCustomer = graphql(`
  mutation CreateCustomer($input: CreateCustomerInput!, $idempotencyKey: String) {
    createCustomer(input: $input, idempotencyKey: $idempotencyKey) {
      id
      customerId
    }
  }
`);

interface IdentityDraft {
  firstName: string;
  middleName: string;
  lastName: string;
  dateOfBirth: string;
  externalId: string;
}

/** The labels of a person's fields, by the API's field names (the error summary links to them by these). */
const PERSON_LABELS = {
  firstName: 'First name',
  middleName: 'Middle name (optional)',
  lastName: 'Last name',
  dateOfBirth: 'Date of birth',
  socialSecurityNumber: 'Social security number',
  documentLocatorNumber: 'Document locator number',
  externalId: 'External id (optional)',
} as const;

const personLabel = (field: string) =>
  Object.hasOwn(PERSON_LABELS, field) ? PERSON_LABELS[field as keyof typeof PERSON_LABELS] : contactLabel(field);

/** The masked inputs of secrets: no spelling help, which would send what is typed elsewhere. */
const MASKED = {
  className: 'react-aria-Input masked',
  spellCheck: false,
  autoCorrect: 'off',
  autoCapitalize: 'off',
} as const;

const digitsOnly = (value: string) => (value === '' || /^\d+$/.test(value.trim()) ? null : 'Digits only.');

/**
 * A new customer with every field the contract requires. The social security number and the document locator
 * number are typed into masked text fields (not password fields, which a password manager would offer to
 * keep), live only in this form's state, are sent as variables of `createCustomer` and never stored. One
 * idempotency key per draft: a double press or a retry creates one customer; a changed draft gets a new key.
 */
/** A new customer: an individual (a person) or a business, chosen first. */
export function NewCustomerPage() {
  const canCreate = useCan('customers:write');
  const [kind, setKind] = useState<'INDIVIDUAL' | 'BUSINESS'>('INDIVIDUAL');
  if (!canCreate) {
    return (
      <>
        <h1>New customer</h1>
        <p>This token may not create customers (it needs customers:write).</p>
      </>
    );
  }
  return (
    <>
      <h1>New customer</h1>
      <fieldset className="kind-choice">
        <legend>Kind of customer</legend>
        {(
          [
            ['INDIVIDUAL', 'Individual'],
            ['BUSINESS', 'Business'],
          ] as const
        ).map(([value, label]) => (
          <label key={value}>
            <input
              type="radio"
              name="customer-kind"
              value={value}
              checked={kind === value}
              onChange={() => setKind(value)}
            />{' '}
            {label}
          </label>
        ))}
      </fieldset>
      {kind === 'BUSINESS' ? <NewBusinessForm /> : <NewPersonForm />}
    </>
  );
}

function NewPersonForm() {
  const { navigate } = useRoute();
  const [identity, setIdentity] = useState<IdentityDraft>({
    firstName: '',
    middleName: '',
    lastName: '',
    dateOfBirth: '',
    externalId: '',
  });
  const [ssn, setSsn] = useState('');
  const [documentLocatorNumber, setDocumentLocatorNumber] = useState('');
  const [contact, setContact] = useState<ContactDraft>({
    preferredName: '',
    emails: [''],
    phoneNumbers: [],
    addresses: [],
  });
  const key = useRef<string | null>(null);
  const inFlight = useRef(false);
  const [createCustomer, result] = useMutation(CreateCustomer);
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
    try {
      const answer = await createCustomer({
        variables: {
          idempotencyKey: key.current,
          input: {
            ...contactInput(contact),
            firstName: identity.firstName.trim(),
            middleName: identity.middleName.trim(),
            lastName: identity.lastName.trim(),
            dateOfBirth: identity.dateOfBirth,
            socialSecurityNumber: ssn.trim(),
            documentLocatorNumber: Number(documentLocatorNumber.trim()),
            ...(identity.externalId.trim() && { externalId: identity.externalId.trim() }),
          },
        },
      });
      if (answer.data) {
        setSsn('');
        setDocumentLocatorNumber('');
        navigate(paths.customer(answer.data.createCustomer.customerId));
      }
    } catch {
      // Shown below with its code; the same key is sent again if nothing changes before the retry.
    } finally {
      inFlight.current = false;
    }
  };

  const field = (
    name: keyof IdentityDraft,
    props: { isRequired?: boolean; type?: string; maxLength?: number } = {},
  ) => (
    <ProblemTextField
      field={name}
      label={PERSON_LABELS[name]}
      value={identity[name]}
      onChange={changed((value: string) => setIdentity({ ...identity, [name]: value }))}
      {...props}
    />
  );

  return (
    <form onSubmit={(event) => void submit(event)} className="stacked-form wide-form" aria-label="New individual">
      <FormProblems error={result.error} labels={personLabel}>
        {field('firstName', { isRequired: true, maxLength: 100 })}
        {field('middleName', { maxLength: 100 })}
        {field('lastName', { isRequired: true, maxLength: 100 })}
        {field('dateOfBirth', { isRequired: true, type: 'date' })}
        <ProblemTextField
          field="socialSecurityNumber"
          label={PERSON_LABELS.socialSecurityNumber}
          value={ssn}
          onChange={changed(setSsn)}
          isRequired
          autoComplete="off"
          inputProps={MASKED}
        />
        <ProblemTextField
          field="documentLocatorNumber"
          label={PERSON_LABELS.documentLocatorNumber}
          value={documentLocatorNumber}
          onChange={changed(setDocumentLocatorNumber)}
          isRequired
          autoComplete="off"
          inputMode="numeric"
          validate={digitsOnly}
          inputProps={MASKED}
        />
        <ContactFields draft={contact} onChange={changed(setContact)} />
        {field('externalId', { maxLength: 128 })}
        <Button type="submit" isDisabled={result.loading}>
          Create customer
        </Button>
        <ProblemMessage error={result.error} />
      </FormProblems>
    </form>
  );
}
