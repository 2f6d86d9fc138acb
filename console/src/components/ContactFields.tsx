import { Button, Input, Label, TextField } from 'react-aria-components';

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

/**
 * Editors for the preferred name and the lists of emails, phone numbers and addresses: each entry with its own
 * labelled fields and a button to remove it, and a button to add one (the API takes up to 10 of each).
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
        <TextField
          className="field"
          value={draft.preferredName}
          onChange={(preferredName) => onChange({ ...draft, preferredName })}
          isRequired
          maxLength={100}
        >
          <Label>Preferred name</Label>
          <Input />
        </TextField>
      ) : null}
      <fieldset className="entries">
        <legend>Emails</legend>
        {draft.emails.map((email, index) => (
          <div className="entry" key={index}>
            <TextField
              className="field"
              type="email"
              value={email}
              onChange={(value) => onChange({ ...draft, emails: replaced(draft.emails, index, value) })}
            >
              <Label>Email {index + 1}</Label>
              <Input />
            </TextField>
            <Button onPress={() => onChange({ ...draft, emails: without(draft.emails, index) })}>
              Remove email {index + 1}
            </Button>
          </div>
        ))}
        {draft.emails.length < 10 ? (
          <Button onPress={() => onChange({ ...draft, emails: [...draft.emails, ''] })}>Add an email</Button>
        ) : null}
      </fieldset>
      <fieldset className="entries">
        <legend>Phone numbers</legend>
        {draft.phoneNumbers.map((phone, index) => (
          <div className="entry" key={index}>
            <TextField
              className="field"
              value={phone.type}
              onChange={(type) =>
                onChange({ ...draft, phoneNumbers: replaced(draft.phoneNumbers, index, { ...phone, type }) })
              }
              isRequired
            >
              <Label>Phone {index + 1} type</Label>
              <Input />
            </TextField>
            <TextField
              className="field"
              type="tel"
              value={phone.number}
              onChange={(number) =>
                onChange({ ...draft, phoneNumbers: replaced(draft.phoneNumbers, index, { ...phone, number }) })
              }
              isRequired
            >
              <Label>Phone {index + 1} number</Label>
              <Input />
            </TextField>
            <Button onPress={() => onChange({ ...draft, phoneNumbers: without(draft.phoneNumbers, index) })}>
              Remove phone {index + 1}
            </Button>
          </div>
        ))}
        {draft.phoneNumbers.length < 10 ? (
          <Button onPress={() => onChange({ ...draft, phoneNumbers: [...draft.phoneNumbers, NEW_PHONE] })}>
            Add a phone number
          </Button>
        ) : null}
      </fieldset>
      <fieldset className="entries">
        <legend>Addresses</legend>
        {draft.addresses.map((address, index) => (
          <div className="entry" key={index}>
            {(['type', 'street', 'city', 'state', 'zip'] as const).map((part) => (
              <TextField
                key={part}
                className="field"
                value={address[part]}
                onChange={(value) =>
                  onChange({ ...draft, addresses: replaced(draft.addresses, index, { ...address, [part]: value }) })
                }
                isRequired
              >
                <Label>
                  Address {index + 1} {part}
                </Label>
                <Input />
              </TextField>
            ))}
            <Button onPress={() => onChange({ ...draft, addresses: without(draft.addresses, index) })}>
              Remove address {index + 1}
            </Button>
          </div>
        ))}
        {draft.addresses.length < 10 ? (
          <Button onPress={() => onChange({ ...draft, addresses: [...draft.addresses, NEW_ADDRESS] })}>
            Add an address
          </Button>
        ) : null}
      </fieldset>
    </>
  );
}
