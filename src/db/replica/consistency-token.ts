/**
 * Consistency tokens (docs/adr/0040-read-replicas.md): a write's position in PostgreSQL's write-ahead
 * log, handed to the client and presented back on reads that must see that write. Opaque to clients: the
 * version prefix lets a later format coexist with this one during a rollout, and a token this build cannot
 * read sends the read to the primary (always correct) instead of failing it.
 */

/** A write-ahead log position (PostgreSQL's pg_lsn, 64 bits). */
export type Lsn = bigint;

/** Above any position PostgreSQL can reach: a token carrying it is served by the primary. */
export const UNKNOWN_POSITION: Lsn = 0xffff_ffff_ffff_ffffn;

const TOKEN = /^v1\.([0-9a-f]{16})$/;
const LSN_TEXT = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i;

/** pg_lsn's text form `16/B374D848` as a number. */
export function lsnFromText(text: string): Lsn {
  const match = LSN_TEXT.exec(text);
  if (!match) throw new Error(`Not a WAL position: ${text}`);
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

export function lsnToText(lsn: Lsn): string {
  return `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffff_ffffn).toString(16).toUpperCase()}`;
}

export const formatConsistencyToken = (lsn: Lsn): string => `v1.${lsn.toString(16).padStart(16, '0')}`;

/** The position a token names; undefined when it is not a token of this format. */
export function parseConsistencyToken(token: string): Lsn | undefined {
  const match = TOKEN.exec(token.trim());
  return match ? BigInt(`0x${match[1]}`) : undefined;
}
