import { validationFailed } from '../../domain/errors.js';
import type { TimelinePosition } from './ports.js';

/** A timeline's cursor: the last entry's time and id, base64url-encoded (opaque to clients; docs/adr/0111). */
export const timelineCursorOf = (entry: { at: Date; id: string }): string =>
  Buffer.from(`${entry.at.toISOString()}|${entry.id}`, 'utf8').toString('base64url');

/** The position a cursor names; VALIDATION_FAILED (field `after`) when it is not one this service made. */
export function timelinePositionOf(after: string): TimelinePosition {
  const refused = validationFailed([
    { field: 'after', code: 'INVALID_VALUE', message: 'Must be the endCursor of an earlier page.' },
  ]);
  if (after.length > 200 || !/^[A-Za-z0-9_-]+$/.test(after)) throw refused;
  const [at, id, ...rest] = Buffer.from(after, 'base64url').toString('utf8').split('|');
  const time = new Date(at ?? '');
  if (
    rest.length > 0 ||
    !id ||
    !/^[a-z0-9:-]{1,120}$/.test(id) ||
    Number.isNaN(time.getTime()) ||
    time.toISOString() !== at
  )
    throw refused;
  return { at: time, id };
}
