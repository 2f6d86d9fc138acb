import { useApolloClient, useMutation, useQuery } from '@apollo/client/react';
import { type FormEvent, useState } from 'react';
import { Button, Link } from 'react-aria-components';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ConflictNotice, isConflict } from '../components/ConflictNotice';
import { type ContactDraft, ContactFields, contactInput, contactLabel, listsInput } from '../components/ContactFields';
import { FormProblems } from '../components/FormProblems';
import { ReasonSelect } from '../components/ReasonSelect';
import { MetadataSection } from '../components/MetadataSection';
import { NotesSection } from '../components/NotesSection';
import { RecentEvents } from '../components/RecentEvents';
import { TimelineSection } from '../components/TimelineSection';
import { ProblemMessage } from '../components/ProblemMessage';
import { customerKind, customerName, entityTypeLabel, enumLabel, instant, money } from '../format';
import { graphql } from '../gql';
import type { CustomerArchiveReason, CustomerDetailsQuery } from '../gql/graphql';
import { paths } from '../router';
import { AuditTable } from './AuditPage';
import { BeneficialOwners, OwnerOf } from './BeneficialOwners';
import { TaxFormsSection } from './TaxFormsSection';
import { VerificationPanel } from './VerificationPanel';
import { useCan } from '../viewer';

const CustomerDetails = graphql(`
  query CustomerDetails($customerId: ID!, $withAccounts: Boolean!) {
    customer(customerId: $customerId) {
      id
      customerId
      customerType
      business {
        legalName
        doingBusinessAs
        entityType
        formationDate
        formationState
        formationCountry
        industry
        website
      }
      preferredName
      firstName
      middleName
      lastName
      dateOfBirth
      status
      archivedAt
      archiveReason
      version
      metadata
      emails
      phoneNumbers {
        type
        number
      }
      addresses {
        type
        street
        city
        state
        zip
      }
      beneficialOwners {
        customerId
        prongs
        ownershipPercentage
        title
        addedAt
        customer {
          id
          customerType
          firstName
          middleName
          lastName
          business {
            legalName
          }
        }
      }
      beneficialOwnerOf {
        businessCustomerId
        prongs
        ownershipPercentage
        title
        business {
          id
          firstName
          middleName
          lastName
          business {
            legalName
          }
        }
      }
      accounts @include(if: $withAccounts) {
        id
        accountId
        name
        type
        currency
        amount
        flags
        status
      }
    }
  }
`);

const UpdateCustomer = graphql(`
  mutation UpdateCustomerContact($customerId: ID!, $input: UpdateCustomerInput!, $expectedVersion: Int) {
    updateCustomer(customerId: $customerId, input: $input, expectedVersion: $expectedVersion) {
      id
      version
      preferredName
      emails
      phoneNumbers {
        type
        number
      }
      addresses {
        type
        street
        city
        state
        zip
      }
    }
  }
`);

const UpdateCustomerMetadata = graphql(`
  mutation UpdateCustomerMetadata($customerId: ID!, $metadata: Metadata!, $expectedVersion: Int) {
    updateCustomer(customerId: $customerId, input: { metadata: $metadata }, expectedVersion: $expectedVersion) {
      id
      version
      metadata
    }
  }
`);

const DeleteCustomer = graphql(`
  mutation DeleteCustomer($customerId: ID!, $expectedVersion: Int) {
    deleteCustomer(customerId: $customerId, expectedVersion: $expectedVersion)
  }
`);

const ArchiveCustomer = graphql(`
  mutation ArchiveCustomer($customerId: ID!, $reason: CustomerArchiveReason!) {
    archiveCustomer(customerId: $customerId, reason: $reason) {
      id
      status
      archivedAt
      archiveReason
    }
  }
`);

const ARCHIVE_REASONS: readonly CustomerArchiveReason[] = [
  'CUSTOMER_REQUEST',
  'BANK_DECISION',
  'FRAUD',
  'DECEASED',
  'DUPLICATE',
  'OTHER',
];

type Details = NonNullable<CustomerDetailsQuery['customer']>;

const draftOf = (customer: Details): ContactDraft => ({
  preferredName: customer.preferredName ?? '',
  emails: [...customer.emails],
  phoneNumbers: customer.phoneNumbers.map(({ type, number }) => ({ type, number })),
  addresses: customer.addresses.map(({ type, street, city, state, zip }) => ({ type, street, city, state, zip })),
});

