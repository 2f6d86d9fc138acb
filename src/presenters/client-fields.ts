import { z } from 'zod';
import { EXTERNAL_ID_LENGTH, type Metadata, METADATA_LIMITS } from '../domain/metadata.js';

/**
 * A customer's or an account's externalId and metadata as they leave the service: only when set, so a record
 * that uses neither has exactly the contract's fields (docs/adr/0055-external-ids-and-metadata.md).
 */
export const clientFieldSchemas = {
  externalId: z
    .string()
    .max(EXTERNAL_ID_LENGTH)
    .optional()
    .describe(
      "Not in the contract. The client's own id for the record, unique per environment and kind; present only when set.",
    ),
  metadata: z
    .record(z.string().max(METADATA_LIMITS.keyLength), z.string().max(METADATA_LIMITS.valueLength))
    .optional()
    .describe(
      `Not in the contract. The client's key-value pairs (at most ${METADATA_LIMITS.keys}); present only when there is at least one.`,
    ),
};

export const presentClientFields = (record: {
  externalId?: string;
  metadata?: Metadata;
}): { externalId?: string; metadata?: Record<string, string> } => ({
  ...(record.externalId !== undefined && { externalId: record.externalId }),
  ...(record.metadata !== undefined && { metadata: { ...record.metadata } }),
});
