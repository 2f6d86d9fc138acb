import { describe, expect, it } from 'vitest';
import type { LedgerExportEntry, Statement } from '../../src/domain/history/statement.js';
import { LEDGER_EXPORT_COLUMNS, ledgerExportLines, statementCsv, statementCsvChunks } from '../../src/presenters/history.js';

/** The export's and the statement's text, written without intermediate objects, against their plain definitions. */
const entry = (n: number, currency = 'USD'): LedgerExportEntry => ({
  sequence: String(n),
  postedAt: '2026-01-01T00:00:00.000Z',
  currency,
  direction: n % 2 === 0 ? 'CREDIT' : 'DEBIT',
  amount: `${n}.5`,
  accountId: '0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8e',
  accountKind: n % 3 === 0 ? 'SETTLEMENT' : 'CUSTOMER',
  transactionId: '0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8f',
  postingId: '0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d90',
});

const fieldsOf = (e: LedgerExportEntry) => LEDGER_EXPORT_COLUMNS.map((column) => e[column]);
const rfc4180 = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

describe('ledger export lines', () => {
  // A currency no account can have, to show that escaping still happens field by field.
  const entries = [entry(1), entry(2), entry(3, 'A"\n,')];

  it('as NDJSON: one JSON object per line, the columns in order', () => {
    const expected = entries.map((e) => `${JSON.stringify(Object.fromEntries(LEDGER_EXPORT_COLUMNS.map((column) => [column, e[column]])))}\n`).join('');
    expect(ledgerExportLines(entries, 'ndjson')).toBe(expected);
    expect(ledgerExportLines(entries, 'ndjson').trimEnd().split('\n').map((line) => JSON.parse(line))).toEqual(entries);
  });

  it('as CSV: RFC 4180 rows with CRLF, quoted where a field needs it', () => {
    expect(ledgerExportLines(entries, 'csv')).toBe(entries.map((e) => `${fieldsOf(e).map(rfc4180).join(',')}\r\n`).join(''));
    expect(ledgerExportLines([], 'csv')).toBe('');
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
      if (count > 0) expect(rows[2]).toBe(`CREDIT,2026-01-02T00:00:00.000Z,0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8f,"'=cmd, ""0""",1,1,USD,1`);
      expect(rows.at(-2)).toBe(`CLOSING_BALANCE,2026-02-01T00:00:00.000Z,,,,${count},USD,${count}`);
      expect(Math.max(...chunks.map((chunk) => chunk.split('\r\n').length - 1))).toBeLessThanOrEqual(129);
      expect(chunks.length).toBe(Math.floor((count + 2) / 128) + 1);
      expect(statementCsv(statement)).toBe(chunks.join(''));
    }
  });
});
