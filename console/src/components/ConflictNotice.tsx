import { Button } from 'react-aria-components';
import { apiProblem } from '../api/errors';

/** True when the API refused a write because the record changed since it was read (`expectedVersion`). */
export const isConflict = (error: unknown): boolean =>
  Boolean(error) && apiProblem(error).code === 'PRECONDITION_FAILED';

/**
 * A write refused because someone changed the record after this page read it: said in people's words, with the
 * typed changes kept, and one button that reads the record again and sends the same changes over it.
 */
export function ConflictNotice({ what, busy, onReapply }: { what: string; busy: boolean; onReapply(): void }) {
  return (
    <div role="alert" className="problem conflict">
      <p>Someone changed {what} after this page read it, so nothing was saved. Your changes are still in the form.</p>
      <Button onPress={onReapply} isDisabled={busy}>
        Reload and reapply my changes
      </Button>
    </div>
  );
}
