import { useApolloClient, useMutation, useQuery, useSubscription } from '@apollo/client/react';
import { createColumnHelper } from '@tanstack/react-table';
import { createContext, type FormEvent, useContext, useEffect, useRef, useState } from 'react';
import { Button, FieldError, Input, Label, Link, TextField } from 'react-aria-components';
import { downloadFile } from '../api/download';
import { BalanceChart } from '../components/BalanceChart';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { DataTable } from '../components/DataTable';
import { FormProblems, ProblemTextField } from '../components/FormProblems';
import { RecordSearch } from '../search/RecordSearch';
import { MetadataSection } from '../components/MetadataSection';
import { Pager } from '../components/Pager';
import { ProblemMessage } from '../components/ProblemMessage';
import { NotesSection } from '../components/NotesSection';
import { PageSections } from '../components/PageSections';
import { ReasonSelect } from '../components/ReasonSelect';
import { RecentEvents } from '../components/RecentEvents';
import { useCursorStack } from '../components/usePages';
import { customerName, enumLabel, instant, money } from '../format';
import { graphql } from '../gql';
import type {
  AccountCloseReason,
  AccountFlag,
  AccountRole,
  AccountSummaryQuery,
  AccountTransactionsQuery,
  TransactionFilter,
  TransactionStatus,
  TransactionType,
} from '../gql/graphql';
import { paths } from '../router';
import { newIdempotencyKey } from '../session';
import { useCan, useViewer } from '../viewer';
import { AccountNumbersPanel } from './AccountNumbersPanel';
import {
  ACCOUNT_PRODUCT_QUERY,
  AccountProductSection,
  FeesPanel,
  InterestPanel,
  useAccountProductFigures,
} from './AccountProductPanels';

/**
 * The account's summary. Later parts of the page (the balance chart from `Account.balanceHistory`, the
 * statement download, flag reasons from `Account.flagDetails`) add their fields here or a query of their own.
 */
const AccountSummary = graphql(`
  query AccountSummary($accountId: ID!, $withHolders: Boolean!) {
    account(accountId: $accountId) {
      id
      accountId
      name
      type
      currency
      status
      closedAt
      closeReason
      flags
      flagDetails {
        flag
        reason
        setAt
        setBy
        setByName
        until
      }
      overdraftLimit
      version
      metadata
      productCode
      balance {
        posted
        pending
        available
      }
      relationships @include(if: $withHolders) {
        customerId
        role
        customer {
          id
          customerId
          customerType
          business {
            legalName
          }
          firstName
          middleName
          lastName
        }
      }
    }
  }
`);

const UpdateAccountMetadata = graphql(`
  mutation UpdateAccountMetadata($accountId: ID!, $input: UpdateAccountInput!, $expectedVersion: Int) {
    updateAccount(accountId: $accountId, input: $input, expectedVersion: $expectedVersion) {
      id
      version
      name
      currency
      metadata
    }
  }
`);

const DeleteAccount = graphql(`
  mutation DeleteAccount($accountId: ID!, $expectedVersion: Int) {
    deleteAccount(accountId: $accountId, expectedVersion: $expectedVersion)
  }
`);

const CloseAccount = graphql(`
  mutation CloseAccount($accountId: ID!, $reason: AccountCloseReason!, $disbursementAccountId: ID) {
    closeAccount(accountId: $accountId, reason: $reason, disbursementAccountId: $disbursementAccountId) {
      id
      status
      closedAt
      closeReason
    }
  }
`);

const ReopenAccount = graphql(`
  mutation ReopenAccount($accountId: ID!) {
    reopenAccount(accountId: $accountId) {
      id
      status
      closedAt
      closeReason
    }
  }
`);

const DisbursementTarget = graphql(`
  query DisbursementTarget($accountId: ID!) {
    account(accountId: $accountId) {
      id
      accountId
      name
      currency
      status
    }
  }
`);

const AccountBalanceHistory = graphql(`
  query AccountBalanceHistory($accountId: ID!, $from: String!, $to: String!) {
    account(accountId: $accountId) {
      id
      balanceHistory(from: $from, to: $to, interval: DAY) {
        at
        posted
      }
    }
  }
`);

const AddHolder = graphql(`
  mutation AddAccountHolder($accountId: ID!, $customerId: ID!, $role: AccountRole) {
    addAccountCustomer(accountId: $accountId, customerId: $customerId, role: $role) {
      id
      customerIds
    }
  }
`);

const SetRelationship = graphql(`
  mutation SetAccountRelationship($accountId: ID!, $customerId: ID!, $role: AccountRole!, $expectedVersion: Int) {
    setAccountRelationship(
      accountId: $accountId
      customerId: $customerId
      role: $role
      expectedVersion: $expectedVersion
    ) {
      id
      version
      relationships {
        customerId
        role
      }
    }
  }
`);

const ROLES: readonly AccountRole[] = ['OWNER', 'AUTHORIZED_SIGNER', 'AUTHORIZED_USER', 'BENEFICIARY', 'CUSTODIAN'];

const RemoveHolder = graphql(`
  mutation RemoveAccountHolder($accountId: ID!, $customerId: ID!) {
    removeAccountCustomer(accountId: $accountId, customerId: $customerId) {
      id
      customerIds
    }
  }
`);

const AccountTransactions = graphql(`
  query AccountTransactions($accountId: ID!, $after: String, $filter: TransactionFilter) {
    account(accountId: $accountId) {
      id
      transactions(first: 10, after: $after, filter: $filter) {
        nodes {
          transactionId
          type
          status
          amount
          currency
          description
          balanceAfter
          createdAt
          transferId
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`);

const SetFlag = graphql(`
  mutation SetAccountFlag($accountId: ID!, $flag: AccountFlag!, $reason: String, $until: String) {
    setAccountFlag(accountId: $accountId, flag: $flag, reason: $reason, until: $until) {
      id
      flags
      flagDetails {
        flag
        reason
        setAt
        setBy
        setByName
        until
      }
    }
  }
`);

const ClearFlag = graphql(`
  mutation ClearAccountFlag($accountId: ID!, $flag: AccountFlag!, $reason: String) {
    clearAccountFlag(accountId: $accountId, flag: $flag, reason: $reason) {
      id
      flags
      flagDetails {
        flag
        reason
        setAt
        setBy
        setByName
        until
      }
    }
  }
`);

const TransferTarget = graphql(`
  query TransferTarget($accountId: ID!, $withHolders: Boolean!) {
    account(accountId: $accountId) {
      id
      name
      currency
      customers @include(if: $withHolders) {
        id
        firstName
        middleName
        lastName
        business {
          legalName
        }
      }
    }
  }
`);

const Transfer = graphql(`
  mutation TransferMoney($input: TransferInput!, $idempotencyKey: String) {
    transfer(input: $input, idempotencyKey: $idempotencyKey) {
      transferId
      amount
      currency
    }
  }
`);

const PostHold = graphql(`
  mutation PostHold($accountId: ID!, $transactionId: ID!, $idempotencyKey: String) {
    postHold(accountId: $accountId, transactionId: $transactionId, idempotencyKey: $idempotencyKey) {
      transactionId
      status
    }
  }
`);