/** The fields of `after` that differ from `before` (lists compared whole: the API replaces a list). */
function changedContact<T extends object>(before: T, after: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(after).filter(
      ([field, value]) => JSON.stringify(value) !== JSON.stringify((before as Record<string, unknown>)[field]),
    ),
  ) as Partial<T>;
}

/**
 * The contact fields the contract lets change (preferred name, emails, phone numbers, addresses), changed only
 * if the customer is still as read (`expectedVersion`: otherwise PRECONDITION_FAILED, shown, and nothing
 * changes). Identity fields never change.
 */
function EditContact({ customer }: { customer: Details }) {
  const [draft, setDraft] = useState<ContactDraft | null>(null);
  // The fields as the form opened with them: only what the user changed is sent, so a reapply after a conflict
  // keeps what the other change did to the rest.
  const [opened, setOpened] = useState<ContactDraft | null>(null);
  const [updateCustomer, result] = useMutation(UpdateCustomer);
  const client = useApolloClient();
  const [saved, setSaved] = useState(false);
  if (!draft) {
    return (
      <section aria-labelledby="edit-heading">
        <h2 id="edit-heading">Contact details</h2>
        {saved ? (
          <p role="status" className="done">
            Saved.
          </p>
        ) : null}
        <Button
          className="react-aria-Button secondary"
          onPress={() => {
            setSaved(false);
            result.reset();
            setDraft(draftOf(customer));
            setOpened(draftOf(customer));
          }}
        >
          Edit contact details
        </Button>
      </section>
    );
  }
  // A business has no preferred name (FIELD_NOT_FOR_CUSTOMER_TYPE): only its contact lists are sent.
  const input = changedContact(
    customer.business ? listsInput(opened ?? draft) : contactInput(opened ?? draft),
    customer.business ? listsInput(draft) : contactInput(draft),
  );
  const save = (expectedVersion: number) => {
    // Nothing changed: nothing to send (the API refuses an update with no field).
    if (Object.keys(input).length === 0) return Promise.resolve(setDraft(null));
    return updateCustomer({ variables: { customerId: customer.customerId, input, expectedVersion } })
      .then((answer) => {
        if (answer.data) {
          setDraft(null);
          setSaved(true);
        }
      })
      .catch(() => undefined);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save(customer.version);
  };
  // The page reads the customer again (its profile shows the other change); the draft is sent over that version.
  const reapply = async () => {
    const [reread] = (await client.refetchQueries({ include: [CustomerDetails] })) as { data?: CustomerDetailsQuery }[];
    const version = reread?.data?.customer?.version;
    if (version !== undefined) await save(version);
  };
  return (
    <section aria-labelledby="edit-heading">
      <h2 id="edit-heading">Contact details</h2>
      <form onSubmit={submit} className="stacked-form wide-form">
        <FormProblems error={result.error} labels={contactLabel}>
          <ContactFields draft={draft} onChange={setDraft} withPreferredName={!customer.business} />
          <div className="actions">
            <Button type="submit" isDisabled={result.loading}>
              Save changes
            </Button>
            <Button className="react-aria-Button secondary" onPress={() => setDraft(null)} isDisabled={result.loading}>
              Cancel
            </Button>
          </div>
          {isConflict(result.error) ? (
            <ConflictNotice what="this customer" busy={result.loading} onReapply={() => void reapply()} />
          ) : (
            <ProblemMessage error={result.error} />
          )}
        </FormProblems>
      </form>
    </section>
  );
}

/** The customer's metadata; with `customers:write`, changed only if the customer is still as read. */
function CustomerMetadata({ customer, canEdit }: { customer: Details; canEdit: boolean }) {
  const [update, result] = useMutation(UpdateCustomerMetadata);
  return (
    <MetadataSection
      metadata={customer.metadata}
      canEdit={canEdit}
      busy={result.loading}
      error={result.error}
      onEdit={() => result.reset()}
      onSave={(metadata) =>
        update({ variables: { customerId: customer.customerId, metadata, expectedVersion: customer.version } }).then(
          (answer) => Boolean(answer.data),
          () => false,
        )
      }
    />
  );
}

/**
 * Deleting the customer, after a confirmation, only as read (`expectedVersion`). The API refuses while an
 * account is still linked (CUSTOMER_HAS_ACCOUNTS): shown in the dialog with its code, and nothing changes.
 */
