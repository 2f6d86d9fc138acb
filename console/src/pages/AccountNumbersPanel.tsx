import { useApolloClient, useMutation, useQuery } from '@apollo/client/react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Button } from 'react-aria-components';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ProblemMessage } from '../components/ProblemMessage';
import { enumLabel, instant } from '../format';
import { graphql } from '../gql';
import type { AccountNumberStatus, AccountNumbersQuery, InboundAchDebits } from '../gql/graphql';
import { useCan } from '../viewer';

/** The last four digits, under `accounts:read`: the only part of an account number the cache ever holds. */
const AccountNumberLast4 = graphql(`
  query AccountNumberLast4($accountId: ID!) {
    account(accountId: $accountId) {
      id
      accountNumberLast4
    }
  }
`);

/**
 * The numbers in full (`accounts:numbers:read`, each read audited as `account.account_number.read`): asked only when
 * the agent presses "Show account numbers", always with `fetchPolicy: 'no-cache'`, so the digits stay in the panel's
 * state and never enter Apollo's cache.
 */
const AccountNumbers = graphql(`
  query AccountNumbers($accountId: ID!) {
    account(accountId: $accountId) {
      id
      accountNumbers {
        id
        accountNumber
        last4
        routingNumber
        status
        inboundAchDebits
        createdAt
      }
    }
  }
`);

const AddAccountNumber = graphql(`
  mutation AddAccountNumber($accountId: ID!, $inboundAchDebits: InboundAchDebits) {
    addAccountNumber(accountId: $accountId, inboundAchDebits: $inboundAchDebits) {
      id
      last4
      status
      inboundAchDebits
    }
  }
`);

const UpdateAccountNumber = graphql(`
  mutation UpdateAccountNumber(
    $accountId: ID!
    $accountNumberId: ID!
    $status: AccountNumberStatus
    $inboundAchDebits: InboundAchDebits
  ) {
    updateAccountNumber(
      accountId: $accountId
      accountNumberId: $accountNumberId
      status: $status
      inboundAchDebits: $inboundAchDebits
    ) {
      id
      last4
      status
      inboundAchDebits
    }
  }
`);

type RevealedNumber = NonNullable<NonNullable<AccountNumbersQuery['account']>['accountNumbers']>[number];
type Change = { status: AccountNumberStatus } | { inboundAchDebits: InboundAchDebits };

/** How long a control stays disabled after its change is done: the second press of a double press lands on nothing. */
const SETTLE_MS = 700;

/**
 * One change per press. A ref, not the mutation's `loading`: a second press can arrive before React renders a
 * disabled button. And for a moment after a change is done, the control it changed (`settling`, the caller's name for
 * it) stays disabled: an answer can come back before a double press's second click, which would then add a second
 * number or flip a Disable straight back to Enable. Nothing is disabled while a press may be under way: a React Aria
 * button disabled between its pointer's down and up ignores every later press.
 */
function usePressGuard() {
  const inFlight = useRef(false);
  const settled = useRef<string | null>(null);
  const [settling, setSettling] = useState<string | null>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  return {
    settling,
    /** A press of the control named `control`: false (do nothing) while a change is sent or it has just changed. */
    begin(control: string): boolean {
      if (inFlight.current || settled.current === control) return false;
      inFlight.current = true;
      return true;
    },
    /** The change is over: `changed` names the control that made it (null: it failed, nothing settles). */
    end(changed: string | null) {
      inFlight.current = false;
      if (changed === null) return;
      settled.current = changed;
      setSettling(changed);
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => {
        settled.current = null;
        setSettling(null);
      }, SETTLE_MS);
    },
  };
}

/** How a number is named where its digits are not shown: "•••• 1234". */
const masked = (last4: string) => `•••• ${last4}`;

/**
 * The account's account and routing numbers (docs/adr/0107). Under `accounts:read` the last four digits only. With
 * `accounts:numbers:read`, **Show account numbers** reads them in full with the routing number (an audited read,
 * never cached: the digits live in this panel's state until **Hide**, leaving the page or another account; never in
 * storage or the address). With `accounts:controls`, add a number, and per revealed number disable or enable it,
 * block or allow inbound ACH debits, or cancel it (final, after a confirmation).
 */
