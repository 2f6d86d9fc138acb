import { useState } from 'react';

/** The cursors of the pages before the current one, so a forward-only API can page back too. */
export function useCursorStack<Cursor>() {
  const [stack, setStack] = useState<Cursor[]>([]);
  const [current, setCurrent] = useState<Cursor | undefined>(undefined);
  return {
    current,
    hasPrevious: stack.length > 0 || current !== undefined,
    next(cursor: Cursor) {
      setStack((previous) => (current === undefined ? previous : [...previous, current]));
      setCurrent(cursor);
    },
    previous() {
      setCurrent(stack.at(-1));
      setStack((previous) => previous.slice(0, -1));
    },
    reset() {
      setStack([]);
      setCurrent(undefined);
    },
  };
}