const VoidHold = graphql(`
  mutation VoidHold($accountId: ID!, $transactionId: ID!, $idempotencyKey: String) {
    voidHold(accountId: $accountId, transactionId: $transactionId, idempotencyKey: $idempotencyKey) {
      transactionId
      status
    }
  }
`);

const SetOverdraftLimit = graphql(`
  mutation SetOverdraftLimit($accountId: ID!, $overdraftLimit: Decimal!) {
    setOverdraftLimit(accountId: $accountId, overdraftLimit: $overdraftLimit) {
      id
      overdraftLimit
      balance {
        posted
        pending
        available
      }
    }
  }
`);

const FLAGS: { flag: AccountFlag; label: string }[] = [
  { flag: 'FROZEN', label: 'Frozen' },
  { flag: 'DEBITS_BLOCKED', label: 'Debits blocked' },
  { flag: 'CREDITS_BLOCKED', label: 'Credits blocked' },
];

type TransactionRow = NonNullable<AccountTransactionsQuery['account']>['transactions']['nodes'][number];
const column = createColumnHelper<TransactionRow>();
const transactionColumns = [
  column.accessor('createdAt', { header: 'Date', cell: (info) => instant(info.getValue()) }),
  column.accessor('description', { header: 'Description' }),
  column.accessor('type', { header: 'Type' }),
  column.accessor('status', { header: 'Status' }),
  column.accessor('amount', { header: 'Amount', cell: (info) => money(info.getValue(), info.row.original.currency) }),
  column.accessor('balanceAfter', {
    header: 'Balance after',
    cell: (info) => (info.getValue() === null ? '' : money(info.getValue()!, info.row.original.currency)),
  }),
];

interface HoldActionState {
  act(row: TransactionRow, action: 'post' | 'void'): Promise<boolean>;
  busy: boolean;
  error: unknown;
  reset(): void;
}
/**
 * The hold actions' state, given to the rows through context: the column below is one constant, so a re-render of
 * the table (a reset, a refetch) keeps an open confirmation open instead of remounting its cell.
 */
const HoldActionContext = createContext<HoldActionState | null>(null);

/**
 * Post or void a hold, each after a confirmation naming the amount and what follows: one idempotency key per hold and
 * action, reused on every press, so a double click or a retry moves the money once.
 */
function HoldActions({ row }: { row: TransactionRow }) {
  const state = useContext(HoldActionContext);
  if (!state || row.status !== 'PENDING') return null;
  const { act, busy, error, reset } = state;
  const what = row.description || row.transactionId;
  const amount = money(row.amount.replace(/^-/, ''), row.currency);
  return (
    <span className="row-actions">
      <ConfirmDialog
        tone="primary"
        triggerClassName="small"
        trigger={`Post hold: ${what}`}
        title={`Post the hold "${what}"?`}
        confirmLabel={`Post ${amount}`}
        busy={busy}
        error={error}
        onOpen={reset}
        onConfirm={() => act(row, 'post')}
      >
        <p>
          {amount} leaves the account for good: the hold becomes a posted withdrawal and the posted balance falls by
          that amount.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        triggerClassName="small"
        trigger={`Void hold: ${what}`}
        title={`Void the hold "${what}"?`}
        confirmLabel="Void hold"
        busy={busy}
        error={error}
        onOpen={reset}
        onConfirm={() => act(row, 'void')}
      >
        <p>The hold of {amount} is released: the money is available again and nothing is posted.</p>
      </ConfirmDialog>
    </span>
  );
}

const holdColumn = column.display({
  id: 'actions',
  header: 'Actions',
  cell: (info) => <HoldActions row={info.row.original} />,
});
const transactionColumnsWithActions = [...transactionColumns, holdColumn];

type Summary = NonNullable<AccountSummaryQuery['account']>;

/** An API decimal that is zero ("0", "0.00", "-0.00"), read as text: never through a float. */
const isZero = (amount: string) => /^-?0*(\.0*)?$/.test(amount);

/**
 * The account's metadata; with `accounts:write`, changed through `updateAccount` (which takes the name and
 * currency too: sent as they are) only if the account is still as read.
 */
function AccountMetadata({ account }: { account: Summary }) {
  const canWrite = useCan('accounts:write');
  const [update, result] = useMutation(UpdateAccountMetadata);
  return (
    <MetadataSection
      metadata={account.metadata}
      canEdit={canWrite}
      busy={result.loading}
      error={result.error}
      onEdit={() => result.reset()}
      onSave={(metadata) =>
        update({
          variables: {
            accountId: account.accountId,
            input: { name: account.name, currency: account.currency, metadata },
            expectedVersion: account.version,
          },
        }).then(
          (answer) => Boolean(answer.data),
          () => false,
        )
      }
    />
  );
}

/**
 * Deleting the account, after a confirmation, only as read. The API refuses while money or a hold is on it
 * (ACCOUNT_BALANCE_NOT_ZERO): shown in the dialog with its code, and nothing changes.
 */
function DeleteAccountAction({ account, onDeleted }: { account: Summary; onDeleted(): void }) {
  const [deleteAccount, result] = useMutation(DeleteAccount);
  // The API refuses a balance or a pending hold (ACCOUNT_NOT_EMPTY); the page says so before offering it.
  const holding = !isZero(account.balance.posted) || !isZero(account.balance.pending);
  if (holding)
    return (
      <section aria-labelledby="delete-heading" className="danger-zone">
        <h2 id="delete-heading">Delete</h2>
        <p role="note">
          This account holds {money(account.balance.posted, account.currency)}
          {isZero(account.balance.pending) ? '' : ` with ${money(account.balance.pending, account.currency)} on hold`}:
          it cannot be deleted. To end it, use <a href="#close-heading">Close account…</a> above, which moves the
          balance to another account and keeps the history; an account can be deleted only at a zero balance with no
          pending hold.
        </p>
      </section>
    );
  return (
    <section aria-labelledby="delete-heading" className="danger-zone">
      <h2 id="delete-heading">Delete</h2>
      <p className="muted">
        An account can be deleted at a zero balance with no pending hold; its transactions stay in the ledger.
      </p>
      <ConfirmDialog
        trigger="Delete account"
        title={`Delete ${account.name}?`}
        confirmLabel="Delete for good"
        busy={result.loading}
        error={result.error}
        onOpen={() => result.reset()}
        onConfirm={() =>
          deleteAccount({ variables: { accountId: account.accountId, expectedVersion: account.version } }).then(
            (answer) => {
              if (answer.data) onDeleted();
              return Boolean(answer.data);
            },
            () => false,
          )
        }
      >
        <p>
          The account is closed for good and its holders lose it; this cannot be undone. Balance now:{' '}
          {money(account.balance.posted, account.currency)}.
        </p>
      </ConfirmDialog>
    </section>
  );
}

const CLOSE_REASONS: readonly AccountCloseReason[] = [
  'CUSTOMER_REQUEST',
  'BANK_DECISION',
  'FRAUD',
  'DORMANCY',
  'DECEASED',
  'OTHER',
];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Closing the account (accounts:controls), after a confirmation that names the balance and, when money remains,
 * the account it moves to (by id, checked: another open account of the same currency) and how much; a reason from
 * the API's list is required. The API's refusals (ACCOUNT_HAS_PENDING_HOLDS, ACCOUNT_BALANCE_NOT_ZERO, ...) are
 * shown in the dialog with their codes, and nothing changes. A closed account offers its reopening instead.
 */