export function AccountNumbersPanel({ accountId }: { accountId: string }) {
  const canReveal = useCan('accounts:numbers:read');
  const canControl = useCan('accounts:controls');
  const client = useApolloClient();
  const last4 = useQuery(AccountNumberLast4, { variables: { accountId } });
  const [numbers, setNumbers] = useState<readonly RevealedNumber[] | null>(null);
  const [revealProblem, setRevealProblem] = useState<unknown>(null);
  // Each reading's number: a hide, or the panel's end, makes a later answer stale, and a stale answer is dropped.
  const reading = useRef(0);
  useEffect(
    () => () => {
      reading.current += 1;
    },
    [],
  );

  // A second press while the numbers are read asks nothing more (one press, one audited read).
  const inFlight = useRef(false);
  const reveal = async (again = false) => {
    if (inFlight.current && !again) return;
    inFlight.current = true;
    const mine = ++reading.current;
    setRevealProblem(null);
    try {
      const answer = await client.query({ query: AccountNumbers, variables: { accountId }, fetchPolicy: 'no-cache' });
      if (reading.current !== mine) return;
      setNumbers(answer.data?.account?.accountNumbers ?? []);
    } catch (error) {
      if (reading.current === mine) setRevealProblem(error);
    } finally {
      if (reading.current === mine) inFlight.current = false;
    }
  };
  const hide = () => {
    reading.current += 1;
    inFlight.current = false;
    setNumbers(null);
    setRevealProblem(null);
  };
  const changed = (number: { id: string; status: AccountNumberStatus; inboundAchDebits: InboundAchDebits }) => {
    setNumbers((shown) =>
      shown
        ? shown.map((each) =>
            each.id === number.id
              ? { ...each, status: number.status, inboundAchDebits: number.inboundAchDebits }
              : each,
          )
        : shown,
    );
    void last4.refetch().catch(() => undefined);
  };
  const added = () => {
    void last4.refetch().catch(() => undefined);
    // The new number's digits come from a reading of their own (audited like any): only while they are shown.
    if (numbers !== null) void reveal(true);
  };

  const shownLast4 = last4.data?.account?.accountNumberLast4;
  return (
    <section aria-labelledby="account-numbers-heading">
      <h2 id="account-numbers-heading">Account numbers</h2>
      {last4.data?.account ? (
        <dl className="facts">
          <dt>Account number</dt>
          <dd>
            {shownLast4 ? (
              <>
                <span aria-hidden="true">{masked(shownLast4)}</span>
                <span className="visually-hidden">ending {shownLast4}</span>
              </>
            ) : (
              'None yet'
            )}
          </dd>
        </dl>
      ) : null}
      <ProblemMessage error={last4.error} />
      {canReveal ? (
        <div className="inline-form">
          {numbers === null ? (
            <Button key="show" onPress={() => void reveal()}>
              Show account numbers
            </Button>
          ) : (
            <Button key="hide" className="react-aria-Button secondary" onPress={hide}>
              Hide account numbers
            </Button>
          )}
          <p className="hint">Each time the numbers are shown in full, it is recorded in the audit trail.</p>
        </div>
      ) : null}
      <ProblemMessage error={revealProblem} />
      {numbers !== null && numbers.length === 0 ? <p className="empty">No account numbers yet.</p> : null}
      {numbers !== null && numbers.length > 0 ? (
        <NumberList accountId={accountId} numbers={numbers} canControl={canControl} onChanged={changed} />
      ) : null}
      {canControl ? <AddNumber accountId={accountId} onAdded={added} /> : null}
    </section>
  );
}

