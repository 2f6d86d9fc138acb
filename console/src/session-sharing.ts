import type { Session } from './session';

/**
 * Tabs of the console share one sign-in without writing the token anywhere lasting: a new tab (a Ctrl-click, a
 * pasted link) asks the open tabs over a BroadcastChannel, which only pages of this origin can join, and one that
 * is signed in answers with its session, which the new tab keeps in its own sessionStorage like a sign-in. Signing
 * out in one tab signs every tab out. Nothing is stored for the exchange; with no other tab open, nobody answers
 * and the sign-in form shows.
 */
const CHANNEL = 'cas.console.session';
/** How long a new tab waits for an open tab's answer before showing the sign-in form. */
export const ASK_TIMEOUT_MS = 400;

type Message = { type: 'ask' } | { type: 'session'; session: Session } | { type: 'signed-out' };

export interface SessionSharing {
  /** Asks the open tabs for their session: the first answer, or null after ASK_TIMEOUT_MS. */
  ask(): Promise<Session | null>;
  /** Tells the other tabs this tab signed out. */
  signedOut(): void;
  close(): void;
}

/**
 * Joins the channel: answers other tabs' asks with `current()` (when signed in), and calls `onSignedOut` when
 * another tab signs out. Browsers without BroadcastChannel share nothing (each tab signs in by itself).
 */
export function joinSessionSharing(current: () => Session | null, onSignedOut: () => void): SessionSharing {
  if (typeof BroadcastChannel === 'undefined')
    return { ask: () => Promise.resolve(null), signedOut: () => undefined, close: () => undefined };
  const channel = new BroadcastChannel(CHANNEL);
  const waiting = new Set<(session: Session) => void>();
  channel.onmessage = (event: MessageEvent<Message>) => {
    const message = event.data;
    if (message.type === 'ask') {
      const session = current();
      if (session) channel.postMessage({ type: 'session', session } satisfies Message);
    } else if (message.type === 'session') {
      for (const resolve of waiting) resolve(message.session);
      waiting.clear();
    } else if (message.type === 'signed-out') onSignedOut();
  };
  return {
    ask: () =>
      new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(answer);
          resolve(null);
        }, ASK_TIMEOUT_MS);
        const answer = (session: Session) => {
          clearTimeout(timer);
          resolve(session);
        };
        waiting.add(answer);
        channel.postMessage({ type: 'ask' } satisfies Message);
      }),
    signedOut: () => channel.postMessage({ type: 'signed-out' } satisfies Message),
    close: () => channel.close(),
  };
}