function CloseAccountAction({ account }: { account: Summary }) {
  const refetch = { refetchQueries: ['AccountSummary', 'AccountTransactions'], awaitRefetchQueries: true };
  const [closeAccount, closed] = useMutation(CloseAccount, refetch);
  const [reopenAccount, reopened] = useMutation(ReopenAccount, refetch);
  const [reason, setReason] = useState<'' | AccountCloseReason>('');
  const [target, setTarget] = useState('');
  const [problems, setProblems] = useState<{ reason?: string; target?: string }>({});
  const posted = account.balance.posted;
  const needsTarget = !isZero(posted) && !posted.startsWith('-');
  const targetId = target.trim();
  const lookup = useQuery(DisbursementTarget, {
    variables: { accountId: targetId },
    skip: !needsTarget || !UUID.test(targetId) || targetId === account.accountId,
  });
  const found = lookup.data?.account;
  const targetProblem = (): string | undefined => {
    if (!needsTarget) return undefined;
    if (targetId === '') return 'Enter the id of the account that receives the balance.';
    if (!UUID.test(targetId)) return 'INVALID_FORMAT An account id, e.g. 6f1c2e0a-…';
    if (targetId === account.accountId) return 'The balance cannot move to the account being closed.';
    if (lookup.loading) return undefined;
    if (lookup.data && found === null) return 'ACCOUNT_NOT_FOUND No account of this environment has this id.';
    if (found && found.currency !== account.currency)
      return `CURRENCY_MISMATCH That account holds ${found.currency}, this one ${account.currency}.`;
    if (found?.status === 'CLOSED') return 'ACCOUNT_CLOSED That account is closed.';
    return undefined;
  };
  const shownTargetProblem = problems.target ?? (targetId !== '' && UUID.test(targetId) ? targetProblem() : undefined);
  if (account.status === 'CLOSED') {
    return (
      <section aria-labelledby="close-heading" className="danger-zone">
        <h2 id="close-heading">Reopen</h2>
        <p className="muted">
          A closed account can be reopened for a while after it closed; then it accepts postings again.
        </p>
        <ConfirmDialog
          tone="primary"
          trigger="Reopen account…"
          title={`Reopen ${account.name}?`}
          confirmLabel="Reopen account"
          busy={reopened.loading}
          error={reopened.error}
          onOpen={() => reopened.reset()}
          onConfirm={() =>
            reopenAccount({ variables: { accountId: account.accountId } }).then(
              (answer) => Boolean(answer.data),
              () => false,
            )
          }
        >
          <p>
            The account opens again: deposits, withdrawals, holds and transfers are accepted. Its balance is{' '}
            {money(posted, account.currency)}.
          </p>
        </ConfirmDialog>
      </section>
    );
  }
  const confirm = async (): Promise<boolean> => {
    const next = {
      reason: reason === '' ? 'Choose why the account closes.' : undefined,
      target: targetProblem() ?? (needsTarget && !found ? 'Wait for the account to be found.' : undefined),
    };
    setProblems(next);
    if (next.reason || next.target) return false;
    return closeAccount({
      variables: {
        accountId: account.accountId,
        reason: reason as AccountCloseReason,
        ...(needsTarget && { disbursementAccountId: targetId }),
      },
    }).then(
      (answer) => Boolean(answer.data),
      () => false,
    );
  };
  return (
    <section aria-labelledby="close-heading" className="danger-zone">
      <h2 id="close-heading">Close</h2>
      <p className="muted">
        A closed account refuses every posting and keeps its history and statements; it can be reopened for a while.
      </p>
      <ConfirmDialog
        trigger="Close account…"
        title={`Close ${account.name}?`}
        confirmLabel="Close account"
        busy={closed.loading}
        error={closed.error}
        onOpen={() => {
          closed.reset();
          setReason('');
          setTarget('');
          setProblems({});
        }}
        onConfirm={confirm}
      >
        <p>
          Balance now: <strong>{money(posted, account.currency)}</strong>
          {isZero(account.balance.pending)
            ? '.'
            : `, with ${money(account.balance.pending, account.currency)} on hold: post or void the holds first.`}
          {posted.startsWith('-') ? ' The balance is negative: credit it to zero first.' : ''}
        </p>
        <div className="stacked-form">
          {needsTarget ? (
            <RecordSearch
              className="field picker"
              label="Find the account that receives the balance"
              showLabel
              kinds={['account']}
              placeholder="An account's name, its id or external id, or a holder's name"
              onPick={(picked) => {
                setTarget(picked.id);
                setProblems({ ...problems, target: undefined });
              }}
            />
          ) : null}
          {needsTarget ? (
            <TextField
              className="field"
              value={target}
              onChange={(value) => {
                setTarget(value);
                setProblems({ ...problems, target: undefined });
              }}
              isRequired
              isInvalid={shownTargetProblem !== undefined}
              validationBehavior="aria"
            >
              <Label>Account id that receives the balance</Label>
              <Input />
              <FieldError className="field-problem">{shownTargetProblem}</FieldError>
            </TextField>
          ) : null}
          {needsTarget && found && !targetProblem() ? (
            <p role="status">
              {money(posted, account.currency)} will move to <strong>{found.name}</strong>.
            </p>
          ) : null}
          <ReasonSelect
            id="close-reason"
            reasons={CLOSE_REASONS}
            value={reason}
            onChange={(value) => {
              setReason(value);
              setProblems({ ...problems, reason: undefined });
            }}
            problem={problems.reason}
          />
        </div>
      </ConfirmDialog>
    </section>
  );
}

const LiveAccountUpdated = graphql(`
  subscription LiveAccountUpdated($accountId: ID!) {
    accountUpdated(accountId: $accountId) {
      id
    }
  }
`);

const LiveTransactionPosted = graphql(`
  subscription LiveTransactionPosted($accountId: ID!) {
    transactionPosted(accountId: $accountId) {
      transactionId
    }
  }
`);

/**
 * The page follows its own account: a change by anyone (another tab, another agent, the end of day) or a posting
 * reads the summary, the transactions and the recent events again, so what the page shows is never stale.
 */
function useLiveAccount(accountId: string, skip: boolean, onProduct: boolean) {
  const client = useApolloClient();
  // One reading at a time, and one more after it when a change arrived meanwhile: Apollo joins a refetch to the
  // same query already in flight, whose answer may predate the change (a deposit just after a flag's lifting).
  const reading = useRef({ inFlight: false, again: false });
  const reread = () => {
    if (reading.current.inFlight) {
      reading.current.again = true;
      return;
    }
    reading.current.inFlight = true;
    void client
      .refetchQueries({
        include: [
          'AccountSummary',
          'AccountTransactions',
          'AccountRecentEvents',
          // A posting moves the interest's tier and, at a month's end, brings a fee assessment.
          ...(onProduct ? [ACCOUNT_PRODUCT_QUERY] : []),
        ],
      })
      .catch(() => undefined)
      .finally(() => {
        reading.current.inFlight = false;
        if (!reading.current.again) return;
        reading.current.again = false;
        reread();
      });
  };
  useSubscription(LiveAccountUpdated, { variables: { accountId }, skip, onData: reread });
  useSubscription(LiveTransactionPosted, { variables: { accountId }, skip, onData: reread });
}