/** The revealed numbers, oldest first, each with its routing number, status and inbound ACH debits, and its controls. */
function NumberList({
  accountId,
  numbers,
  canControl,
  onChanged,
}: {
  accountId: string;
  numbers: readonly RevealedNumber[];
  canControl: boolean;
  onChanged(number: { id: string; status: AccountNumberStatus; inboundAchDebits: InboundAchDebits }): void;
}) {
  const [update, result] = useMutation(UpdateAccountNumber);
  const guard = usePressGuard();
  const change = (number: RevealedNumber, to: Change): Promise<boolean> => {
    const control = `${number.id} ${'status' in to ? 'status' : 'debits'}`;
    if (!guard.begin(control)) return Promise.resolve(false);
    return update({ variables: { accountId, accountNumberId: number.id, ...to } })
      .then(
        (answer) => {
          if (!answer.data) return false;
          onChanged(answer.data.updateAccountNumber);
          return true;
        },
        () => false,
      )
      .then((done) => {
        guard.end(done ? control : null);
        return done;
      });
  };
  return (
    <>
      <ul className="account-numbers" aria-label="Account numbers, oldest first">
        {numbers.map((number) => {
          const name = `number ending ${number.last4}`;
          const canceled = number.status === 'CANCELED';
          return (
            <li key={number.id}>
              <dl className="facts">
                <dt>Account number</dt>
                <dd>
                  <code>{number.accountNumber}</code>
                </dd>
                <dt>Routing number</dt>
                <dd>
                  <code>{number.routingNumber}</code>
                </dd>
                <dt>Status</dt>
                <dd>{enumLabel(number.status)}</dd>
                <dt>Inbound ACH debits</dt>
                <dd>{enumLabel(number.inboundAchDebits)}</dd>
                <dt>Issued</dt>
                <dd>{instant(number.createdAt)}</dd>
              </dl>
              {canControl && !canceled ? (
                <div className="row-actions">
                  {/* Keyed by what it does: the flipped control is a new button, disabled while it settles. */}
                  <Button
                    key={`status ${number.status}`}
                    className="react-aria-Button small"
                    aria-label={`${number.status === 'ACTIVE' ? 'Disable' : 'Enable'} ${name}`}
                    isDisabled={guard.settling === `${number.id} status`}
                    onPress={() => {
                      result.reset();
                      void change(number, { status: number.status === 'ACTIVE' ? 'DISABLED' : 'ACTIVE' });
                    }}
                  >
                    {number.status === 'ACTIVE' ? 'Disable' : 'Enable'}
                  </Button>
                  <Button
                    key={`debits ${number.inboundAchDebits}`}
                    className="react-aria-Button small"
                    aria-label={`${number.inboundAchDebits === 'ALLOWED' ? 'Block' : 'Allow'} inbound ACH debits on ${name}`}
                    isDisabled={guard.settling === `${number.id} debits`}
                    onPress={() => {
                      result.reset();
                      void change(number, {
                        inboundAchDebits: number.inboundAchDebits === 'ALLOWED' ? 'BLOCKED' : 'ALLOWED',
                      });
                    }}
                  >
                    {number.inboundAchDebits === 'ALLOWED' ? 'Block inbound ACH debits' : 'Allow inbound ACH debits'}
                  </Button>
                  <ConfirmDialog
                    triggerClassName="small"
                    trigger={`Cancel ${name}…`}
                    title={`Cancel the ${name} for good?`}
                    confirmLabel="Cancel the number"
                    dismissLabel="Keep the number"
                    busy={result.loading}
                    error={result.error}
                    onOpen={() => result.reset()}
                    onConfirm={() => change(number, { status: 'CANCELED' })}
                  >
                    <p>
                      A canceled number refuses every payment for ever: it cannot be enabled again (add a new number
                      instead). Payers who still use it are refused.
                    </p>
                  </ConfirmDialog>
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
      <ProblemMessage error={result.error} />
    </>
  );
}

/** Adds a number (ACTIVE, inbound ACH debits as chosen); the answer names it by its last four digits. */
function AddNumber({ accountId, onAdded }: { accountId: string; onAdded(): void }) {
  const [debits, setDebits] = useState<InboundAchDebits>('ALLOWED');
  const [add, result] = useMutation(AddAccountNumber);
  const [done, setDone] = useState<string | null>(null);
  // No idempotency key here (GraphQL's addAccountNumber takes none): one number per press is the page's to keep.
  const guard = usePressGuard();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!guard.begin('add')) return;
    setDone(null);
    void add({ variables: { accountId, inboundAchDebits: debits } })
      .then(
        (answer) => {
          if (!answer.data) return false;
          setDone(`Added the account number ending ${answer.data.addAccountNumber.last4}.`);
          setDebits('ALLOWED');
          onAdded();
          return true;
        },
        () => false,
      )
      .then((done) => guard.end(done ? 'add' : null));
  };
  return (
    <form onSubmit={submit} className="inline-form" aria-label="Add an account number">
      <div className="field">
        <label htmlFor={`new-number-debits-${accountId}`}>Inbound ACH debits</label>
        <select
          id={`new-number-debits-${accountId}`}
          value={debits}
          onChange={(event) => setDebits(event.target.value as InboundAchDebits)}
        >
          <option value="ALLOWED">Allowed</option>
          <option value="BLOCKED">Blocked</option>
        </select>
      </div>
      <Button type="submit" isDisabled={guard.settling === 'add'}>
        Add account number
      </Button>
      {done ? (
        <p role="status" className="done">
          {done}
        </p>
      ) : null}
      <ProblemMessage error={result.error} />
    </form>
  );
}