function DeleteCustomerAction({ customer, onDeleted }: { customer: Details; onDeleted(): void }) {
  const [deleteCustomer, result] = useMutation(DeleteCustomer);
  return (
    <section aria-labelledby="delete-heading" className="danger-zone">
      <h2 id="delete-heading">Delete</h2>
      <p className="muted">A customer can be deleted once no account is linked to it.</p>
      <ConfirmDialog
        trigger="Delete customer"
        title={`Delete ${customerName(customer)}?`}
        confirmLabel="Delete for good"
        busy={result.loading}
        error={result.error}
        onOpen={() => result.reset()}
        onConfirm={() =>
          deleteCustomer({ variables: { customerId: customer.customerId, expectedVersion: customer.version } }).then(
            (answer) => {
              if (answer.data) onDeleted();
              return Boolean(answer.data);
            },
            () => false,
          )
        }
      >
        <p>The customer is deleted for good; this cannot be undone.</p>
      </ConfirmDialog>
    </section>
  );
}

/**
 * Archiving the customer (customers:write), after a confirmation with a reason from the API's list. The API refuses
 * while an account linked to it is open (CUSTOMER_HAS_OPEN_ACCOUNTS): shown in the dialog with its code, and
 * nothing changes.
 */
function ArchiveCustomerAction({ customer }: { customer: Details }) {
  const [archiveCustomer, result] = useMutation(ArchiveCustomer, {
    refetchQueries: ['CustomerDetails'],
    awaitRefetchQueries: true,
  });
  const [reason, setReason] = useState<'' | CustomerArchiveReason>('');
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const open = customer.accounts?.filter((account) => account.status !== 'CLOSED');
  return (
    <section aria-labelledby="archive-heading" className="danger-zone">
      <h2 id="archive-heading">Archive</h2>
      <p className="muted">
        A customer can be archived once every account linked to it is closed; it stays readable but opens no account.
      </p>
      <ConfirmDialog
        trigger="Archive customer…"
        title={`Archive ${customerName(customer)}?`}
        confirmLabel="Archive customer"
        busy={result.loading}
        error={result.error}
        onOpen={() => {
          result.reset();
          setReason('');
          setProblem(undefined);
        }}
        onConfirm={() => {
          if (reason === '') {
            setProblem('Choose why the customer is archived.');
            return Promise.resolve(false);
          }
          return archiveCustomer({ variables: { customerId: customer.customerId, reason } }).then(
            (answer) => Boolean(answer.data),
            () => false,
          );
        }}
      >
        <p>
          The customer opens no account and is left out of customer lists unless archived customers are asked for; its
          record, accounts and history stay.
          {open && open.length > 0
            ? ` ${open.length === 1 ? 'One account is' : `${open.length} accounts are`} still open: close ${open.length === 1 ? 'it' : 'them'} first.`
            : ''}
        </p>
        <div className="stacked-form">
          <ReasonSelect
            id="archive-reason"
            reasons={ARCHIVE_REASONS}
            value={reason}
            onChange={(value) => {
              setReason(value);
              setProblem(undefined);
            }}
            problem={problem}
          />
        </div>
      </ConfirmDialog>
    </section>
  );
}

type Business = NonNullable<Details['business']>;

/** A business's own fields (never its tax id, which the API never answers): terms of a `dl.facts`. */
function BusinessFacts({ business }: { business: Business }) {
  const formation = [business.formationState, business.formationCountry].filter(Boolean).join(', ');
  return (
    <>
      <dt>Legal name</dt>
      <dd>{business.legalName}</dd>
      <dt>Doing business as</dt>
      <dd>{business.doingBusinessAs ?? 'none'}</dd>
      <dt>Entity type</dt>
      <dd>{entityTypeLabel(business.entityType)}</dd>
      <dt>Formation</dt>
      <dd>
        {business.formationDate}, {formation}
      </dd>
      <dt>Industry (NAICS)</dt>
      <dd>{business.industry ?? 'none'}</dd>
      <dt>Website</dt>
      <dd>{business.website ?? 'none'}</dd>
    </>
  );
}

