import PDFDocument from 'pdfkit';
import { formatMoney } from './statement-pdf.js';

/**
 * A 1099-INT payee statement (the recipient's copy, "Copy B") drawn by the statement PDF engine (docs/adr/0116): the
 * same PDFKit, the same worker pool, the same determinism (CreationDate fixed, standard fonts not embedded). It is
 * handed text that is already what the form may show: the recipient's TIN only as its last four, masked (26 CFR
 * 301.6109-4), so no full SSN or EIN ever reaches the renderer, a worker thread's message or the PDF.
 */

/** What a 1099-INT's PDF is drawn from: display text only (amounts exact decimal strings in US dollars). */
export interface Form1099IntPdf {
  taxYear: number;
  final: boolean;
  reportable: boolean;
  reportingThreshold: string;
  payer: { name: string; address: string; tin: string; phone: string };
  recipient: { name: string; addressLines: string[]; maskedTin: string };
  box1InterestIncome: string;
  accounts: { accountId: string; accountNumberLast4: string | null; interestPaid: string }[];
  /** Accounts in other currencies, left out of Box 1 (a 1099-INT is in dollars). */
  otherCurrencyAccounts: { accountId: string; currency: string; interestPaid: string }[];
  /** When the form was read (ISO 8601), the document's creation date. */
  asOf: string;
}

const MARGIN = 50;

export function form1099IntPdf(form: Form1099IntPdf): Promise<Buffer> {
  const created = new Date(form.asOf);
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: MARGIN,
    info: {
      Title: `Form 1099-INT ${form.taxYear}`,
      Author: form.payer.name,
      Subject: 'Interest income, payee statement',
      CreationDate: created,
      ModDate: created,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const usd = (amount: string) => `$${formatMoney(amount, 'USD')}`;
  const width = doc.page.width - 2 * MARGIN;

  doc.font('Helvetica-Bold').fontSize(18).text(`Form 1099-INT  Interest Income  ${form.taxYear}`);
  doc.font('Helvetica').fontSize(9).text('Copy B, for the recipient. This is important tax information.');
  if (!form.final)
    doc
      .font('Helvetica-Bold')
      .text(`NOT FINAL: the tax year ${form.taxYear} has not ended; the amounts may still change.`);
  doc.moveDown(0.8);

  const block = (title: string, lines: string[]) => {
    doc.font('Helvetica-Bold').fontSize(10).text(title);
    doc.font('Helvetica').fontSize(10);
    for (const line of lines) doc.text(line);
    doc.moveDown(0.6);
  };
  block("PAYER'S name, address and telephone number", [form.payer.name, form.payer.address, form.payer.phone]);
  block("PAYER'S TIN", [form.payer.tin]);
  block("RECIPIENT'S TIN", [form.recipient.maskedTin]);
  block("RECIPIENT'S name and address", [form.recipient.name, ...form.recipient.addressLines]);

  const top = doc.y;
  doc.rect(MARGIN, top, width, 44).lineWidth(0.8).strokeColor('#333333').stroke();
  doc
    .font('Helvetica-Bold')
    .fontSize(10)
    .text('1  Interest income', MARGIN + 8, top + 8);
  doc
    .font('Helvetica-Bold')
    .fontSize(14)
    .text(usd(form.box1InterestIncome), MARGIN + 8, top + 22);
  doc.x = MARGIN;
  doc.y = top + 56;
  doc.font('Helvetica').fontSize(9);
  doc.text(
    form.reportable
      ? `Reportable: at least the $${form.reportingThreshold} reporting threshold.`
      : `Not reportable: below the $${form.reportingThreshold} reporting threshold; no return is filed for this amount.`,
  );
  doc.moveDown(0.8);

  doc.font('Helvetica-Bold').fontSize(10).text('Interest paid by account');
  doc.font('Helvetica').fontSize(9);
  if (form.accounts.length === 0) doc.text('No interest was paid in the year.');
  for (const account of form.accounts)
    doc.text(
      `Account ${account.accountNumberLast4 === null ? account.accountId : `ending ${account.accountNumberLast4}`}: ${usd(account.interestPaid)}`,
    );
  if (form.otherCurrencyAccounts.length > 0) {
    doc.moveDown(0.6);
    doc.font('Helvetica-Bold').text('Not included in box 1 (not in US dollars)');
    doc.font('Helvetica');
    for (const account of form.otherCurrencyAccounts)
      doc.text(
        `Account ${account.accountId}: ${formatMoney(account.interestPaid, account.currency)} ${account.currency}`,
      );
  }
  doc.end();
  return done;
}
