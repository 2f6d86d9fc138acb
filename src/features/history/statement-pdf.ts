import PDFDocument from 'pdfkit';
import type { StatementDocument } from './statement.js';
import { minorUnitDigits } from '../ledger/index.js';

/**
 * A statement as a PDF a customer would recognise: the holders' names (never any other personal datum), the
 * account, the period, the opening and closing balances and the totals, a chart of the balance drawn from the
 * balance history with PDFKit's vector primitives, the entries, and page numbers.
 *
 * Deterministic: the same statement gives the same bytes. PDFKit's only varying inputs are the document's
 * CreationDate (and the file ID it derives from the info dictionary), both fixed here to the end of the
 * period; the standard fonts are not embedded, so no font subset tag varies either.
 */

/**
 * The renderer's version, part of every cached PDF's key (src/features/history/statement-pdfs.ts): raise it with any
 * change to what a statement draws. (The cache is in memory, so a new build or PDFKit version starts it empty.)
 */
export const STATEMENT_PDF_RENDERER_VERSION = 2;

const MARGIN = 50;
const ROW_HEIGHT = 14;
const COLUMNS = {
  date: MARGIN,
  description: MARGIN + 110,
  credit: MARGIN + 290,
  debit: MARGIN + 365,
  balance: MARGIN + 440,
} as const;
const AMOUNT_WIDTH = 70;

/** Exact decimal text as money: thousands separated, the currency's minor-unit digits, e.g. "-1,234.50". */
export function formatMoney(amount: string, currency: string): string {
  const negative = amount.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? amount.slice(1) : amount).split('.');
  const digits = minorUnitDigits(currency);
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const minor = digits === 0 ? '' : `.${fraction.padEnd(digits, '0')}`;
  return `${negative ? '-' : ''}${grouped}${minor}`;
}

/** A fraction of 1 to 4 decimals as a percentage to 2: "0.0658" is "6.58%". */
function percent(fraction: string): string {
  const [whole = '0', decimals = ''] = fraction.split('.');
  const digits = `${whole}${decimals.padEnd(4, '0').slice(0, 4)}`.replace(/^0+(?=\d{3})/, '');
  return `${digits.slice(0, -2) || '0'}.${digits.slice(-2)}%`;
}

/** An instant as "2026-12-01 14:05 UTC". */
const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

