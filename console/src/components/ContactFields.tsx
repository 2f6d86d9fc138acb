import { Button } from 'react-aria-components';
import { ProblemTextField } from './FormProblems';

export interface PhoneDraft {
  type: string;
  number: string;
}

export interface AddressDraft {
  type: string;
  street: string;
  city: string;
  state: string;
  zip: string;
}

/** The contact fields a customer is created with and that can change later (`UpdateCustomerInput`). */
export interface ContactDraft {
  preferredName: string;
  emails: string[];
  phoneNumbers: PhoneDraft[];
  addresses: AddressDraft[];
}

const NEW_PHONE: PhoneDraft = { type: 'MOBILE', number: '' };
const NEW_ADDRESS: AddressDraft = { type: 'HOME', street: '', city: '', state: '', zip: '' };
const replaced = <T,>(list: readonly T[], index: number, item: T) => list.map((old, at) => (at === index ? item : old));
const without = <T,>(list: readonly T[], index: number) => list.filter((_, at) => at !== index);

/** What the API takes from a draft: trimmed, empty emails left out. A business has no preferred name. */
export function contactInput(draft: ContactDraft): ReturnType<typeof listsInput> & { preferredName: string } {
  return { preferredName: draft.preferredName.trim(), ...listsInput(draft) };
}

/** The contact lists of a draft (a business's contact fields), trimmed, empty emails left out. */
export function listsInput(draft: ContactDraft) {
  return {
    emails: draft.emails.map((email) => email.trim()).filter(Boolean),
    phoneNumbers: draft.phoneNumbers.map((phone) => ({ type: phone.type.trim(), number: phone.number.trim() })),
    addresses: draft.addresses.map((address) => ({
      type: address.type.trim(),
      street: address.street.trim(),
      city: address.city.trim(),
      state: address.state.trim(),
      zip: address.zip.trim(),
    })),
  };
}

const ADDRESS_PARTS = ['type', 'street', 'city', 'state', 'zip'] as const;

/** The label a contact field has in `ContactFields`, by the API's field path (`emails.0` → "Email 1"). */
export function contactLabel(field: string): string | undefined {
  if (field === 'preferredName') return 'Preferred name';
  const [list, at, part] = field.split('.');
  const index = Number(at) + 1;
  if (!Number.isInteger(index)) return undefined;
  if (list === 'emails' && part === undefined) return `Email ${index}`;
  if (list === 'phoneNumbers' && (part === 'type' || part === 'number')) return `Phone ${index} ${part}`;
  if (list === 'addresses' && ADDRESS_PARTS.some((name) => name === part)) return `Address ${index} ${part}`;
  return undefined;
}

/**
 * Editors for the preferred name and the lists of emails, phone numbers and addresses: each entry with its own
 * labelled fields and a button to remove it, and a button to add one (the API takes up to 10 of each). Inside
 * `FormProblems`, each field shows the API's refusal of it (`emails.0`, `addresses.1.zip`).
 */
export function ContactFields({
  draft,
  onChange,
  withPreferredName = true,
}: {
  draft: ContactDraft;
  onChange: (draft: ContactDraft) => void;
  /** False for a business, which has no preferred name. */
  withPreferredName?: boolean;
}) {
  return (
    <>
      {withPreferredName ? (
        <ProblemTextField
          field="preferredName"
          label={contactLabel('preferredName')}
          value={draft.preferredName}
          onChange={(preferredName) => onChange({ ...draft, preferredName })}
          isRequired
          maxLength={100}
        />
      ) : null}
      <fieldset className="entries">
        <legend>Emails</legend>
        {draft.emails.map((email, index) => (
          <div className="entry" key={index}>
            <ProblemTextField
              field={`emails.${index}`}
              label={`Email ${index + 1}`}
              type="email"
              value={email}
              onChange={(value) => onChange({ ...draft, emails: replaced(draft.emails, index, value) })}
            />
            <Button
              className="react-aria-Button secondary"
              onPress={() => onChange({ ...draft, emails: without(draft.emails, index) })}
            >
              Remove email {index + 1}
            </Button>
          </div>
        ))}
        {draft.emails.length < 10 ? (
          <Button
            className="react-aria-Button secondary"
            onPress={() => onChange({ ...draft, emails: [...draft.emails, ''] })}
          >
            Add an email
          </Button>
        ) : null}
      </fieldset>
      <fieldset className="entries">
        <legend>Phone numbers</legend>
        {draft.phoneNumbers.map((phone, index) => (
          <div className="entry" key={index}>
            {(['type', 'number'] as const).map((part) => (
              <ProblemTextField
                key={part}
                field={`phoneNumbers.${index}.${part}`}
                label={`Phone ${index + 1} ${part}`}
                type={part === 'number' ? 'tel' : undefined}
                value={phone[part]}
                onChange={(value) =>
                  onChange({
                    ...draft,
                    phoneNumbers: replaced(draft.phoneNumbers, index, { ...phone, [part]: value }),
                  })
                }
                isRequired
              />
            ))}
            <Button
              className="react-aria-Button secondary"
              onPress={() => onChange({ ...draft, phoneNumbers: without(draft.phoneNumbers, index) })}
            >
              Remove phone {index + 1}
            </Button>
          </div>
        ))}
        {draft.phoneNumbers.length < 10 ? (
          <Button
            className="react-aria-Button secondary"
            onPress={() => onChange({ ...draft, phoneNumbers: [...draft.phoneNumbers, NEW_PHONE] })}
          >
            Add a phone number
          </Button>
        ) : null}
      </fieldset>
      <fieldset className="entries">
        <legend>Addresses</legend>
        {draft.addresses.map((address, index) => (
          <div className="entry" key={index}>
            {ADDRESS_PARTS.map((part) => (
              <ProblemTextField
                key={part}
                field={`addresses.${index}.${part}`}
                label={`Address ${index + 1} ${part}`}
                value={address[part]}
                onChange={(value) =>
                  onChange({ ...draft, addresses: replaced(draft.addresses, index, { ...address, [part]: value }) })
                }
                isRequired
              />
            ))}
            <Button
              className="react-aria-Button secondary"
              onPress={() => onChange({ ...draft, addresses: without(draft.addresses, index) })}
            >
              Remove address {index + 1}
            </Button>
          </div>
        ))}
        {draft.addresses.length < 10 ? (
          <Button
            className="react-aria-Button secondary"
            onPress={() => onChange({ ...draft, addresses: [...draft.addresses, NEW_ADDRESS] })}
          >
            Add an address
          </Button>
        ) : null}
      </fieldset>
    </>
  );
}
