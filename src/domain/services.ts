import { AccountService } from './accounts/account.service.js';
import { CustomerService } from './customers/customer.service.js';
import type { Database, PersonalDataProtector } from './ports.js';

export interface DomainServices {
  customers: CustomerService;
  accounts: AccountService;
}

/** The one place the domain services are built; REST and GraphQL receive the same instances. */
export function createDomainServices(deps: { db: Database; protector: PersonalDataProtector }): DomainServices {
  return {
    customers: new CustomerService(deps.db, deps.protector),
    accounts: new AccountService(deps.db),
  };
}
