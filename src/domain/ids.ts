import { v7 as uuidv7, validate as isUuid } from 'uuid';

/**
 * Customer and account ids are UUIDv7: unguessable enough to be exposed, time-ordered so that
 * inserts stay at the right edge of the primary-key index and pagination has a stable order.
 */
export const newId = (): string => uuidv7();

/** A string that cannot be an id cannot name a record: the caller gets "not found", not a 400. */
export const isRecordId = (value: string): boolean => isUuid(value);
