import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect } from 'vitest';
import { issueApiToken } from '../support/api-tokens.js';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';
import { consoleSuite, expectAccessible } from './helpers.js';

/**
 * A customer's timeline in the console (docs/customer-timeline.md): newest first, each kind in words with who did it
 * and a link to its account; a filter by kind; a CSV export of what the filter selects, whose cells never run as a
 * spreadsheet formula; the kinds a token may not read named, not shown.
 */

const suite = consoleSuite();
let customerId: string;
let accountId: string;
let noNotesToken: string;

async function ok(method: string, path: string, body?: unknown) {
  const res = await suite.service.call(method, path, { body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.json.data;
}

beforeAll(async () => {
  customerId = (await ok('POST', '/sandbox/customer', buildCustomerInput({ lastName: 'Storied' }))).customerId;
  accountId = (await ok('POST', '/sandbox/account', buildAccountInput([customerId], { name: 'Storied Checking' })))
    .accountId;
  await ok('POST', `/sandbox/account/${accountId}/transaction`, { type: 'CREDIT', amount: 250, description: 'Pay' });
  await ok('PUT', `/sandbox/account/${accountId}/flags/FROZEN`, { reason: 'Card reported stolen' });
  await ok('POST', `/sandbox/account/${accountId}/flags/FROZEN/lift`, { reason: 'Card found' });
  // A note written by a token whose name is a spreadsheet formula: the export must keep it text.
  const formulaToken = (
    await issueApiToken(suite.service.database.pool, {
      environments: ['sandbox'],
      scopes: ['notes:write'],
      name: '=HYPERLINK("http://x.invalid","click")',
    })
  ).token;
  const noted = await suite.service.call('POST', `/sandbox/customer/${customerId}/note`, {
    auth: false,
    headers: { authorization: `Bearer ${formulaToken}` },
    body: { text: 'Called about the card.' },
  });
  expect(noted.status, noted.text).toBe(201);
  noNotesToken = (
    await issueApiToken(suite.service.database.pool, {
      environments: ['sandbox'],
      scopes: ['customers:read', 'accounts:read', 'audit:read'],
      name: 'no notes',
    })
  ).token;
});

const { browserIt } = suite;

describe("a customer's timeline in the console", () => {
  const { open, expectClean } = suite.watchedPages();

  browserIt('tells the story newest first, filters by kind and downloads it as CSV', async () => {
    const { page } = await open();
    await suite.signInAt(page, `/console/customers/${customerId}`);
    const timeline = page.getByRole('region', { name: 'Timeline' });
    const table = timeline.getByRole('table', { name: "The customer's timeline, newest first" });
    await table.waitFor();
    const rows = async () => (await table.getByRole('row').allInnerTexts()).slice(1);
    const all = await rows();
    expect(all[0]).toContain('Note on the customer: Called about the card.');
    expect(all[0]).toContain('=HYPERLINK("http://x.invalid","click")');
    expect(all[1]).toMatch(/Flag lifted: Frozen, "Card found"/);
    expect(all[2]).toMatch(/Flag set: Frozen, "Card reported stolen"/);
    expect(all.some((row) => /Money in \$250\.00 \(posted\)/.test(row))).toBe(true);
    expect(all.at(-1)).toContain('Customer created');
    await timeline
      .getByRole('link', { name: `Account ${accountId.slice(0, 8)}` })
      .first()
      .waitFor();
    await expectAccessible(page, 'a customer timeline');

    // Only money: one row, the credit.
    for (const kind of ['Profile', 'Account', 'Flag', 'Verification', 'Note'])
      await timeline.getByRole('checkbox', { name: kind }).uncheck();
    await expect.poll(rows).toEqual([expect.stringMatching(/Money in \$250\.00 \(posted\)/)]);

    const downloading = page.waitForEvent('download');
    await timeline.getByRole('button', { name: 'Download CSV' }).click();
    const csv = await readFile((await (await downloading).path())!, 'utf8');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe(
      'at,kind,operation,what,actor,recordType,recordId,accountId,amount,currency,direction,status',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`"MONEY","transaction.posted","Money in $250.00 (posted)",""`);
    expect(lines[1]).toContain(`"${accountId}","250","USD","IN","POSTED"`);
    await timeline.getByRole('status').filter({ hasText: '1 entries downloaded.' }).waitFor();

    // The note, exported: its author's name is kept as text (an apostrophe first), not run as a formula.
    await timeline.getByRole('checkbox', { name: 'Money' }).uncheck();
    await timeline.getByRole('checkbox', { name: 'Note' }).check();
    const again = page.waitForEvent('download');
    await timeline.getByRole('button', { name: 'Download CSV' }).click();
    const notes = (await readFile((await (await again).path())!, 'utf8')).trim().split('\r\n');
    expect(notes[1]).toContain(
      `"NOTE","customer.note.add","Note on the customer: Called about the card.","'=HYPERLINK(""http://x.invalid"",""click"")"`,
    );
    expect(notes[1]).not.toMatch(/(^|,)"=/);
    expectClean();
  });

  browserIt('names the kinds a token may not read instead of showing them', async () => {
    const { page } = await open();
    await suite.signInAt(page, `/console/customers/${customerId}`, noNotesToken);
    const timeline = page.getByRole('region', { name: 'Timeline' });
    await timeline.getByText('Not shown (your token may not read them): Verification, Note.').waitFor();
    const texts = await timeline.getByRole('table').getByRole('row').allInnerTexts();
    expect(texts.some((row) => row.includes('Called about the card.'))).toBe(false);
    expect(texts.some((row) => row.includes('Card found'))).toBe(true);
    expectClean();
  });
});
