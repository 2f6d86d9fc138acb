import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.js';
import { createDomainServices } from '../../../src/features/services.js';
import { createStores } from '../../../src/features/stores.js';
import { createDomainHarness, type DomainHarness } from '../../support/domain.js';
import { buildCustomerInput } from '../../support/factories.js';
import { configProblems } from '../../support/config.js';

/**
 * The 1099-INT's payer (src/config/tax-forms.ts, docs/adr/0116): all four TAX_FORM_PAYER_* or none; outside production
 * a made-up sandbox payer, in production none, and then the form is refused (TAX_FORM_PAYER_NOT_CONFIGURED) with
 * nothing audited.
 */

const key = () => randomBytes(32).toString('base64');
const production = {
  NODE_ENV: 'production',
  API_TOKENS: randomBytes(32).toString('base64url'),
  PII_KEYS: `k1:${key()}`,
  PII_ACTIVE_KEY: 'k1',
  PII_BLIND_INDEX_KEY: key(),
};
const PAYER = {
  TAX_FORM_PAYER_NAME: 'First Example Bank, N.A.',
  TAX_FORM_PAYER_ADDRESS: '1 Main Street, Springfield, IL 62701',
  TAX_FORM_PAYER_TIN: '123456789',
  TAX_FORM_PAYER_PHONE: '(800) 555-0199',
};

describe('TAX_FORM_PAYER_*', () => {
  it('outside production defaults to a payer plainly made up; set, it is the one configured (the EIN as NN-NNNNNNN)', () => {
    expect(loadConfig({}).taxForms.payer).toEqual({
      name: 'Example Sandbox Bank (not a real payer)',
      address: '100 Example Street, Anytown, NY 10001',
      tin: '00-0000000',
      phone: '(555) 010-0100',
    });
    expect(loadConfig({ ...production, ...PAYER }).taxForms.payer).toEqual({
      name: 'First Example Bank, N.A.',
      address: '1 Main Street, Springfield, IL 62701',
      tin: '12-3456789',
      phone: '(800) 555-0199',
    });
  });

  it('in production, unset, there is no payer (never the sandbox one)', () => {
    expect(loadConfig(production).taxForms.payer).toBeNull();
  });

  it('refuses a partial payer, a TIN that is no EIN, a phone that is no number, each naming its variable', () => {
    expect(configProblems({ TAX_FORM_PAYER_NAME: 'Bank' })).toEqual([
      expect.stringContaining('TAX_FORM_PAYER_ADDRESS, TAX_FORM_PAYER_TIN, TAX_FORM_PAYER_PHONE must be set too'),
    ]);
    expect(configProblems({ ...PAYER, TAX_FORM_PAYER_TIN: '12-345678' })).toEqual([
      expect.stringContaining('TAX_FORM_PAYER_TIN must be the payer'),
    ]);
    expect(configProblems({ ...PAYER, TAX_FORM_PAYER_PHONE: 'call us' })).toEqual([
      expect.stringContaining('TAX_FORM_PAYER_PHONE must be a telephone number'),
    ]);
    // The bad TIN is not echoed.
    expect(configProblems({ ...PAYER, TAX_FORM_PAYER_TIN: '98-765432' }).join('\n')).not.toContain('98-765432');
  });
});

describe('a service without a payer', () => {
  let h: DomainHarness;
  beforeAll(async () => {
    h = await createDomainHarness();
  });
  afterAll(() => h?.close());

  it('refuses the form with TAX_FORM_PAYER_NOT_CONFIGURED and audits nothing', async () => {
    const services = createDomainServices({ stores: createStores(h.prisma), protector: h.cipher, taxFormPayer: null });
    const customer = await services.customers.create(h.caller(), buildCustomerInput());
    const year = new Date().getUTCFullYear() - 1;
    await expect(services.taxForms.form1099Int(h.caller(), customer.value.customerId, year)).rejects.toMatchObject({
      code: 'TAX_FORM_PAYER_NOT_CONFIGURED',
      kind: 'unavailable',
    });
    const { rows } = await h.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM audit_events WHERE operation = 'customer.tax_form.read'",
    );
    expect(rows[0]!.n).toBe(0);
  });
});