export function CustomerPage({ customerId }: { customerId: string }) {
  const withAccounts = useCan('accounts:read');
  const canEdit = useCan('customers:write');
  const canReadAudit = useCan('audit:read');
  const canReadEvents = useCan('events:read');
  const canReadVerification = useCan('verification:read');
  // The year picker reads the environment's clock, which needs accounts:read.
  const canReadTaxForms = useCan('tax-forms:read') && withAccounts;
  const [deleted, setDeleted] = useState<string | null>(null);
  const { data, error, loading } = useQuery(CustomerDetails, {
    variables: { customerId, withAccounts },
    skip: deleted !== null,
  });
  const customer = data?.customer;
  if (deleted !== null) {
    return (
      <>
        <h1>Customer deleted</h1>
        <p role="status" className="done">
          {deleted} was deleted.
        </p>
        <Link href={paths.customers()}>Back to customers</Link>
      </>
    );
  }
  if (!customer) {
    return (
      <>
        <h1>{loading ? 'Customer' : 'Customer not found'}</h1>
        <ProblemMessage error={error} />
      </>
    );
  }
  return (
    <>
      <h1>
        {customerName(customer)}
        {customer.status === 'ARCHIVED' ? (
          <>
            {' '}
            <span className="badge archived">Archived</span>
          </>
        ) : null}
      </h1>
      {customer.status === 'ARCHIVED' ? (
        <section className="status-banner archived" aria-labelledby="archived-banner-heading">
          <h2 id="archived-banner-heading">Archived</h2>
          <p>
            Archived{customer.archiveReason ? ` (${enumLabel(customer.archiveReason)})` : ''}
            {customer.archivedAt ? ` on ${instant(customer.archivedAt)}` : ''}. It opens no account and is left out of
            customer lists unless archived customers are asked for.
          </p>
        </section>
      ) : null}
      <ProblemMessage error={error} />
      <section aria-labelledby="profile-heading">
        <h2 id="profile-heading">Profile</h2>
        <dl className="facts">
          <dt>Kind</dt>
          <dd>{customerKind(customer.customerType)}</dd>
          {customer.business ? (
            <BusinessFacts business={customer.business} />
          ) : (
            <>
              <dt>Preferred name</dt>
              <dd>{customer.preferredName}</dd>
              <dt>Date of birth</dt>
              <dd>{customer.dateOfBirth}</dd>
            </>
          )}
          <dt>Emails</dt>
          <dd>{customer.emails.join(', ') || 'none'}</dd>
          <dt>Phone numbers</dt>
          <dd>{customer.phoneNumbers.map((phone) => `${phone.number} (${phone.type})`).join(', ') || 'none'}</dd>
          <dt>Addresses</dt>
          <dd>
            {customer.addresses.length === 0
              ? 'none'
              : customer.addresses.map((address, index) => (
                  <span key={index} className="address">
                    {address.street}, {address.city}, {address.state} {address.zip} ({address.type})
                  </span>
                ))}
          </dd>
          <dt>Customer id</dt>
          <dd>
            <code>{customer.customerId}</code>
          </dd>
        </dl>
      </section>
      {customer.business ? (
        <BeneficialOwners business={customer} canEdit={canEdit} />
      ) : (
        <OwnerOf ownerships={customer.beneficialOwnerOf} />
      )}
      {canReadVerification ? (
        <VerificationPanel customerId={customer.customerId} business={customer.business !== null} />
      ) : null}
      {canEdit ? <EditContact customer={customer} /> : null}
      {customer.accounts ? (
        <section aria-labelledby="accounts-heading">
          <h2 id="accounts-heading">Accounts</h2>
          {customer.accounts.length === 0 ? (
            <p className="empty">No accounts.</p>
          ) : (
            <ul className="results">
              {customer.accounts.map((account) => (
                <li key={account.accountId}>
                  <Link href={paths.account(account.accountId)}>{account.name}</Link>{' '}
                  {account.status === 'CLOSED' ? (
                    <>
                      <span className="badge closed">Closed</span>{' '}
                    </>
                  ) : null}
                  <span className="muted">
                    {account.type}, {money(account.amount, account.currency)}
                    {account.flags.length > 0 ? `, ${account.flags.join(', ')}` : ''}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : null}
      {canReadTaxForms ? <TaxFormsSection customerId={customer.customerId} /> : null}
      <CustomerMetadata customer={customer} canEdit={canEdit} />
      <NotesSection record={{ kind: 'customer', customerId: customer.customerId }} />
      {canReadAudit ? <TimelineSection customerId={customer.customerId} /> : null}
      {canReadEvents ? <RecentEvents record={{ kind: 'customer', customerId: customer.customerId }} /> : null}
      {canReadAudit ? (
        <section aria-labelledby="audit-heading">
          <h2 id="audit-heading">Audit trail</h2>
          <AuditTable
            filter={{ resourceId: customer.customerId }}
            caption="Audit events of this customer, oldest first"
            label="Audit pages of this customer"
          />
        </section>
      ) : null}
      {canEdit && customer.status !== 'ARCHIVED' ? <ArchiveCustomerAction customer={customer} /> : null}
      {canEdit ? (
        <DeleteCustomerAction customer={customer} onDeleted={() => setDeleted(customerName(customer))} />
      ) : null}
    </>
  );
}
