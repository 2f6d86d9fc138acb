import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { StatementDocument } from '../../src/features/history/statement.js';
import { statementPdf } from '../../src/features/history/statement-pdf.js';

/**
 * The sample statement of docs/statements.md, rendered by the service's own PDF presenter from made-up data and
 * turned into docs/images/statement-sample.png (`pdftoppm`, poppler-utils). Run: `npx tsx scripts/history/sample-statement.ts`.
 */
const entries = [
  ['2026-11-01T09:12:00.000Z', 'CREDIT', '2500', 'Payroll, November', '3742.18'],
  ['2026-11-03T14:40:00.000Z', 'DEBIT', '1200', 'Rent', '2542.18'],
  ['2026-11-07T18:05:00.000Z', 'DEBIT', '86.4', 'Groceries', '2455.78'],
  ['2026-11-12T08:30:00.000Z', 'DEBIT', '45.99', 'Phone bill', '2409.79'],
  ['2026-11-15T11:00:00.000Z', 'CREDIT', '150', 'Transfer from savings', '2559.79'],
  ['2026-11-21T19:45:00.000Z', 'DEBIT', '312.5', 'Car repair', '2247.29'],
  ['2026-11-28T10:10:00.000Z', 'DEBIT', '64.2', 'Groceries', '2183.09'],
] as const;
const document: StatementDocument = {
  accountName: 'Everyday Checking',
  holderNames: ['Alexandra Jane Doe', 'Sam Doe'],
  statement: {
    accountId: '0193a0c2-7e1d-7c4e-9f10-5a8b2c3d4e5f',
    currency: 'USD',
    from: '2026-11-01T00:00:00.000Z',
    to: '2026-12-01T00:00:00.000Z',
    asOfSequence: '48211',
    openingBalance: '1242.18',
    closingBalance: '2183.09',
    totalCredits: '2650',
    totalDebits: '1709.09',
    entries: entries.map(([postedAt, type, amount, description, balanceAfter], i) => ({
      transactionId: `0193a0c2-7e1d-7c4e-9f10-5a8b2c3d4e${String(60 + i)}`,
      type,
      amount,
      description,
      postedAt,
      balanceAfter,
      sequence: String(48100 + i * 15),
      transferId: null,
      reversesTransactionId: null,
    })),
  },
  balanceHistory: Array.from({ length: 31 }, (_, day) => {
    const at = new Date(Date.UTC(2026, 10, 1 + day)).toISOString();
    const last = [...entries].reverse().find(([postedAt]) => postedAt < at);
    return { at, posted: last ? last[4] : '1242.18' };
  }),
};

const dir = mkdtempSync(path.join(os.tmpdir(), 'cas-sample-statement-'));
try {
  const pdf = path.join(dir, 'statement.pdf');
  writeFileSync(pdf, await statementPdf(document));
  execFileSync('pdftoppm', ['-png', '-r', '60', '-singlefile', pdf, path.resolve('docs/images/statement-sample')]);
  process.stdout.write('docs/images/statement-sample.png written\n');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