export function AccountPage({ accountId }: { accountId: string }) {
  const withHolders = useCan('customers:read');
  const canTransfer = useCan('transactions:write');
  const canDelete = useCan('accounts:write');
  const canControl = useCan('accounts:controls');
  const canReadEvents = useCan('events:read');
  const canReadNotes = useCan('notes:read');
  const [deleted, setDeleted] = useState<{ name: string; holders: readonly Holder[] } | null>(null);
  const { data, error, loading } = useQuery(AccountSummary, {
    variables: { accountId, withHolders },
    skip: deleted !== null,
  });
  const account = data?.account;
  const product = useAccountProductFigures(accountId, deleted ? null : account?.productCode);
  useLiveAccount(accountId, deleted !== null || !account, Boolean(account?.productCode));
  if (deleted) {
    return (
      <>
        <h1>Account deleted</h1>
        <p role="status" className="done">
          {deleted.name} was deleted.
        </p>
        <ul className="results" aria-label="Its holders">
          {deleted.holders.map((holder) => (
            <li key={holder.customerId}>
              <Link href={paths.customer(holder.customerId)}>{customerName(holder)}</Link>
            </li>
          ))}
        </ul>
      </>
    );
  }
  if (!account) {
    return (
      <>
        <h1>{loading ? 'Account' : 'Account not found'}</h1>
        <ProblemMessage error={error} />
      </>
    );
  }
  // A closed account refuses every posting: no form offers one.
  const open = account.status !== 'CLOSED';
  return (
    <>
      <h1>
        {account.name}
        {account.status === 'CLOSED' ? (
          <>
            {' '}
            <span className="badge closed">Closed</span>
          </>
        ) : null}
      </h1>
      <ClosedBanner account={account} />
      <AccountStatusBanner details={account.flagDetails} />
      <ProblemMessage error={error} />
      <PageSections
        sections={[
          ['balance-heading', 'Balance'],
          ['account-numbers-heading', 'Account numbers'],
          ...(account.productCode ? [['product-heading', 'Product'] as const] : []),
          ...(product.hasInterest ? [['interest-heading', 'Interest'] as const] : []),
          ...(product.hasFees ? [['fees-heading', 'Fees'] as const] : []),
          ...(account.relationships ? [['holders-heading', 'Holders'] as const] : []),
          ['flags-heading', 'Flags'],
          ['statement-heading', 'Statement'],
          ['transactions-heading', 'Transactions'],
          ...(canTransfer && open ? [['transfer-heading', 'Transfer'] as const] : []),
          ['metadata-heading', 'Metadata'],
          ...(canReadNotes ? [['notes-heading', 'Notes'] as const] : []),
          ...(canReadEvents ? [['recent-events-heading', 'Recent events'] as const] : []),
          ...(canControl ? [['close-heading', account.status === 'CLOSED' ? 'Reopen' : 'Close'] as const] : []),
          ...(canDelete ? [['delete-heading', 'Delete'] as const] : []),
        ]}
      />
      <section aria-labelledby="balance-heading">
        <h2 id="balance-heading">Balance</h2>
        <dl className="facts balance">
          <dt>Posted</dt>
          <dd>{money(account.balance.posted, account.currency)}</dd>
          <dt>Pending</dt>
          <dd>{money(account.balance.pending, account.currency)}</dd>
          <dt>Available</dt>
          <dd>{money(account.balance.available, account.currency)}</dd>
          <dt>Overdraft limit</dt>
          <dd>{money(account.overdraftLimit, account.currency)}</dd>
          <dt>Type</dt>
          <dd>{account.type}</dd>
          <dt>Account id</dt>
          <dd>
            <code>{account.accountId}</code>
          </dd>
        </dl>
        <BalanceHistory accountId={account.accountId} currency={account.currency} posted={account.balance.posted} />
        {open ? <OverdraftLimit accountId={account.accountId} currency={account.currency} /> : null}
      </section>
      {/* Keyed: another account's page starts with its numbers hidden (the digits leave with the panel). */}
      <AccountNumbersPanel key={account.accountId} accountId={account.accountId} />
      {account.productCode ? (
        <>
          <AccountProductSection figures={product} />
          <InterestPanel figures={product} currency={account.currency} />
          <FeesPanel figures={product} currency={account.currency} />
        </>
      ) : null}
      {account.relationships ? (
        <Holders accountId={account.accountId} version={account.version} relationships={account.relationships} />
      ) : null}
      <Flags accountId={account.accountId} details={account.flagDetails} />
      <StatementDownload accountId={account.accountId} />
      <Transactions accountId={account.accountId} open={open} />
      {canTransfer && open ? <TransferForm fromAccountId={account.accountId} currency={account.currency} /> : null}
      <AccountMetadata account={account} />
      <NotesSection record={{ kind: 'account', accountId: account.accountId }} />
      {canReadEvents ? <RecentEvents record={{ kind: 'account', accountId: account.accountId }} /> : null}
      {canControl ? <CloseAccountAction account={account} /> : null}
      {canDelete ? (
        <DeleteAccountAction
          account={account}
          onDeleted={() =>
            setDeleted({
              name: account.name,
              holders: (account.relationships ?? []).flatMap(({ customer }) => (customer ? [customer] : [])),
            })
          }
        />
      ) : null}
    </>
  );
}

type Relationship = NonNullable<NonNullable<AccountSummaryQuery['account']>['relationships']>[number];
type Holder = NonNullable<Relationship['customer']>;

/** A linked customer's name, or its id when the token may not read it. */
const holderName = (relationship: Relationship) =>
  relationship.customer ? customerName(relationship.customer) : relationship.customerId;

/**
 * The account's customers as links, each with its role in words; with `accounts:write`, give one another role
 * (only while the account is as read: `expectedVersion`), add one by customer id with a role, or remove one. The
 * API's refusals (LAST_OWNER, ROLE_REQUIRES_INDIVIDUAL, CUSTOMER_ALREADY_LINKED, …) are shown with their codes.
 */
