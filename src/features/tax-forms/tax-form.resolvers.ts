import type { Resolvers } from '../../graphql/generated/resolvers-types.js';
import { presentForm1099Int } from './tax-form.presenter.js';

/**
 * `Customer.taxForm1099Int(year)` (docs/adr/0116): REST's TaxFormService.form1099Int, its scope (`tax-forms:read`,
 * declared on the field), its audit and its codes, in the JSON answer's shape.
 */
export const taxFormResolvers: Pick<Resolvers, 'Customer'> = {
  Customer: {
    taxForm1099Int: async (customer, { year }, { services, caller }) =>
      presentForm1099Int(await services.taxForms.form1099Int(caller, customer.customerId, year)),
  },
};
