import { useMutation } from '@apollo/client/react';
import { createColumnHelper } from '@tanstack/react-table';
import { type FormEvent, useState } from 'react';
import { Button, FieldError, Input, Label, Link, TextField } from 'react-aria-components';
import { fieldProblems } from '../api/errors';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { DataTable } from '../components/DataTable';
import { ProblemMessage } from '../components/ProblemMessage';
import { customerName, enumLabel, instant } from '../format';
import { graphql } from '../gql';
import type { BeneficialOwnerProng, CustomerDetailsQuery } from '../gql/graphql';
import { paths } from '../router';
import { RecordSearch } from '../search/RecordSearch';

const AddBeneficialOwner = graphql(`
  mutation AddBeneficialOwner($businessCustomerId: ID!, $input: AddBeneficialOwnerInput!) {
    addBeneficialOwner(businessCustomerId: $businessCustomerId, input: $input) {
      customerId
    }
  }
`);

const RemoveBeneficialOwner = graphql(`
  mutation RemoveBeneficialOwner($businessCustomerId: ID!, $ownerCustomerId: ID!) {
    removeBeneficialOwner(businessCustomerId: $businessCustomerId, ownerCustomerId: $ownerCustomerId)
  }
`);

type Details = NonNullable<CustomerDetailsQuery['customer']>;
type Owner = NonNullable<Details['beneficialOwners']>[number];
type Ownership = Details['beneficialOwnerOf'][number];

/**
 * Refetching the page's queries after a change: the owners, their sum and the business's version move together, and
 * so do the verification panel's requirements (an owner's own requirement comes and goes with it).
 */
const REFETCH = { refetchQueries: ['CustomerDetails', 'CustomerVerification'], awaitRefetchQueries: true };

const prongsLabel = (prongs: readonly BeneficialOwnerProng[]) => prongs.map(enumLabel).join(' and ');
const share = (percentage: string | null | undefined) => (percentage ? `${percentage} %` : 'none');

/**
 * The recorded shares' sum, exactly: the API's percentages have at most two decimals, so they are added as
 * hundredths in integers, never as floats ("33.33" three times is 99.99, not 99.98999…).
 */
export function ownershipTotal(percentages: readonly (string | null | undefined)[]): string {
  const hundredths = percentages.reduce((sum, value) => {
    if (!value) return sum;
    const [whole, fraction = ''] = value.split('.');
    return sum + Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
  }, 0);
  return `${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}`;
}

const ownerName = (owner: Owner) => (owner.customer ? customerName(owner.customer) : owner.customerId);

/**
 * A business's beneficial owners and control persons (31 CFR 1010.230) with their prongs, shares and titles, the
 * sum of the recorded shares, and, with `customers:write`, a form to add one by customer id and a confirmed
 * removal. The API's refusals (NOT_AN_INDIVIDUAL, OWNERSHIP_OVER_100, BENEFICIAL_OWNER_ALREADY_EXISTS, …) are
 * shown with their codes, next to the field they name when they name one; nothing changes on a refusal.
 */
export function BeneficialOwners({ business, canEdit }: { business: Details; canEdit: boolean }) {
  const owners = business.beneficialOwners ?? [];
  const column = createColumnHelper<Owner>();
  const columns = [
    column.display({
      id: 'owner',
      header: 'Owner',
      cell: (info) => <Link href={paths.customer(info.row.original.customerId)}>{ownerName(info.row.original)}</Link>,
    }),
    column.accessor('prongs', { header: 'Prongs', cell: (info) => prongsLabel(info.getValue()) }),
    column.accessor('ownershipPercentage', { header: 'Share', cell: (info) => share(info.getValue()) }),
    column.accessor('title', { header: 'Title', cell: (info) => info.getValue() ?? '' }),
    column.accessor('addedAt', { header: 'Added', cell: (info) => instant(info.getValue()) }),
    ...(canEdit
      ? [
          column.display({
            id: 'remove',
            header: 'Action',
            cell: (info) => <RemoveOwner businessId={business.customerId} owner={info.row.original} />,
          }),
        ]
      : []),
  ];
  const controllers = owners.filter((owner) => owner.prongs.includes('CONTROL')).length;
  return (
    <section aria-labelledby="owners-heading">
      <h2 id="owners-heading">Beneficial owners</h2>
      <DataTable
        caption="Beneficial owners and control persons, oldest first"
        columns={columns}
        data={[...owners]}
        empty="No beneficial owner is recorded."
      />
      <p className="muted" aria-label="Ownership summary">
        Shares recorded: {ownershipTotal(owners.map((owner) => owner.ownershipPercentage))} % of 100 %;{' '}
        {controllers === 1 ? 'one control person' : `${controllers} control persons`}.
      </p>
      {canEdit ? <AddOwnerForm businessId={business.customerId} /> : null}
    </section>
  );
}

/** Removing one owner after a confirmation naming it and its share; a refusal stays in the dialog. */
function RemoveOwner({ businessId, owner }: { businessId: string; owner: Owner }) {
  const [remove, result] = useMutation(RemoveBeneficialOwner, REFETCH);
  const name = ownerName(owner);
  return (
    <ConfirmDialog
      trigger={`Remove ${name}`}
      title={`Remove ${name} as a beneficial owner?`}
      confirmLabel="Remove owner"
      busy={result.loading}
      error={result.error}
      onOpen={() => result.reset()}
      onConfirm={() =>
        remove({ variables: { businessCustomerId: businessId, ownerCustomerId: owner.customerId } }).then(
          (answer) => Boolean(answer.data),
          () => false,
        )
      }
    >
      <p>
        {name} ({prongsLabel(owner.prongs)}, share {share(owner.ownershipPercentage)}) is no longer recorded as an owner
        of this business. The customer record itself stays.
      </p>
    </ConfirmDialog>
  );
}