export function statementPdf(document: StatementDocument): Promise<Buffer> {
  const { statement } = document;
  const end = new Date(statement.to);
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: MARGIN,
    bufferPages: true,
    info: {
      Title: `Statement ${statement.accountId} ${statement.from} - ${statement.to}`,
      Author: 'Customer & Account Service',
      Subject: 'Account statement',
      CreationDate: end,
      ModDate: end,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const money = (amount: string) => formatMoney(amount, statement.currency);

  doc.font('Helvetica-Bold').fontSize(18).text('Account statement');
  doc.moveDown(0.5).font('Helvetica').fontSize(10);
  doc.text(`Account: ${document.accountName} (${statement.accountId}), ${statement.currency}`);
  doc.text(
    `Account holders: ${document.holderNames === null ? 'not shown (the request may not read customers)' : document.holderNames.join(', ') || 'none'}`,
  );
  doc.text(`Period: ${when(statement.from)} to ${when(statement.to)}`);
  doc.text(`Reflects the ledger up to posting sequence ${statement.asOfSequence}`);
  doc.moveDown(0.8);

  const summary: [string, string][] = [
    ['Opening balance', money(statement.openingBalance)],
    ['Total credits', money(statement.totalCredits)],
    ['Total debits', money(statement.totalDebits)],
    ['Closing balance', money(statement.closingBalance)],
  ];
  // An account on a product: the period's interest and the annual percentage yield earned (Reg DD §1030.7(c)).
  const interest = statement.interest;
  if (interest) {
    summary.push(['Interest earned', money(interest.interestEarned)]);
    summary.push(['Fees charged', money(interest.feesCharged)]);
    summary.push(['Average daily balance', money(interest.averageDailyBalance)]);
  }
  for (const [label, value] of summary) {
    const y = doc.y;
    doc.font('Helvetica-Bold').text(label, MARGIN, y, { width: 150 });
    doc.font('Helvetica').text(`${value} ${statement.currency}`, MARGIN + 150, y, { width: 200 });
  }
  if (interest) {
    const earned = interest.annualPercentageYieldEarned;
    doc
      .font('Helvetica-Bold')
      .text(
        `Annual percentage yield earned: ${earned === null ? 'n/a' : percent(earned)} over ${interest.daysInPeriod} days`,
        MARGIN,
        doc.y,
      );
    doc.font('Helvetica');
  }
  doc.moveDown(1);
  drawChart(doc, document, money);
  drawEntries(doc, document, money);

  // Page numbers, once every page exists: written inside the bottom margin, which must not start a new page.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font('Helvetica')
      .fontSize(8)
      .fillColor('#444444')
      .text(`Page ${i - range.start + 1} of ${range.count}`, MARGIN, doc.page.height - 30, {
        width: doc.page.width - 2 * MARGIN,
        align: 'center',
        lineBreak: false,
      });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  return done;
}

/** The balance over the period: a polyline over the history's points in a framed box, with its range labelled. */
function drawChart(doc: PDFKit.PDFDocument, document: StatementDocument, money: (amount: string) => string): void {
  const points = document.balanceHistory;
  const x0 = MARGIN;
  const width = doc.page.width - 2 * MARGIN;
  const height = 140;
  const top = doc.y + 14;
  doc.font('Helvetica-Bold').fontSize(10).fillColor('black').text('Balance over the period', x0, doc.y);
  doc.rect(x0, top, width, height).lineWidth(0.5).strokeColor('#999999').stroke();
  const values = points.map((point) => Number(point.posted));
  const low = Math.min(0, ...values);
  const high = Math.max(0, ...values);
  const span = high - low || 1;
  const yOf = (value: number) => top + height - 8 - ((value - low) / span) * (height - 16);
  const xOf = (i: number) => x0 + 8 + (points.length <= 1 ? 0 : (i / (points.length - 1)) * (width - 16));
  // The zero line, dashed.
  doc
    .moveTo(x0, yOf(0))
    .lineTo(x0 + width, yOf(0))
    .dash(2, { space: 2 })
    .strokeColor('#bbbbbb')
    .stroke()
    .undash();
  if (points.length > 0) {
    doc.moveTo(xOf(0), yOf(values[0]!));
    for (let i = 1; i < points.length; i++) doc.lineTo(xOf(i), yOf(values[i]!));
    doc.lineWidth(1.5).strokeColor('#1f5fa8').stroke();
  }
  doc.font('Helvetica').fontSize(7).fillColor('#444444');
  doc.text(`${money(String(high))}`, x0 + 4, top + 2, { lineBreak: false });
  doc.text(`${money(String(low))}`, x0 + 4, top + height - 10, { lineBreak: false });
  if (points.length > 0) {
    doc.text(points[0]!.at.slice(0, 10), x0, top + height + 3, { lineBreak: false });
    doc.text(points[points.length - 1]!.at.slice(0, 10), x0 + width - 45, top + height + 3, { lineBreak: false });
  }
  doc.fillColor('black');
  doc.x = MARGIN;
  doc.y = top + height + 24;
}

function drawEntries(doc: PDFKit.PDFDocument, document: StatementDocument, money: (amount: string) => string): void {
  const { statement } = document;
  const header = () => {
    const y = doc.y;
    doc.font('Helvetica-Bold').fontSize(9);
    doc.text('Posted', COLUMNS.date, y, { lineBreak: false });
    doc.text('Description', COLUMNS.description, y, { lineBreak: false });
    doc.text('Credit', COLUMNS.credit, y, { width: AMOUNT_WIDTH, align: 'right', lineBreak: false });
    doc.text('Debit', COLUMNS.debit, y, { width: AMOUNT_WIDTH, align: 'right', lineBreak: false });
    doc.text('Balance', COLUMNS.balance, y, { width: AMOUNT_WIDTH, align: 'right', lineBreak: false });
    doc
      .moveTo(MARGIN, y + ROW_HEIGHT - 3)
      .lineTo(doc.page.width - MARGIN, y + ROW_HEIGHT - 3)
      .lineWidth(0.5)
      .strokeColor('#999999')
      .stroke();
    doc.x = MARGIN;
    doc.y = y + ROW_HEIGHT;
    doc.font('Helvetica').fontSize(8);
  };
  const row = (cells: { date: string; description: string; credit: string; debit: string; balance: string }) => {
    if (doc.y + ROW_HEIGHT > doc.page.height - MARGIN) {
      doc.addPage();
      header();
    }
    const y = doc.y;
    doc.text(cells.date, COLUMNS.date, y, { lineBreak: false });
    doc.text(cells.description, COLUMNS.description, y, {
      width: 175,
      height: ROW_HEIGHT,
      ellipsis: true,
      lineBreak: false,
    });
    doc.text(cells.credit, COLUMNS.credit, y, { width: AMOUNT_WIDTH, align: 'right', lineBreak: false });
    doc.text(cells.debit, COLUMNS.debit, y, { width: AMOUNT_WIDTH, align: 'right', lineBreak: false });
    doc.text(cells.balance, COLUMNS.balance, y, { width: AMOUNT_WIDTH, align: 'right', lineBreak: false });
    doc.x = MARGIN;
    doc.y = y + ROW_HEIGHT;
  };
  header();
  row({
    date: when(statement.from),
    description: 'Opening balance',
    credit: '',
    debit: '',
    balance: money(statement.openingBalance),
  });
  for (const entry of statement.entries) {
    row({
      date: when(entry.postedAt),
      description: entry.description || (entry.type === 'CREDIT' ? 'Credit' : 'Debit'),
      credit: entry.type === 'CREDIT' ? money(entry.amount) : '',
      debit: entry.type === 'DEBIT' ? money(entry.amount) : '',
      balance: money(entry.balanceAfter),
    });
  }
  row({
    date: when(statement.to),
    description: 'Closing balance',
    credit: money(statement.totalCredits),
    debit: money(statement.totalDebits),
    balance: money(statement.closingBalance),
  });
}
