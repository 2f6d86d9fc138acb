import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../../../src/db/connection/pool.js';
import { createPrismaClient } from '../../../src/db/connection/prisma-client.js';
import { PrismaHistoryStore } from '../../../src/features/history/history.store.js';
import { isoInstant } from '../../../src/db/sql/columns.js';
import type { LedgerExportEntry, LedgerExportFormat, Statement } from '../../../src/features/history/statement.js';
import {
  LEDGER_EXPORT_COLUMNS,
  ledgerExportCsvHeader,
  statementCsv,
  statementCsvChunks,
} from '../../../src/features/history/history.presenter.js';
import { ledgerViolations } from '../../support/ledger-invariants.js';
import { startTestService, type TestService } from '../../support/service.js';
import { createCustomer, expectSuccess } from '../../rest/helpers.js';

/**
 * The export's lines, which PostgreSQL writes a batch at a time, against their plain definitions over the same
 * rows (each entry read as an object, then JSON.stringify and RFC 4180 field by field); the statement's CSV
 * chunks against the whole document.
 */
let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.stop());

/** Each exported entry as an object, in posting order: the export's values as the service selected them before its lines were SQL. */
const ENTRIES_SQL = `SELECT e.posting_seq::text AS sequence, ${isoInstant('e.posted_at')} AS "postedAt", e.currency, e.type AS direction,
    trim_scale(e.posted_amount)::text AS amount, e.account_id AS "accountId",
    CASE WHEN NOT e.is_settlement THEN 'CUSTOMER'
         ELSE coalesce((SELECT i.purpose FROM ledger_internal_accounts i WHERE i.id = e.account_id), 'SETTLEMENT') END AS "accountKind", e.id AS "transactionId", e.posting_id AS "postingId"
  FROM ledger_entries e WHERE e.environment = 'sandbox' AND e.status = 'POSTED' AND ($1::uuid IS NULL OR e.account_id = $1::uuid)
  ORDER BY e.posted_at, e.posting_seq`;

const rfc4180 = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
const plainLines: Record<LedgerExportFormat, (entries: readonly LedgerExportEntry[]) => string> = {
  ndjson: (entries) =>
    entries
      .map((e) => `${JSON.stringify(Object.fromEntries(LEDGER_EXPORT_COLUMNS.map((column) => [column, e[column]])))}\n`)
      .join(''),
  csv: (entries) =>
    entries.map((e) => `${LEDGER_EXPORT_COLUMNS.map((column) => rfc4180(e[column])).join(',')}\r\n`).join(''),
};

/** A posting: on which account, its direction, its amount in minor units, and whether it is a hold posted in part. */
const postingArbitrary = fc.record({
  account: fc.integer({ min: 0, max: 2 }),
  credit: fc.boolean(),
  minor: fc.integer({ min: 1, max: 99_999_999 }),
  partHold: fc.boolean(),
});

