import { useMutation, useQuery } from '@apollo/client/react';
import { type FormEvent, useRef, useState } from 'react';
import { Button, Label, Text, TextArea, TextField } from 'react-aria-components';
import { instant } from '../format';
import { graphql } from '../gql';
import type { NoteItemFragment } from '../gql/graphql';
import { newIdempotencyKey } from '../session';
import { useCan } from '../viewer';
import { FieldProblem, FormProblems, useFieldProblem } from './FormProblems';
import { ProblemMessage } from './ProblemMessage';

/** The API's bound on a note (docs/adr/0105): said beside the field, checked by the browser before sending. */
const MAX_NOTE_LENGTH = 2000;
const PAGE_SIZE = 10;

graphql(`
  fragment NoteItem on Note {
    id
    noteId
    text
    createdAt
    author {
      id
      name
    }
  }
`);

const CustomerNotes = graphql(`
  query CustomerNotes($customerId: ID!, $first: Int!) {
    customer(customerId: $customerId) {
      id
      notes(first: $first) {
        nodes {
          ...NoteItem
        }
        pageInfo {
          hasNextPage
        }
      }
    }
  }
`);

const AccountNotes = graphql(`
  query AccountNotes($accountId: ID!, $first: Int!) {
    account(accountId: $accountId) {
      id
      notes(first: $first) {
        nodes {
          ...NoteItem
        }
        pageInfo {
          hasNextPage
        }
      }
    }
  }
`);

const AddCustomerNote = graphql(`
  mutation AddCustomerNote($customerId: ID!, $text: String!, $idempotencyKey: String) {
    addCustomerNote(customerId: $customerId, text: $text, idempotencyKey: $idempotencyKey) {
      ...NoteItem
    }
  }
`);

const AddAccountNote = graphql(`
  mutation AddAccountNote($accountId: ID!, $text: String!, $idempotencyKey: String) {
    addAccountNote(accountId: $accountId, text: $text, idempotencyKey: $idempotencyKey) {
      ...NoteItem
    }
  }
`);

export type NotedRecord = { kind: 'customer'; customerId: string } | { kind: 'account'; accountId: string };

/**
 * A record's case notes (what was done and why, docs/adr/0105), newest first with their author by name and time,
 * and with `notes:write` a form to add one. Notes are append-only: nothing here changes or deletes one. Shown only
 * with `notes:read`; the list grows by ten with **Show older notes**.
 */
export function NotesSection({ record }: { record: NotedRecord }) {
  const canRead = useCan('notes:read');
  const canWrite = useCan('notes:write');
  const [first, setFirst] = useState(PAGE_SIZE);
  const customerNotes = useQuery(CustomerNotes, {
    variables: { customerId: record.kind === 'customer' ? record.customerId : '', first },
    skip: !canRead || record.kind !== 'customer',
  });
  const accountNotes = useQuery(AccountNotes, {
    variables: { accountId: record.kind === 'account' ? record.accountId : '', first },
    skip: !canRead || record.kind !== 'account',
  });
  if (!canRead) return null;
  const reading = record.kind === 'customer' ? customerNotes : accountNotes;
  const connection =
    record.kind === 'customer' ? customerNotes.data?.customer?.notes : accountNotes.data?.account?.notes;
  const notes: readonly NoteItemFragment[] = (connection?.nodes ?? []) as NoteItemFragment[];
  return (
    <section aria-labelledby="notes-heading">
      <h2 id="notes-heading">Notes</h2>
      {canWrite ? <AddNote record={record} onAdded={() => void reading.refetch().catch(() => undefined)} /> : null}
      <ProblemMessage error={reading.error} />
      {connection && notes.length === 0 ? <p className="empty">No notes yet.</p> : null}
      {notes.length > 0 ? (
        <ol className="notes" aria-label="Notes, newest first">
          {notes.map((note) => (
            <li key={note.noteId}>
              <p className="note-meta">
                <strong>{note.author.name}</strong> · <time dateTime={note.createdAt}>{instant(note.createdAt)}</time>
              </p>
              <p className="note-text">{note.text}</p>
            </li>
          ))}
        </ol>
      ) : null}
      {connection?.pageInfo.hasNextPage ? (
        <Button className="react-aria-Button secondary" onPress={() => setFirst((shown) => shown + PAGE_SIZE)}>
          Show older notes
        </Button>
      ) : null}
    </section>
  );
}

/** The form that adds a note: one idempotency key per text, so a double press or a retry adds it once. */
function AddNote({ record, onAdded }: { record: NotedRecord; onAdded(): void }) {
  const [text, setText] = useState('');
  const key = useRef<string | null>(null);
  const [addCustomerNote, customerResult] = useMutation(AddCustomerNote);
  const [addAccountNote, accountResult] = useMutation(AddAccountNote);
  const result = record.kind === 'customer' ? customerResult : accountResult;
  const [added, setAdded] = useState(false);
  // The text on screen was added and not edited since. A press between the answer and React's render of the
  // cleared field (a double press's second, on a busy machine) would otherwise send that text again under a new key.
  const addedUnedited = useRef(false);
  const edit = (value: string) => {
    key.current = null;
    addedUnedited.current = false;
    setAdded(false);
    setText(value);
  };
  // A ref, not `result.loading`: a second press can arrive before React renders the disabled button.
  const sending = useRef(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (sending.current || addedUnedited.current) return;
    sending.current = true;
    key.current ??= newIdempotencyKey();
    const sentKey = key.current;
    const variables = { text: text.trim(), idempotencyKey: sentKey };
    const adding =
      record.kind === 'customer'
        ? addCustomerNote({ variables: { ...variables, customerId: record.customerId } })
        : addAccountNote({ variables: { ...variables, accountId: record.accountId } });
    adding
      .then((answer) => {
        // An answer for a text the agent has since edited must not clear what they typed.
        if (!answer.data || key.current !== sentKey) return;
        setText('');
        key.current = null;
        addedUnedited.current = true;
        setAdded(true);
        onAdded();
      })
      .catch(() => undefined)
      .finally(() => {
        sending.current = false;
      });
  };
  return (
    <form onSubmit={submit} className="stacked-form" aria-label="Add a note">
      <FormProblems error={result.error} labels={(name) => (name === 'text' ? 'Note' : undefined)}>
        <NoteField text={text} onChange={edit} />
        <Button type="submit" isDisabled={result.loading}>
          Add note
        </Button>
        {added ? (
          <p role="status" className="done">
            Note added.
          </p>
        ) : null}
        <ProblemMessage error={result.error} />
      </FormProblems>
    </form>
  );
}

/** The note's field, inside the form's `FormProblems` so it shows the API's refusal of `text`. */
function NoteField({ text, onChange }: { text: string; onChange(value: string): void }) {
  const field = useFieldProblem('text', onChange);
  return (
    <TextField
      className="field"
      value={text}
      isRequired
      maxLength={MAX_NOTE_LENGTH}
      validate={(value) => (value.trim() === '' ? 'Write what was done and why.' : null)}
      {...field}
    >
      <Label>Note</Label>
      <TextArea rows={3} />
      <Text slot="description" className="hint">
        {text.length} of {MAX_NOTE_LENGTH} characters. A note cannot be changed or deleted once added; never write a
        social security number or a card number in it.
      </Text>
      <FieldProblem field="text" />
    </TextField>
  );
}
