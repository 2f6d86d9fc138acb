/**
 * Tax forms (docs/tax-forms.md, docs/adr/0116): a customer's 1099-INT of a year, from the interest postings of the
 * accounts it is the first owner of; its service, store, REST operation, presenter and GraphQL field.
 */
export type { TaxFormStore } from './ports.js';
export { FIRST_TAX_YEAR, type Form1099Int, REPORTING_THRESHOLD, type TaxFormPayer } from './tax-form.js';
export { type SealedTinOpener, TaxFormService, type TaxFormServiceOptions } from './tax-form.service.js';
export { PrismaTaxFormStore } from './tax-form.store.js';
export { TAX_FORM_ROUTES } from './tax-form.rest.js';
export {
  form1099IntDataSchema,
  form1099IntFileName,
  form1099IntPdfOf,
  presentForm1099Int,
} from './tax-form.presenter.js';
export { taxFormResolvers } from './tax-form.resolvers.js';
