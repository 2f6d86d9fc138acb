import { z } from 'zod';
import type { Settings } from './settings.js';

/**
 * The payer on every 1099-INT (docs/tax-forms.md, docs/adr/0116): the bank's name, address, telephone number and
 * TIN (its EIN). All four or none (one alone is a typo: the service does not start). With none, outside production,
 * a payer that is plainly no real one (an EIN's prefix 00 is never issued, a 555-01xx number is fictional); in
 * production (NODE_ENV=production) there is then no payer, and a tax form is refused (TAX_FORM_PAYER_NOT_CONFIGURED)
 * rather than printed with the sandbox's: a form with a fake payer must never reach a customer, and a deployment
 * that serves no tax forms need not invent one.
 */
const text = (name: string, max: number) =>
  z.string().trim().min(1, `${name} must not be blank`).max(max, `${name} must be at most ${max} characters`);

/** An EIN: nine digits, written NN-NNNNNNN or without the dash. */
const EIN = /^(\d{2})-?(\d{7})$/;

export const taxFormsEnv = {
  TAX_FORM_PAYER_NAME: text('TAX_FORM_PAYER_NAME', 120).optional(),
  TAX_FORM_PAYER_ADDRESS: text('TAX_FORM_PAYER_ADDRESS', 200).optional(),
  TAX_FORM_PAYER_TIN: z
    .string()
    .trim()
    .regex(EIN, 'TAX_FORM_PAYER_TIN must be the payer\u2019s EIN: 9 digits, as NN-NNNNNNN or NNNNNNNNN')
    .transform((value) => value.replace(EIN, '$1-$2'))
    .optional(),
  TAX_FORM_PAYER_PHONE: z
    .string()
    .trim()
    .regex(/^[0-9+()\-. ]{7,20}$/, 'TAX_FORM_PAYER_PHONE must be a telephone number (digits, spaces, + ( ) - .)')
    .optional(),
};

/** Outside production: a payer no one could mistake for a real one. */
export const SANDBOX_PAYER = {
  name: 'Example Sandbox Bank (not a real payer)',
  address: '100 Example Street, Anytown, NY 10001',
  tin: '00-0000000',
  phone: '(555) 010-0100',
} as const;

const PAYER_VARIABLES = [
  'TAX_FORM_PAYER_NAME',
  'TAX_FORM_PAYER_ADDRESS',
  'TAX_FORM_PAYER_TIN',
  'TAX_FORM_PAYER_PHONE',
] as const;

/** All four payer variables, or none. */
export function taxFormProblems(raw: Settings<typeof taxFormsEnv>, problems: string[]): void {
  const missing = PAYER_VARIABLES.filter((name) => raw[name] === undefined);
  if (missing.length > 0 && missing.length < PAYER_VARIABLES.length)
    problems.push(
      `${missing.join(', ')} must be set too: the 1099-INT's payer is configured whole (${PAYER_VARIABLES.join(', ')}) or not at all`,
    );
}

export const taxFormsConfig = (raw: Settings<typeof taxFormsEnv>, nodeEnv: 'development' | 'test' | 'production') => {
  const configured = raw.TAX_FORM_PAYER_NAME !== undefined;
  return {
    taxForms: {
      /** The payer printed on every 1099-INT; null in production when unset (the forms are then refused). */
      payer:
        configured || nodeEnv !== 'production'
          ? {
              name: raw.TAX_FORM_PAYER_NAME ?? SANDBOX_PAYER.name,
              address: raw.TAX_FORM_PAYER_ADDRESS ?? SANDBOX_PAYER.address,
              /** NN-NNNNNNN. */
              tin: raw.TAX_FORM_PAYER_TIN ?? SANDBOX_PAYER.tin,
              phone: raw.TAX_FORM_PAYER_PHONE ?? SANDBOX_PAYER.phone,
            }
          : null,
    },
  };
};