interface OwnerDraft {
  customerId: string;
  prongs: BeneficialOwnerProng[];
  ownershipPercentage: string;
  title: string;
}
const PRONGS: readonly { prong: BeneficialOwnerProng; label: string }[] = [
  { prong: 'OWNERSHIP', label: 'Ownership (25 % or more)' },
  { prong: 'CONTROL', label: 'Control (manages or directs the business)' },
];
const NO_OWNER: OwnerDraft = { customerId: '', prongs: ['OWNERSHIP'], ownershipPercentage: '', title: '' };

function AddOwnerForm({ businessId }: { businessId: string }) {
  const [draft, setDraft] = useState<OwnerDraft>(NO_OWNER);
  const [add, result] = useMutation(AddBeneficialOwner, REFETCH);
  const [added, setAdded] = useState(false);
  const problems = fieldProblems(result.error);
  const owning = draft.prongs.includes('OWNERSHIP');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAdded(false);
    void add({
      variables: {
        businessCustomerId: businessId,
        input: {
          customerId: draft.customerId.trim(),
          prongs: draft.prongs,
          // A share only with OWNERSHIP: the API refuses one without it.
          ...(owning ? { ownershipPercentage: draft.ownershipPercentage.trim() } : {}),
          ...(draft.title.trim() === '' ? {} : { title: draft.title.trim() }),
        },
      },
    })
      .then((answer) => {
        if (answer.data) {
          setDraft(NO_OWNER);
          setAdded(true);
        }
      })
      .catch(() => undefined);
  };
  const problemOf = (name: string) => {
    const problem = problems.get(name);
    return problem ? (
      <FieldError className="field-problem">
        <code>{problem.code}</code> {problem.message}
      </FieldError>
    ) : null;
  };
  return (
    <form onSubmit={submit} className="stacked-form" aria-label="Add a beneficial owner">
      <RecordSearch
        className="field picker"
        label="Find the owner"
        showLabel
        kinds={['customer']}
        placeholder="A name, an email, a phone or an id"
        onPick={(picked) => setDraft({ ...draft, customerId: picked.id })}
      />
      <TextField
        className="field"
        value={draft.customerId}
        onChange={(customerId) => setDraft({ ...draft, customerId })}
        isRequired
        isInvalid={problems.has('customerId')}
        validationBehavior="aria"
      >
        <Label>Customer id of the owner (an individual)</Label>
        <Input />
        {problemOf('customerId')}
      </TextField>
      <fieldset className="entries" aria-describedby={problems.has('prongs') ? 'owner-prongs-problem' : undefined}>
        <legend>Prongs</legend>
        {PRONGS.map(({ prong, label }) => (
          <label key={prong} className="checkbox">
            <input
              type="checkbox"
              checked={draft.prongs.includes(prong)}
              onChange={(event) =>
                setDraft({
                  ...draft,
                  // Kept in the API's order (OWNERSHIP, CONTROL) whatever the order of the clicks.
                  prongs: PRONGS.map((known) => known.prong).filter((known) =>
                    known === prong ? event.target.checked : draft.prongs.includes(known),
                  ),
                })
              }
            />{' '}
            {label}
          </label>
        ))}
        {problems.has('prongs') ? (
          <p id="owner-prongs-problem" className="field-problem">
            <code>{problems.get('prongs')!.code}</code> {problems.get('prongs')!.message}
          </p>
        ) : null}
      </fieldset>
      {owning ? (
        <TextField
          className="field"
          value={draft.ownershipPercentage}
          onChange={(ownershipPercentage) => setDraft({ ...draft, ownershipPercentage })}
          isRequired
          inputMode="decimal"
          isInvalid={problems.has('ownershipPercentage')}
          validationBehavior="aria"
        >
          <Label>Share owned, in % (e.g. 33.33)</Label>
          <Input />
          {problemOf('ownershipPercentage')}
        </TextField>
      ) : null}
      <TextField
        className="field"
        value={draft.title}
        onChange={(title) => setDraft({ ...draft, title })}
        maxLength={100}
        isInvalid={problems.has('title')}
        validationBehavior="aria"
      >
        <Label>Title (optional)</Label>
        <Input />
        {problemOf('title')}
      </TextField>
      <div className="actions">
        <Button type="submit" isDisabled={result.loading || draft.prongs.length === 0}>
          Add owner
        </Button>
      </div>
      {added ? (
        <p role="status" className="done">
          Owner added.
        </p>
      ) : null}
      <ProblemMessage error={result.error} />
    </form>
  );
}

/** The businesses a person owns or controls, as links with the prongs and share. */
export function OwnerOf({ ownerships }: { ownerships: readonly Ownership[] }) {
  if (ownerships.length === 0) return null;
  return (
    <section aria-labelledby="owner-of-heading">
      <h2 id="owner-of-heading">Beneficial owner of</h2>
      <ul className="results" aria-label="Businesses this person owns or controls">
        {ownerships.map((ownership) => (
          <li key={ownership.businessCustomerId}>
            <Link href={paths.customer(ownership.businessCustomerId)}>
              {ownership.business ? customerName(ownership.business) : ownership.businessCustomerId}
            </Link>{' '}
            <span className="muted">
              {prongsLabel(ownership.prongs)}
              {ownership.ownershipPercentage ? `, ${share(ownership.ownershipPercentage)}` : ''}
              {ownership.title ? `, ${ownership.title}` : ''}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