describe('ledger export lines', () => {
  it('are the plain definitions over the same rows, byte for byte, in both formats and batches of any size', async () => {
    // Three currencies of 2, 0 and 3 minor-unit digits; random amounts; holds posted in part (the posted amount is exported).
    const currencies = [
      ['USD', 2],
      ['JPY', 0],
      ['KWD', 3],
    ] as const;
    const customerId = (await createCustomer(service)).customerId;
    const accounts: string[] = [];
    for (const [currency] of currencies) {
      const res = await service.call('POST', '/sandbox/account', {
        body: { associatedCustomerIds: [customerId], name: 'Export', currency, type: 'CHECKING' },
      });
      expectSuccess(res, 'account', 201);
      accounts.push(res.json.data.accountId as string);
    }
    const balances = [0, 0, 0];
    for (const step of fc.sample(fc.array(postingArbitrary, { minLength: 40, maxLength: 40 }), {
      numRuns: 1,
      seed: 31_4,
    })[0]!) {
      const digits = currencies[step.account]![1];
      const minor =
        step.credit || balances[step.account]! === 0 ? step.minor : 1 + (step.minor % balances[step.account]!);
      const credit = step.credit || balances[step.account]! === 0;
      const amount = minor / 10 ** digits;
      const path = `/sandbox/account/${accounts[step.account]}/transaction`;
      const res = await service.call('POST', path, {
        body: { type: credit ? 'CREDIT' : 'DEBIT', amount, hold: step.partHold },
      });
      expectSuccess(res, 'account', 201);
      const postedMinor = step.partHold ? Math.max(1, Math.floor(minor / 3)) : minor;
      if (step.partHold) {
        const posted = await service.call('POST', `${path}/${res.json.data.transactionId}/post`, {
          body: { amount: postedMinor / 10 ** digits },
        });
        expectSuccess(posted, 'account', 200);
      }
      balances[step.account]! += credit ? postedMinor : -postedMinor;
    }

    // The store on a pool of its own, as the service builds it, to export with any batch size.
    const pool = createPool({
      connectionString: service.databaseUrl,
      max: 2,
      connectTimeoutMs: 60_000,
      statementTimeoutMs: 60_000,
    });
    const prisma = createPrismaClient(pool);
    try {
      const store = new PrismaHistoryStore(prisma);
      const to = new Date(Date.now() + 60_000);
      for (const accountId of [null, accounts[2]!]) {
        const { rows } = await service.database.pool.query<LedgerExportEntry>(ENTRIES_SQL, [accountId]);
        expect(rows.length).toBe(accountId === null ? 80 : rows.filter((row) => row.accountId === accountId).length);
        expect(rows.length).toBeGreaterThan(0);
        for (const format of ['ndjson', 'csv'] as const) {
          const expected = plainLines[format](rows);
          for (const batchSize of [1, 7, 250]) {
            const batches: string[] = [];
            const handed = await store.exportEntries(
              { environment: 'sandbox', from: null, to, accountId, format, batchSize },
              async (lines) => {
                batches.push(lines);
                return true;
              },
            );
            expect(handed).toBe(rows.length);
            expect(batches.join(''), `${format}, batches of ${batchSize}`).toBe(expected);
            expect(batches).toHaveLength(Math.ceil(rows.length / batchSize));
            expect(
              batches.every((batch) => batch.split(format === 'csv' ? '\r\n' : '\n').length - 1 <= batchSize),
            ).toBe(true);
          }
        }
        // Over HTTP the same bytes, the CSV under its header.
        const query = accountId === null ? '' : `?accountId=${accountId}`;
        for (const [format, accept] of [
          ['ndjson', 'application/x-ndjson'],
          ['csv', 'text/csv'],
        ] as const) {
          const response = await fetch(`${service.url}/sandbox/ledger-entries${query}`, {
            headers: { authorization: `Bearer ${service.token}`, accept },
          });
          expect(response.status).toBe(200);
          expect(await response.text()).toBe(
            (format === 'csv' ? ledgerExportCsvHeader() : '') + plainLines[format](rows),
          );
        }
      }
      // What the rows hold is what a consumer expects of them: instants as Date.toISOString() writes them, exact decimals.
      const { rows } = await service.database.pool.query<LedgerExportEntry>(ENTRIES_SQL, [null]);
      for (const row of rows) {
        expect(new Date(row.postedAt).toISOString()).toBe(row.postedAt);
        expect(row.amount).toMatch(/^\d+(\.\d*[1-9])?$/);
      }
      expect(new Set(rows.map((row) => row.accountKind))).toEqual(new Set(['CUSTOMER', 'SETTLEMENT']));
    } finally {
      await prisma.$disconnect();
      await pool.end();
    }
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });
});

describe('statement CSV chunks', () => {
  const statementOf = (count: number): Statement => ({
    accountId: '0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8e',
    currency: 'USD',
    from: '2026-01-01T00:00:00.000Z',
    to: '2026-02-01T00:00:00.000Z',
    asOfSequence: String(count),
    openingBalance: '0',
    closingBalance: String(count),
    totalCredits: String(count),
    totalDebits: '0',
    entries: Array.from({ length: count }, (_, i) => ({
      transactionId: '0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8f',
      type: 'CREDIT' as const,
      amount: '1',
      description: i % 2 === 0 ? `=cmd, "${i}"` : `rent ${i}`,
      postedAt: '2026-01-02T00:00:00.000Z',
      balanceAfter: String(i + 1),
      sequence: String(i + 1),
      transferId: null,
      reversesTransactionId: null,
    })),
  });

  it('are the document in order: a header, the opening row, every entry, the closing row, in bounded chunks', () => {
    for (const count of [0, 1, 125, 126, 127, 1000]) {
      const statement = statementOf(count);
      const chunks = [...statementCsvChunks(statement)];
      const rows = chunks.join('').split('\r\n');
      expect(rows.at(-1)).toBe('');
      expect(rows.length - 1, `${count} entries`).toBe(count + 3);
      expect(rows[0]).toBe('kind,postedAt,transactionId,description,amount,balance,currency,sequence');
      expect(rows[1]).toBe('OPENING_BALANCE,2026-01-01T00:00:00.000Z,,,,0,USD,');
      if (count > 0)
        expect(rows[2]).toBe(
          `CREDIT,2026-01-02T00:00:00.000Z,0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8f,"'=cmd, ""0""",1,1,USD,1`,
        );
      expect(rows.at(-2)).toBe(`CLOSING_BALANCE,2026-02-01T00:00:00.000Z,,,,${count},USD,${count}`);
      expect(Math.max(...chunks.map((chunk) => chunk.split('\r\n').length - 1))).toBeLessThanOrEqual(129);
      expect(chunks.length).toBe(Math.floor((count + 2) / 128) + 1);
      expect(statementCsv(statement)).toBe(chunks.join(''));
    }
  });
});
