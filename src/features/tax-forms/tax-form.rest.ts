import {
  customerNotFound,
  statementRenderingBusy,
  taxFormNotApplicable,
  taxFormPayerNotConfigured,
  validationFailed,
} from '../../domain/errors.js';
import { notAcceptable } from '../../http/errors.js';
import { failure } from '../../rest/operations/failures.js';
import type { RestRoute } from '../../rest/operations/route.js';
import { form1099IntDataSchema } from './tax-form.presenter.js';
import { FIRST_TAX_YEAR, REPORTING_THRESHOLD } from './tax-form.js';

/** The media types a 1099-INT is answered in, the first the default (no Accept, or `*\/*`). */
export const TAX_FORM_MEDIA_TYPES = ['application/json', 'application/pdf'] as const;

/** Tax forms (docs/tax-forms.md, docs/adr/0116): the 1099-INT, an extension operation under the customer. */
export const TAX_FORM_ROUTES = [
  {
    operationId: 'getCustomerTaxForm1099Int',
    method: 'GET',
    path: '/:environment/customer/:customerId/tax-form/1099-INT/:year',
    family: 'customer',
    tag: 'Customers',
    summary: "A customer's 1099-INT of a tax year",
    description:
      "Not in the contract. The interest posted in calendar year `year` (by each posting's business date) to the accounts the customer is the first owner of " +
      '(the first OWNER of each account, docs/adr/0091): Box 1 and a line per account (its id, the last four digits of its number, the interest). ' +
      'A 1099-INT is in US dollars: accounts in other currencies are left out of Box 1 and listed in `otherCurrencyAccounts`. ' +
      `\`reportable\` is false below the $${REPORTING_THRESHOLD} reporting threshold. \`final\` is false until the environment's end of day has closed December 31 of the year. ` +
      "The payer is the service's configuration (TAX_FORM_PAYER_*); the recipient is the customer's name, first address and only the last four digits of its TIN (SSN, or a business's EIN). " +
      'By `Accept`: `application/json` (default, in the envelope) or `application/pdf` (the payee statement, drawn by the statement PDF workers: STATEMENT_RENDERING_BUSY when they have no room). ' +
      'Every read is audited (`customer.tax_form.read`).',
    scope: 'tax-forms:read',
    success: {
      status: 200,
      description: "The customer's 1099-INT.",
      data: form1099IntDataSchema,
      component: 'TaxForm1099Int',
    },
    representations: TAX_FORM_MEDIA_TYPES,
    failures: [
      failure(
        'VALIDATION_FAILED',
        `\`year\` is not a tax year from ${FIRST_TAX_YEAR} to the environment's current year (detail code OUT_OF_RANGE).`,
        validationFailed([
          {
            field: 'year',
            code: 'OUT_OF_RANGE',
            message: `Must be a tax year from ${FIRST_TAX_YEAR} to 2026 (the environment's current year, not final until it ends).`,
          },
        ]),
      ),
      failure(
        'CUSTOMER_NOT_FOUND',
        'No customer with this id in this environment (an id that is not a UUID cannot name one).',
        customerNotFound(),
      ),
      failure(
        'TAX_FORM_NOT_APPLICABLE',
        'The customer is a business that gets no 1099-INT: a corporation or a tax-exempt organisation (exempt recipients), or one formed outside the US.',
        taxFormNotApplicable('a corporation is an exempt recipient'),
      ),
      failure(
        'NOT_ACCEPTABLE',
        `\`Accept\` names none of ${TAX_FORM_MEDIA_TYPES.join(', ')}.`,
        notAcceptable(TAX_FORM_MEDIA_TYPES),
      ),
      failure(
        'TAX_FORM_PAYER_NOT_CONFIGURED',
        'A production service without TAX_FORM_PAYER_*: no form is printed with a made-up payer.',
        taxFormPayerNotConfigured(),
      ),
      failure(
        'STATEMENT_RENDERING_BUSY',
        'PDF only: the instance already renders or queues `STATEMENT_PDF_MAX_PENDING` PDFs; retry shortly.',
        statementRenderingBusy(4),
      ),
    ],
  },
] as const satisfies readonly RestRoute[];
