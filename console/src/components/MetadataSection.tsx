import { type FormEvent, useState } from 'react';
import { Button, Input, Label, TextField } from 'react-aria-components';
import { ProblemMessage } from './ProblemMessage';

interface Pair {
  key: string;
  value: string;
}

/** The pairs in the order of their keys (the API keeps no order of its own). */
const pairsOf = (metadata: Readonly<Record<string, string>> | null | undefined): Pair[] =>
  Object.entries(metadata ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => ({ key, value }));

/**
 * What to send so the stored pairs become the draft's: the API merges (a value sets its key, an empty string
 * removes it, keys not sent stay), so a removed key is sent as an empty string and an unchanged one not at all.
 * A pair with an empty key is ignored; an empty value removes its key.
 */
export function metadataChanges(
  before: Readonly<Record<string, string>> | null | undefined,
  draft: readonly Pair[],
): Record<string, string> {
  const after = new Map<string, string>();
  for (const pair of draft) if (pair.key.trim() !== '') after.set(pair.key.trim(), pair.value);
  const changes: Record<string, string> = {};
  for (const key of Object.keys(before ?? {})) if (!after.has(key) || after.get(key) === '') changes[key] = '';
  for (const [key, value] of after) if (value !== '' && before?.[key] !== value) changes[key] = value;
  return changes;
}

/**
 * A record's metadata (the client's own key-value pairs, never personal data) and, when the token may write
 * the record, a form to change it: keys added, values changed, keys removed, sent as one merge.
 */
export function MetadataSection({
  metadata,
  canEdit,
  onSave,
  busy,
  error,
  onEdit,
}: {
  metadata: Readonly<Record<string, string>> | null | undefined;
  canEdit: boolean;
  /** Answers true once saved. */
  onSave(changes: Record<string, string>): Promise<boolean>;
  busy: boolean;
  error: unknown;
  onEdit(): void;
}) {
  const [draft, setDraft] = useState<Pair[] | null>(null);
  const [saved, setSaved] = useState(false);
  const pairs = pairsOf(metadata);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!draft) return;
    const changes = metadataChanges(metadata, draft);
    if (Object.keys(changes).length === 0) {
      setDraft(null);
      return;
    }
    void onSave(changes).then((done) => {
      if (done) {
        setDraft(null);
        setSaved(true);
      }
    });
  };
  const change = (index: number, part: Partial<Pair>) =>
    setDraft((rows) => rows!.map((row, at) => (at === index ? { ...row, ...part } : row)));
  return (
    <section aria-labelledby="metadata-heading">
      <h2 id="metadata-heading">Metadata</h2>
      {draft ? (
        <form onSubmit={submit} className="wide-form">
          <fieldset className="entries">
            <legend>Key-value pairs</legend>
            {draft.length === 0 ? <p className="empty">No pairs: saving removes every key.</p> : null}
            {draft.map((pair, index) => (
              <div key={index} className="entry">
                <TextField className="field" value={pair.key} onChange={(key) => change(index, { key })} maxLength={40}>
                  <Label>Metadata key {index + 1}</Label>
                  <Input />
                </TextField>
                <TextField
                  className="field"
                  value={pair.value}
                  onChange={(value) => change(index, { value })}
                  maxLength={500}
                >
                  <Label>Metadata value {index + 1}</Label>
                  <Input />
                </TextField>
                <Button onPress={() => setDraft((rows) => rows!.filter((_, at) => at !== index))}>
                  Remove pair {index + 1}
                </Button>
              </div>
            ))}
            <Button onPress={() => setDraft((rows) => [...rows!, { key: '', value: '' }])}>Add a pair</Button>
          </fieldset>
          <p className="muted">For your own references only: never personal data.</p>
          <div className="actions">
            <Button type="submit" isDisabled={busy}>
              Save metadata
            </Button>
            <Button className="react-aria-Button secondary" onPress={() => setDraft(null)} isDisabled={busy}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <>
          {pairs.length === 0 ? (
            <p className="empty">No metadata.</p>
          ) : (
            <dl className="facts">
              {pairs.map((pair) => (
                <div key={pair.key} className="fact">
                  <dt>{pair.key}</dt>
                  <dd>{pair.value}</dd>
                </div>
              ))}
            </dl>
          )}
          {saved ? (
            <p role="status" className="done">
              Metadata saved.
            </p>
          ) : null}
          {canEdit ? (
            <Button
              className="react-aria-Button secondary"
              onPress={() => {
                setSaved(false);
                onEdit();
                setDraft(pairs.length === 0 ? [{ key: '', value: '' }] : pairs);
              }}
            >
              Edit metadata
            </Button>
          ) : null}
        </>
      )}
      <ProblemMessage error={error} />
    </section>
  );
}