function Holders({
  accountId,
  version,
  relationships,
}: {
  accountId: string;
  version: number;
  relationships: readonly Relationship[];
}) {
  const canWrite = useCan('accounts:write');
  const refetch = { refetchQueries: ['AccountSummary'], awaitRefetchQueries: true };
  const [addHolder, added] = useMutation(AddHolder, refetch);
  const [removeHolder, removed] = useMutation(RemoveHolder, refetch);
  const [setRelationship, set] = useMutation(SetRelationship, refetch);
  const [customerId, setCustomerId] = useState('');
  const [role, setRole] = useState<AccountRole>('OWNER');
  const [roles, setRoles] = useState<Record<string, AccountRole>>({});
  const busy = added.loading || removed.loading || set.loading;
  const resetAll = () => {
    added.reset();
    removed.reset();
    set.reset();
  };
  const add = (event: FormEvent) => {
    event.preventDefault();
    resetAll();
    void addHolder({ variables: { accountId, customerId: customerId.trim(), role } })
      .then(() => {
        setCustomerId('');
        setRole('OWNER');
      })
      .catch(() => undefined);
  };
  const changeRole = (event: FormEvent, relationship: Relationship) => {
    event.preventDefault();
    resetAll();
    const chosen = roles[relationship.customerId] ?? relationship.role;
    void setRelationship({
      variables: { accountId, customerId: relationship.customerId, role: chosen, expectedVersion: version },
    })
      .then(() => setRoles(({ [relationship.customerId]: _done, ...others }) => others))
      .catch(() => undefined);
  };
  return (
    <section aria-labelledby="holders-heading">
      <h2 id="holders-heading">Holders</h2>
      <ul className="results" aria-label="Customers of the account and their roles">
        {relationships.map((relationship) => {
          const name = holderName(relationship);
          const selectId = `role-${relationship.customerId}`;
          return (
            <li key={relationship.customerId}>
              <Link href={paths.customer(relationship.customerId)}>{name}</Link>{' '}
              <span className="role">{enumLabel(relationship.role)}</span>
              {canWrite ? (
                <>
                  {' '}
                  <form className="row-actions" onSubmit={(event) => changeRole(event, relationship)}>
                    <label htmlFor={selectId}>Role of {name}</label>
                    <select
                      id={selectId}
                      value={roles[relationship.customerId] ?? relationship.role}
                      onChange={(event) =>
                        setRoles({ ...roles, [relationship.customerId]: event.target.value as AccountRole })
                      }
                    >
                      {ROLES.map((option) => (
                        <option key={option} value={option}>
                          {enumLabel(option)}
                        </option>
                      ))}
                    </select>
                    <Button type="submit" className="react-aria-Button small" isDisabled={busy}>
                      Set role of {name}
                    </Button>
                  </form>{' '}
                  <ConfirmDialog
                    triggerClassName="small"
                    trigger={`Remove holder ${name}`}
                    title={`Remove ${name} from the account?`}
                    confirmLabel="Remove holder"
                    busy={busy}
                    error={removed.error}
                    onOpen={resetAll}
                    onConfirm={() =>
                      removeHolder({ variables: { accountId, customerId: relationship.customerId } }).then(
                        (answer) => Boolean(answer.data),
                        () => false,
                      )
                    }
                  >
                    <p>
                      {name} ({enumLabel(relationship.role).toLowerCase()}) can no longer act on this account; the
                      customer record stays. An account keeps at least one owner (LAST_OWNER otherwise).
                    </p>
                  </ConfirmDialog>
                </>
              ) : null}
            </li>
          );
        })}
      </ul>
      {canWrite ? (
        <form onSubmit={add} className="inline-form">
          <RecordSearch
            className="field picker"
            label="Find a new holder"
            showLabel
            kinds={['customer']}
            placeholder="A name, an email, a phone or an id"
            onPick={(picked) => setCustomerId(picked.id)}
          />
          <TextField className="field" value={customerId} onChange={setCustomerId} isRequired>
            <Label>Customer id of a new holder</Label>
            <Input />
          </TextField>
          <div className="field">
            <label htmlFor="new-holder-role">Role of the new holder</label>
            <select id="new-holder-role" value={role} onChange={(event) => setRole(event.target.value as AccountRole)}>
              {ROLES.map((option) => (
                <option key={option} value={option}>
                  {enumLabel(option)}
                </option>
              ))}
            </select>
          </div>
          <Button type="submit" isDisabled={busy}>
            Add holder
          </Button>
        </form>
      ) : null}
      <ProblemMessage error={added.error ?? set.error} />
    </section>
  );
}

type FlagDetail = NonNullable<AccountSummaryQuery['account']>['flagDetails'][number];

/** A closed account says so at the top of its page: why and when, and what it still does. */
function ClosedBanner({ account }: { account: Summary }) {
  if (account.status !== 'CLOSED') return null;
  return (
    <section className="status-banner closed" aria-labelledby="closed-banner-heading">
      <h2 id="closed-banner-heading">Closed</h2>
      <p>
        Closed{account.closeReason ? ` (${enumLabel(account.closeReason)})` : ''}
        {account.closedAt ? ` on ${instant(account.closedAt)}` : ''}. Every posting is refused; its history and
        statements stay.
      </p>
    </section>
  );
}

/**
 * What stops money on this account, at the top of the page where it cannot be missed: each flag with its reason,
 * who set it (by name) and when, and until when. Nothing when the account is open to every posting.
 */
function AccountStatusBanner({ details }: { details: readonly FlagDetail[] }) {
  if (details.length === 0) return null;
  return (
    <section className="status-banner" aria-labelledby="status-banner-heading">
      <h2 id="status-banner-heading">{details.map((detail) => flagLabel(detail.flag)).join(', ')}</h2>
      <ul>
        {details.map((detail) => (
          <li key={detail.flag}>
            <strong>{flagLabel(detail.flag)}</strong>
            {detail.reason ? `: ${detail.reason}` : ''}. Set by {setterOf(detail) || 'unknown'}
            {detail.setAt ? ` on ${instant(detail.setAt)}` : ''};{' '}
            {detail.until ? `lifts itself on ${instant(detail.until)}` : 'until lifted by hand'}.{' '}
            {FLAG_EFFECTS_WHILE[detail.flag]}
          </li>
        ))}
      </ul>
    </section>
  );
}
/** What each flag stops while it is set, said in the banner. */
const FLAG_EFFECTS_WHILE: Readonly<Record<string, string>> = {
  FROZEN: 'No money moves in or out.',
  DEBITS_BLOCKED: 'No money leaves the account.',
  CREDITS_BLOCKED: 'No money comes in.',
};
/** What lifting each flag lets happen again, said in the confirmation. */
const FLAG_EFFECTS: Readonly<Record<string, string>> = {
  FROZEN: 'Money can move in and out of the account again.',
  DEBITS_BLOCKED: 'Money can leave the account again.',
  CREDITS_BLOCKED: 'Money can come into the account again.',
};
/** Who set a flag as people read it (its name then); the principal id for a flag set before names were kept. */
const setterOf = (detail: FlagDetail) => detail.setByName ?? detail.setBy ?? '';
const flagLabel = (flag: string) => FLAGS.find((known) => known.flag === flag)?.label ?? flag;
const flagColumn = createColumnHelper<FlagDetail>();
const flagColumns = [
  flagColumn.accessor('flag', { header: 'Flag', cell: (info) => flagLabel(info.getValue()) }),
  flagColumn.accessor('reason', { header: 'Reason', cell: (info) => info.getValue() ?? '' }),
  flagColumn.accessor('setBy', { header: 'Set by', cell: (info) => setterOf(info.row.original) }),
  flagColumn.accessor('setAt', { header: 'Set at', cell: (info) => instant(info.getValue()) }),
  flagColumn.accessor('until', {
    header: 'Until',
    cell: (info) => (info.getValue() ? instant(info.getValue()) : 'lifted by hand'),
  }),
];

/** A `datetime-local` value (the browser's time zone) as an RFC 3339 instant in UTC; empty: none. */
const untilInstant = (local: string): string | undefined =>
  local.trim() === '' ? undefined : new Date(local).toISOString();

