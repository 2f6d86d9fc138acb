import type pg from 'pg';
import type { PiiCipher } from '../pii/pii-cipher.js';

export interface RotationReport {
  activeKeyId: string;
  reencrypted: number;
  batches: number;
  /** Rows that could not be opened (unknown key id, tampered ciphertext): listed by id, never by content. */
  failed: { customerId: string; keyId: string; reason: string }[];
  /** Rows still under another key after this run: the failed ones and any a request held locked meanwhile. */
  remaining: number;
}

interface SealedRow {
  id: string;
  environment: string;
  pii_key_id: string;
  ssn_ciphertext: Buffer;
  document_locator_number_ciphertext: Buffer;
}

/**
 * Re-encrypts every customer's SSN and document locator number that is not under the active PII key.
 *
 * - Batches in id order, one short transaction each, so the service keeps running: rows are locked
 *   FOR NO KEY UPDATE (which does not block account creation's FOR KEY SHARE on customers) and rows a
 *   request holds are SKIPPED, not waited for; they remain for the next run.
 * - Resumable by construction: a row already under the active key is never selected again, so an
 *   interrupted run simply continues where it stopped when started again.
 * - Each value is opened with the key its row names and sealed under the active key with the same
 *   associated data (environment, customer id, field), so the row binding is kept. The blind index is
 *   left alone: it has its own key (rotating it is a separate, offline procedure, docs/security.md).
 */
export async function rotatePiiKeys(
  pool: pg.Pool,
  cipher: PiiCipher,
  options: { batchSize?: number; onBatch?: (progress: { batch: number; reencrypted: number }) => void } = {},
): Promise<RotationReport> {
  const batchSize = options.batchSize ?? 500;
  const report: RotationReport = { activeKeyId: cipher.activeKeyId, reencrypted: 0, batches: 0, failed: [], remaining: 0 };
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const client = await pool.connect();
    let last: string | undefined;
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<SealedRow>(
        `SELECT id::text AS id, environment, pii_key_id, ssn_ciphertext, document_locator_number_ciphertext
           FROM customers WHERE pii_key_id <> $1 AND id > $2::uuid
          ORDER BY id LIMIT $3 FOR NO KEY UPDATE SKIP LOCKED`,
        [report.activeKeyId, after, batchSize],
      );
      last = rows.at(-1)?.id;
      const ids: string[] = [];
      const ssns: Buffer[] = [];
      const documentLocatorNumbers: Buffer[] = [];
      for (const row of rows) {
        const binding = { environment: row.environment, customerId: row.id };
        try {
          const ssn = cipher.reseal(binding, 'ssn', row.pii_key_id, row.ssn_ciphertext);
          const documentLocatorNumber = cipher.reseal(binding, 'document_locator_number', row.pii_key_id, row.document_locator_number_ciphertext);
          ids.push(row.id);
          ssns.push(ssn);
          documentLocatorNumbers.push(documentLocatorNumber);
        } catch (error) {
          report.failed.push({ customerId: row.id, keyId: row.pii_key_id, reason: error instanceof Error ? error.message : 'cannot be opened' });
        }
      }
      if (ids.length > 0) {
        const updated = await client.query(
          `UPDATE customers AS c
              SET ssn_ciphertext = v.ssn, document_locator_number_ciphertext = v.dln, pii_key_id = $1
             FROM unnest($2::uuid[], $3::bytea[], $4::bytea[]) AS v(id, ssn, dln)
            WHERE c.id = v.id AND c.pii_key_id <> $1`,
          [report.activeKeyId, ids, ssns, documentLocatorNumbers],
        );
        report.reencrypted += updated.rowCount ?? 0;
      }
      await client.query('COMMIT');
      if (rows.length > 0) {
        report.batches += 1;
        options.onBatch?.({ batch: report.batches, reencrypted: report.reencrypted });
      }
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
    if (last === undefined) break;
    after = last;
  }
  const { rows } = await pool.query<{ count: string }>('SELECT count(*) AS count FROM customers WHERE pii_key_id <> $1', [report.activeKeyId]);
  report.remaining = Number(rows[0]!.count);
  return report;
}
