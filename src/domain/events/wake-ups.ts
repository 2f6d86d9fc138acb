/**
 * What other instances did that this one's background work can act on at once, instead of at its next poll
 * (docs/decisions.md, "Waking other instances"). The database tells it (src/db/notifications.ts: LISTEN on one
 * dedicated connection, NOTIFY sent by the sequencer's and the fan-out's own statements); polling stays the
 * fallback, so a lost wake-up only costs latency. Each subscription answers a function that ends it.
 */
export interface WakeUps {
  /**
   * Events of `environment` were numbered (by any instance's sequencer): the event feed can read them.
   * `undefined`: maybe any environment (the connection was just (re)established, and what was sent while it
   * was down is lost).
   */
  onEventsNumbered(listener: (environment: string | undefined) => void): () => void;
  /** Webhook deliveries became due (a fan-out created them, a redelivery scheduled one): dispatchers can claim them. */
  onDeliveriesDue(listener: () => void): () => void;
}