/**
 * The account's flags with why, when, by whom and until when (`Account.flagDetails`), and, for a token with
 * `accounts:controls`, a form to set one (a reason is required by the form; the end is optional) and a
 * button to lift each, whose dialog asks why (kept with the lift and shown in the customer's timeline).
 */
function Flags({ accountId, details }: { accountId: string; details: readonly FlagDetail[] }) {
  const canControl = useCan('accounts:controls');
  const [setFlag, set] = useMutation(SetFlag);
  const [clearFlag, clear] = useMutation(ClearFlag);
  const busy = set.loading || clear.loading;
  const unset = FLAGS.filter(({ flag }) => !details.some((detail) => detail.flag === flag));
  const [chosen, setChosen] = useState<AccountFlag>('FROZEN');
  const [reason, setReason] = useState('');
  const [until, setUntil] = useState('');
  const [liftReason, setLiftReason] = useState('');
  const [liftProblem, setLiftProblem] = useState<string | undefined>(undefined);
  const flag = unset.some((option) => option.flag === chosen) ? chosen : unset[0]?.flag;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!flag || reason.trim() === '') return;
    let end: string | undefined;
    try {
      end = untilInstant(until);
    } catch {
      end = until; // not a date: the API answers VALIDATION_FAILED, shown below
    }
    void setFlag({ variables: { accountId, flag, reason: reason.trim(), ...(end && { until: end }) } })
      .then(() => {
        setReason('');
        setUntil('');
      })
      .catch(() => undefined);
  };
  return (
    <section aria-labelledby="flags-heading">
      <h2 id="flags-heading">Flags</h2>
      {details.length === 0 ? <p>No flags are set.</p> : <p>Set: {details.map((detail) => detail.flag).join(', ')}.</p>}
      {details.length > 0 ? (
        <DataTable
          caption="Flags set on the account"
          columns={flagColumns}
          data={[...details]}
          empty="No flags are set."
        />
      ) : null}
      {canControl && details.length > 0 ? (
        <ul className="actions">
          {details.map((detail) => (
            <li key={detail.flag}>
              <ConfirmDialog
                trigger={`Lift ${flagLabel(detail.flag).toLowerCase()}`}
                title={`Lift ${flagLabel(detail.flag).toLowerCase()}?`}
                confirmLabel={`Lift ${flagLabel(detail.flag).toLowerCase()}`}
                busy={busy}
                error={clear.error}
                onOpen={() => {
                  clear.reset();
                  setLiftReason('');
                  setLiftProblem(undefined);
                }}
                onConfirm={() => {
                  if (liftReason.trim() === '') {
                    setLiftProblem('Enter the reason the flag is lifted.');
                    return Promise.resolve(false);
                  }
                  return clearFlag({ variables: { accountId, flag: detail.flag, reason: liftReason.trim() } }).then(
                    (answer) => Boolean(answer.data),
                    () => false,
                  );
                }}
              >
                <p>
                  {FLAG_EFFECTS[detail.flag] ?? 'The flag is lifted.'} It was set
                  {detail.reason ? ` for "${detail.reason}"` : ''}
                  {detail.setAt ? ` at ${instant(detail.setAt)}` : ''}.
                </p>
                <div className="field">
                  <label htmlFor={`lift-reason-${detail.flag}`}>Reason for lifting</label>
                  <input
                    id={`lift-reason-${detail.flag}`}
                    value={liftReason}
                    required
                    maxLength={500}
                    aria-invalid={liftProblem ? true : undefined}
                    aria-describedby={liftProblem ? `lift-reason-${detail.flag}-problem` : undefined}
                    onChange={(event) => {
                      setLiftReason(event.target.value);
                      setLiftProblem(undefined);
                    }}
                  />
                  {liftProblem ? (
                    <span id={`lift-reason-${detail.flag}-problem`} className="field-problem">
                      {liftProblem}
                    </span>
                  ) : null}
                </div>
              </ConfirmDialog>
            </li>
          ))}
        </ul>
      ) : null}
      {canControl && flag ? (
        <form onSubmit={submit} className="stacked-form" aria-labelledby="set-flag-heading">
          <h3 id="set-flag-heading">Set a flag</h3>
          <div className="field">
            <label htmlFor="flag-choice">Flag</label>
            <select id="flag-choice" value={flag} onChange={(event) => setChosen(event.target.value as AccountFlag)}>
              {unset.map((option) => (
                <option key={option.flag} value={option.flag}>
                  {option.label}
                </option>
              ))}
            </select>
          </div>
          <FormProblems error={set.error} labels={(field) => FLAG_FORM_LABELS[field]}>
            <ProblemTextField
              field="reason"
              label={FLAG_FORM_LABELS.reason}
              value={reason}
              onChange={setReason}
              isRequired
              maxLength={500}
              validate={(value) => (value.trim() === '' ? 'Enter the reason the flag is set.' : null)}
            />
            <ProblemTextField
              field="until"
              label={FLAG_FORM_LABELS.until}
              value={until}
              onChange={setUntil}
              type="datetime-local"
              validate={(value) =>
                value !== '' && new Date(value).getTime() <= Date.now() ? 'The end must be in the future.' : null
              }
            />
            <Button type="submit" isDisabled={busy}>
              Set {flagLabel(flag).toLowerCase()}
            </Button>
            <ProblemMessage error={set.error} />
          </FormProblems>
        </form>
      ) : (
        <ProblemMessage error={set.error} />
      )}
    </section>
  );
}

const FLAG_FORM_LABELS: Readonly<Record<string, string>> = {
  reason: 'Reason',
  until: 'Lifts itself at (your time; optional)',
};

const DAY_MS = 24 * 60 * 60 * 1000;

/** The 30 days (UTC) up to and including today: [from, to) for `balanceHistory` by day. */
function lastThirtyDays(): { from: string; to: string } {
  const now = new Date();
  const tomorrow = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + DAY_MS;
  return { from: new Date(tomorrow - 30 * DAY_MS).toISOString(), to: new Date(tomorrow).toISOString() };
}

/** The posted balance at the end of each of the last 30 days; asked again when the posted balance moves. */
function BalanceHistory({ accountId, currency, posted }: { accountId: string; currency: string; posted: string }) {
  const [range] = useState(lastThirtyDays);
  const { data, error, refetch } = useQuery(AccountBalanceHistory, { variables: { accountId, ...range } });
  const seen = useRef(posted);
  useEffect(() => {
    if (seen.current === posted) return;
    seen.current = posted;
    void refetch().catch(() => undefined);
  }, [posted, refetch]);
  const points = data?.account?.balanceHistory;
  return (
    <>
      <ProblemMessage error={error} />
      {points ? (
        <BalanceChart
          points={points}
          currency={currency}
          label="Balance over the last 30 days"
          caption="Posted balance at the end of each of the last 30 days (UTC)"
        />
      ) : null}
    </>
  );
}

/** A YYYY-MM-DD date plus some days (UTC). */
const plusDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** Last month, first to last day (UTC). */
function lastMonth(): { from: string; to: string } {
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) - DAY_MS).toISOString().slice(0, 10);
  return { from: first, to: last };
}

const STATEMENT_FORMATS = [
  { label: 'PDF', accept: 'application/pdf', extension: 'pdf' },
  { label: 'CSV', accept: 'text/csv', extension: 'csv' },
] as const;

/**
 * The statement of a period (both days included, UTC) as a PDF or CSV file from REST's `/statement`, fetched
 * with the token in the Authorization header and offered as a download.
 */
function StatementDownload({ accountId }: { accountId: string }) {
  const { environment } = useViewer();
  const [period, setPeriod] = useState(lastMonth);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<unknown>(null);
  const download = async (format: (typeof STATEMENT_FORMATS)[number]) => {
    setProblem(null);
    setBusy(true);
    try {
      const query = new URLSearchParams({
        from: `${period.from}T00:00:00Z`,
        to: `${plusDays(period.to, 1)}T00:00:00Z`,
      });
      const path = `/${encodeURIComponent(environment)}/account/${encodeURIComponent(accountId)}/statement?${query}`;
      await downloadFile(
        path,
        format.accept,
        `statement-${accountId}-${period.from}-to-${period.to}.${format.extension}`,
      );
    } catch (error) {
      setProblem(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="statement-heading">
      <h2 id="statement-heading">Statement</h2>
      <form className="inline-form" data-reads onSubmit={(event) => event.preventDefault()}>
        <TextField
          className="field"
          type="date"
          value={period.from}
          onChange={(from) => setPeriod({ ...period, from })}
          isRequired
        >
          <Label>From</Label>
          <Input />
        </TextField>
        <TextField
          className="field"
          type="date"
          value={period.to}
          onChange={(to) => setPeriod({ ...period, to })}
          isRequired
        >
          <Label>To (included)</Label>
          <Input />
        </TextField>
        {STATEMENT_FORMATS.map((format) => (
          <Button
            key={format.label}
            isDisabled={busy || !period.from || !period.to}
            onPress={() => void download(format)}
          >
            Download {format.label}
          </Button>
        ))}
      </form>
      <ProblemMessage error={problem} />
    </section>
  );
}

function Transactions({ accountId, open }: { accountId: string; open: boolean }) {
  const pages = useCursorStack<string>();
  const canMoveMoney = useCan('transactions:write') && open;
  const [filter, setFilter] = useState<TransactionFilter | undefined>(undefined);
  const { data, error } = useQuery(AccountTransactions, { variables: { accountId, after: pages.current, filter } });
  const refetch = { refetchQueries: ['AccountSummary', 'AccountTransactions'], awaitRefetchQueries: true };
  const [postHold, posted] = useMutation(PostHold, refetch);
  const [voidHold, voided] = useMutation(VoidHold, refetch);
  const keys = useRef(new Map<string, string>());
  const act = (row: TransactionRow, action: 'post' | 'void'): Promise<boolean> => {
    const name = `${action} ${row.transactionId}`;
    const idempotencyKey = keys.current.get(name) ?? newIdempotencyKey();
    keys.current.set(name, idempotencyKey);
    const variables = { accountId, transactionId: row.transactionId, idempotencyKey };
    return (action === 'post' ? postHold({ variables }) : voidHold({ variables })).then(
      (answer) => Boolean(answer.data),
      () => false,
    );
  };
  const busy = posted.loading || voided.loading;
  const resetHolds = () => {
    posted.reset();
    voided.reset();
  };
  const columns = canMoveMoney ? transactionColumnsWithActions : transactionColumns;
  const holdState: HoldActionState = { act, busy, error: posted.error ?? voided.error, reset: resetHolds };
  const connection = data?.account?.transactions;
  return (
    <section aria-labelledby="transactions-heading">
      <h2 id="transactions-heading">Transactions</h2>
      <TransactionFilters
        onApply={(next) => {
          pages.reset();
          setFilter(next);
        }}
      />
      <ProblemMessage error={error} />
      {connection ? (
        <HoldActionContext.Provider value={holdState}>
          <DataTable
            caption="Transactions, newest first"
            columns={columns}
            data={connection.nodes}
            empty={filter ? 'No transactions match.' : 'No transactions yet.'}
          />
        </HoldActionContext.Provider>
      ) : null}
      <Pager
        label="Transaction pages"
        hasPrevious={pages.hasPrevious}
        hasNext={connection?.pageInfo.hasNextPage ?? false}
        onPrevious={pages.previous}
        onNext={() => pages.next(connection!.pageInfo.endCursor!)}
      />
    </section>
  );
}

interface FilterDraft {
  status: '' | TransactionStatus;
  type: '' | TransactionType;
  from: string;
  to: string;
}

const NO_FILTER: FilterDraft = { status: '', type: '', from: '', to: '' };

/** The filters of `Account.transactions(filter:)`: status, type and the days made (both included, UTC). */
function TransactionFilters({ onApply }: { onApply: (filter: TransactionFilter | undefined) => void }) {
  const [draft, setDraft] = useState<FilterDraft>(NO_FILTER);
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const filter: TransactionFilter = {
      ...(draft.status && { status: draft.status }),
      ...(draft.type && { type: draft.type }),
      ...(draft.from && { from: `${draft.from}T00:00:00Z` }),
      ...(draft.to && { to: `${plusDays(draft.to, 1)}T00:00:00Z` }),
    };
    onApply(Object.keys(filter).length === 0 ? undefined : filter);
  };
  return (
    <form className="inline-form filters" onSubmit={apply} aria-label="Transaction filters">
      <div className="field">
        <label htmlFor="filter-status">Status</label>
        <select
          id="filter-status"
          value={draft.status}
          onChange={(event) => setDraft({ ...draft, status: event.target.value as FilterDraft['status'] })}
        >
          <option value="">Any</option>
          <option value="PENDING">Pending</option>
          <option value="POSTED">Posted</option>
          <option value="VOIDED">Voided</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-type">Type</label>
        <select
          id="filter-type"
          value={draft.type}
          onChange={(event) => setDraft({ ...draft, type: event.target.value as FilterDraft['type'] })}
        >
          <option value="">Any</option>
          <option value="CREDIT">Credit</option>
          <option value="DEBIT">Debit</option>
        </select>
      </div>
      <TextField className="field" type="date" value={draft.from} onChange={(from) => setDraft({ ...draft, from })}>
        <Label>Made from</Label>
        <Input />
      </TextField>
      <TextField className="field" type="date" value={draft.to} onChange={(to) => setDraft({ ...draft, to })}>
        <Label>Made to (included)</Label>
        <Input />
      </TextField>
      <Button type="submit">Apply filters</Button>
      <Button
        onPress={() => {
          setDraft(NO_FILTER);
          onApply(undefined);
        }}
      >
        Clear filters
      </Button>
    </form>
  );
}

function OverdraftLimit({ accountId, currency }: { accountId: string; currency: string }) {
  const canControl = useCan('accounts:controls');
  const [limit, setLimit] = useState('');
  const [setOverdraftLimit, result] = useMutation(SetOverdraftLimit);
  if (!canControl) return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void setOverdraftLimit({ variables: { accountId, overdraftLimit: limit.trim() } })
      .then(() => setLimit(''))
      .catch(() => undefined);
  };
  return (
    <>
      <form onSubmit={submit} className="inline-form">
        <TextField className="field" value={limit} onChange={setLimit} isRequired inputMode="decimal">
          <Label>New overdraft limit ({currency})</Label>
          <Input />
        </TextField>
        <Button type="submit" isDisabled={result.loading}>
          Set overdraft limit
        </Button>
      </form>
      <ProblemMessage error={result.error} />
    </>
  );
}

interface TransferDraft {
  toAccountId: string;
  amount: string;
  description: string;
}

/** How many decimals the currency has (USD 2, JPY 0), as the API's TOO_PRECISE rule counts them. */
const currencyDecimals = (currency: string): number => {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
};

/** Why an amount typed for a transfer cannot be sent, in the API's words; undefined when it may be. */
export function transferAmountProblem(amount: string, currency: string): string | undefined {
  const decimals = currencyDecimals(currency);
  if (!/^\d+(\.\d+)?$/.test(amount))
    return `INVALID_FORMAT Enter a positive amount in digits${decimals > 0 ? ', e.g. 12.50' : ', e.g. 1200'}.`;
  const fraction = amount.split('.')[1] ?? '';
  if (fraction.length > decimals)
    return `TOO_PRECISE ${currency} has ${decimals === 0 ? 'no decimals' : `at most ${decimals} decimals`}.`;
  if (/^0*(\.0*)?$/.test(amount)) return 'TOO_SMALL The amount must be greater than zero.';
  return undefined;
}

/**
 * A transfer in two steps: the form, then a confirmation that says what will move. The idempotency key is
 * made when the confirmation opens and sent with every press of "Confirm transfer" (a double click, a retry
 * after a lost answer), so the money moves once; a new key only for a new draft.
 */
function TransferForm({ fromAccountId, currency }: { fromAccountId: string; currency: string }) {
  const [draft, setDraft] = useState<TransferDraft>({ toAccountId: '', amount: '', description: '' });
  const [confirming, setConfirming] = useState<{
    draft: TransferDraft;
    idempotencyKey: string;
    target: { name: string; holders: string[] | null } | null;
  } | null>(null);
  const [problems, setProblems] = useState<{ amount?: string; toAccountId?: string }>({});
  const client = useApolloClient();
  const canReadHolders = useCan('customers:read');
  const inFlight = useRef(false);
  const [transfer, result] = useMutation(Transfer, {
    refetchQueries: ['AccountSummary', 'AccountTransactions'],
    awaitRefetchQueries: true,
  });
  const [done, setDone] = useState<string | null>(null);

  // The API's rules, checked before the review so it never shows "$NaN" or a rounded amount; the API checks again.
  const review = async (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    result.reset();
    const sent = { ...draft, toAccountId: draft.toAccountId.trim(), amount: draft.amount.trim() };
    const amountProblem = transferAmountProblem(sent.amount, currency);
    const toProblem =
      sent.toAccountId === fromAccountId ? 'The target is this account: choose another one.' : undefined;
    setProblems({ amount: amountProblem, toAccountId: toProblem });
    if (amountProblem || toProblem) return;
    // The target by name and holders, when this token may read them; else its id alone (the API decides).
    let target: { name: string; holders: string[] | null } | null = null;
    try {
      const answer = await client.query({
        query: TransferTarget,
        variables: { accountId: sent.toAccountId, withHolders: canReadHolders },
        fetchPolicy: 'network-only',
      });
      const account = answer.data?.account;
      if (answer.data && account === null) {
        setProblems({ toAccountId: 'ACCOUNT_NOT_FOUND No account of this environment has this id.' });
        return;
      }
      if (account) target = { name: account.name, holders: account.customers?.map(customerName) ?? null };
    } catch {
      // Not readable with this token, or not an id: the transfer itself answers with its code.
    }
    setConfirming({ draft: sent, idempotencyKey: newIdempotencyKey(), target });
  };
  const confirm = async () => {
    if (!confirming || inFlight.current) return;
    inFlight.current = true;
    try {
      const { draft: sent, idempotencyKey } = confirming;
      const answer = await transfer({
        variables: {
          input: {
            fromAccountId,
            toAccountId: sent.toAccountId,
            amount: sent.amount,
            ...(sent.description && { description: sent.description }),
          },
          idempotencyKey,
        },
      });
      if (answer.data) {
        setDone(
          `Transferred ${money(answer.data.transfer.amount, answer.data.transfer.currency)} (transfer ${answer.data.transfer.transferId}).`,
        );
        setConfirming(null);
        setDraft({ toAccountId: '', amount: '', description: '' });
      }
    } catch {
      // Shown below with its code; the same key is sent again if the user retries.
    } finally {
      inFlight.current = false;
    }
  };

  return (
    <section aria-labelledby="transfer-heading">
      <h2 id="transfer-heading">Transfer</h2>
      {confirming ? (
        <div className="confirm" role="group" aria-labelledby="confirm-text">
          <p id="confirm-text">
            Transfer {money(confirming.draft.amount, currency)} from this account to{' '}
            {confirming.target ? (
              <>
                <strong>{confirming.target.name}</strong>
                {confirming.target.holders ? ` (held by ${confirming.target.holders.join(', ')})` : ''}, account{' '}
              </>
            ) : (
              'account '
            )}
            <code>{confirming.draft.toAccountId}</code>
            {confirming.draft.description ? ` ("${confirming.draft.description}")` : ''}? The money moves at once and
            only a reversal brings it back.
          </p>
          <div className="actions">
            <Button onPress={() => void confirm()} isDisabled={result.loading}>
              Confirm transfer
            </Button>
            <Button
              className="react-aria-Button secondary"
              onPress={() => setConfirming(null)}
              isDisabled={result.loading}
            >
              Back
            </Button>
          </div>
        </div>
      ) : (
        <form onSubmit={(event) => void review(event)} className="stacked-form" aria-label="Transfer">
          <RecordSearch
            className="field picker"
            label="Find the receiving account"
            showLabel
            kinds={['account']}
            placeholder="An account's name, its id or external id, or a holder's name"
            onPick={(picked) => {
              setDraft({ ...draft, toAccountId: picked.id });
              setProblems({ ...problems, toAccountId: undefined });
            }}
          />
          <TextField
            className="field"
            value={draft.toAccountId}
            onChange={(toAccountId) => setDraft({ ...draft, toAccountId })}
            isRequired
            isInvalid={problems.toAccountId !== undefined}
            validationBehavior="aria"
          >
            <Label>To account id</Label>
            <Input />
            <FieldError className="field-problem">{problems.toAccountId}</FieldError>
          </TextField>
          <TextField
            className="field"
            value={draft.amount}
            onChange={(amount) => setDraft({ ...draft, amount })}
            isRequired
            inputMode="decimal"
            isInvalid={problems.amount !== undefined}
            validationBehavior="aria"
          >
            <Label>Amount ({currency})</Label>
            <Input />
            <FieldError className="field-problem">{problems.amount}</FieldError>
          </TextField>
          <TextField
            className="field"
            value={draft.description}
            onChange={(description) => setDraft({ ...draft, description })}
          >
            <Label>Description</Label>
            <Input />
          </TextField>
          <Button type="submit">Review transfer</Button>
        </form>
      )}
      <ProblemMessage error={result.error} />
      {done ? (
        <p role="status" className="done">
          {done}
        </p>
      ) : null}
    </section>
  );
}
