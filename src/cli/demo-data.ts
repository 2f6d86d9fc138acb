import { randomInt } from 'node:crypto';
import type { CreateAccountInput } from '../features/accounts/index.js';
import type { Customer } from '../features/customers/index.js';
import { isDomainError } from '../domain/errors.js';
import { ACCESS_SCOPES, type Caller } from '../domain/caller.js';
import type { DomainServices } from '../features/services.js';

/**
 * A small, realistic data set for demos and the examples/ folder: households that share accounts, a
 * customer with several accounts, one without any. Written through the domain services, so every rule,
 * the encryption of identifiers and the audit trail apply exactly as for API calls.
 */

/** A customer as the demo writes it, without the identifiers it draws fresh for each run; `key` names it below. */
interface DemoPerson extends Omit<Customer, 'customerId' | 'accountIds' | 'version'> {
  key: string;
}

interface DemoAccount {
  key: string;
  owners: string[];
  name: string;
  type: string;
  currency: string;
  /** Customers of `owners` with a role other than OWNER. */
  roles?: Record<string, 'AUTHORIZED_SIGNER' | 'AUTHORIZED_USER' | 'BENEFICIARY' | 'CUSTODIAN'>;
}

/** A business customer as the demo writes it (docs/adr/0090), without the tax id it draws fresh for each run. */
const BUSINESSES = [
  {
    key: 'harborLabs',
    customerType: 'BUSINESS',
    legalName: 'Harbor Labs LLC',
    doingBusinessAs: 'Harbor Labs',
    entityType: 'LLC',
    formationDate: '2016-04-01',
    formationState: 'OR',
    formationCountry: 'US',
    industry: '541511',
    website: 'https://harborlabs.example.com',
    emails: ['accounts@harborlabs.example.com'],
    phoneNumbers: [{ type: 'WORK', number: '+1 555 010 0150' }],
    addresses: [{ type: 'WORK', street: '400 Harbor Street, Suite 200', city: 'Portland', state: 'OR', zip: '97209' }],
  },
] as const;

/**
 * Who owns and controls the demo business (31 CFR 1010.230: each owner of 25 % or more, and one individual with
 * significant control): Priya owns 60 % and runs it, Mei owns 40 %.
 */
const BENEFICIAL_OWNERS = [
  { business: 'harborLabs', owner: 'priya', prongs: ['OWNERSHIP', 'CONTROL'], ownershipPercentage: '60', title: 'CEO' },
  { business: 'harborLabs', owner: 'mei', prongs: ['OWNERSHIP'], ownershipPercentage: '40' },
] as const;

const home = (street: string, city: string, state: string, zip: string) => [{ type: 'HOME', street, city, state, zip }];
const mobile = (number: string) => [{ type: 'MOBILE', number }];

// Names, addresses and 555-01xx numbers are fictional; e-mails use example.com (RFC 2606).
const PEOPLE: DemoPerson[] = [
  {
    key: 'alex',
    preferredName: 'Alex',
    firstName: 'Alexandra',
    middleName: 'Jane',
    lastName: 'Rivera',
    dateOfBirth: '1986-03-14',
    emails: ['alex.rivera@example.com'],
    phoneNumbers: mobile('+1 555 010 0101'),
    addresses: home('12 Maple Avenue', 'Springfield', 'IL', '62704'),
  },
  {
    key: 'jordan',
    preferredName: 'Jordan',
    firstName: 'Jordan',
    middleName: '',
    lastName: 'Rivera',
    dateOfBirth: '1984-11-02',
    emails: ['jordan.rivera@example.com'],
    phoneNumbers: mobile('+1 555 010 0102'),
    addresses: home('12 Maple Avenue', 'Springfield', 'IL', '62704'),
  },
  {
    key: 'priya',
    preferredName: 'Priya',
    firstName: 'Priya',
    middleName: 'Lakshmi',
    lastName: 'Natarajan',
    dateOfBirth: '1991-07-23',
    emails: ['priya.n@example.com', 'priya@work.example.com'],
    phoneNumbers: [...mobile('+1 555 010 0103'), { type: 'WORK', number: '+1 555 010 0199' }],
    addresses: home('400 Harbor Street, Apt 9C', 'Portland', 'OR', '97209'),
  },
  {
    key: 'samuel',
    preferredName: 'Sam',
    firstName: 'Samuel',
    middleName: 'Adebayo',
    lastName: 'Okafor',
    dateOfBirth: '1969-01-30',
    emails: ['sam.okafor@example.com'],
    phoneNumbers: mobile('+1 555 010 0104'),
    addresses: home('7 Birch Lane', 'Columbus', 'OH', '43215'),
  },
  {
    key: 'grace',
    preferredName: 'Grace',
    firstName: 'Grace',
    middleName: 'Ifeoma',
    lastName: 'Okafor',
    dateOfBirth: '2009-05-18',
    emails: [],
    phoneNumbers: [],
    addresses: home('7 Birch Lane', 'Columbus', 'OH', '43215'),
  },
  {
    key: 'mei',
    preferredName: 'Mei',
    firstName: 'Mei',
    middleName: '',
    lastName: 'Chen',
    dateOfBirth: '1978-09-09',
    emails: ['mei.chen@example.com'],
    phoneNumbers: mobile('+1 555 010 0106'),
    addresses: home('88 Ocean View Road', 'San Diego', 'CA', '92101'),
  },
];

const ACCOUNTS: DemoAccount[] = [
  {
    key: 'riveraJointChecking',
    owners: ['alex', 'jordan'],
    name: 'Rivera Household Checking',
    type: 'CHECKING',
    currency: 'USD',
  },
  { key: 'alexSavings', owners: ['alex'], name: 'Rainy Day Savings', type: 'SAVINGS', currency: 'USD' },
  { key: 'jordanChecking', owners: ['jordan'], name: 'Everyday Checking', type: 'CHECKING', currency: 'USD' },
  { key: 'priyaChecking', owners: ['priya'], name: 'Everyday Checking', type: 'CHECKING', currency: 'USD' },
  { key: 'priyaMoneyMarket', owners: ['priya'], name: 'Money Market', type: 'MONEY_MARKET', currency: 'USD' },
  { key: 'priyaEuro', owners: ['priya'], name: 'Euro Travel Account', type: 'SAVINGS', currency: 'EUR' },
  { key: 'okaforCollege', owners: ['samuel', 'grace'], name: 'College Fund', type: 'SAVINGS', currency: 'USD' },
  {
    key: 'harborLabsOperating',
    owners: ['harborLabs', 'priya'],
    roles: { priya: 'AUTHORIZED_SIGNER' },
    name: 'Harbor Labs Operating',
    type: 'CHECKING',
    currency: 'USD',
  },
];

/**
 * Money on the demo accounts, so that a newcomer's first account page has a balance, transactions, a pending
 * hold and a chart. Posted now through the ledger like any client's postings (the API cannot backdate), with
 * their audit and events; every posting balances against the environment's settlement account.
 */
const POSTINGS: DemoPosting[] = [
  {
    kind: 'transaction',
    account: 'riveraJointChecking',
    type: 'CREDIT',
    amount: '2450.00',
    description: 'Payroll, Springfield Unified',
  },
  {
    kind: 'transaction',
    account: 'riveraJointChecking',
    type: 'DEBIT',
    amount: '86.40',
    description: 'Groceries, Maple Market',
  },
  {
    kind: 'transaction',
    account: 'riveraJointChecking',
    type: 'DEBIT',
    amount: '120.00',
    description: 'Card authorisation, Fuel Stop',
    hold: true,
  },
  { kind: 'transfer', from: 'riveraJointChecking', to: 'alexSavings', amount: '500.00', description: 'Monthly saving' },
  {
    kind: 'transaction',
    account: 'jordanChecking',
    type: 'CREDIT',
    amount: '1200.00',
    description: 'Freelance invoice 1042',
  },
  {
    kind: 'transaction',
    account: 'priyaChecking',
    type: 'CREDIT',
    amount: '3200.00',
    description: 'Salary, Harbor Labs',
  },
  {
    kind: 'transaction',
    account: 'priyaChecking',
    type: 'DEBIT',
    amount: '1450.00',
    description: 'Rent, Harbor Street',
  },
  {
    kind: 'transfer',
    from: 'priyaChecking',
    to: 'priyaMoneyMarket',
    amount: '1000.00',
    description: 'To money market',
  },
  { kind: 'transaction', account: 'priyaEuro', type: 'CREDIT', amount: '800.00', description: 'Travel money' },
  {
    kind: 'transaction',
    account: 'harborLabsOperating',
    type: 'CREDIT',
    amount: '18500.00',
    description: 'Client payment, invoice 2031',
  },
  {
    kind: 'transaction',
    account: 'okaforCollege',
    type: 'CREDIT',
    amount: '250.00',
    description: 'Birthday gift for Grace',
  },
];

type DemoPosting =
  | {
      kind: 'transaction';
      account: string;
      type: 'CREDIT' | 'DEBIT';
      amount: string;
      description: string;
      hold?: boolean;
    }
  | { kind: 'transfer'; from: string; to: string; amount: string; description: string };

export interface SeedReport {
  environment: string;
  createdAt: string;
  customers: { key: string; customerId: string; name: string }[];
  accounts: { key: string; accountId: string; name: string; customerIds: string[] }[];
}

/** The principal of the seed command in the audit trail. */
export function seedCaller(environment: string): Caller {
  return {
    environment,
    principal: { id: 'cli:seed', kind: 'static-token', scopes: [...ACCESS_SCOPES], environments: [environment] },
    requestId: `seed-${Date.now()}`,
  };
}

/**
 * Social security numbers from the range documentation uses (123-45-xxxx), never a real person's. Unique
 * per environment, so a serial already taken by an earlier run is drawn again.
 */
const demoSsn = () => `123-45-${String(randomInt(1, 10_000)).padStart(4, '0')}`;

/** EINs with the prefix 00, which the IRS assigns to no one; drawn again when taken, as SSNs are. */
const demoEin = () => `00-${String(randomInt(1, 10_000_000)).padStart(7, '0')}`;

export async function seedDemoData(services: DomainServices, caller: Caller): Promise<SeedReport> {
  const customers: SeedReport['customers'] = [];
  const ids = new Map<string, string>();
  for (const { key, ...person } of PEOPLE) {
    const customerId = await createFresh(services, caller, 'CUSTOMER_ALREADY_EXISTS', () => ({
      ...person,
      socialSecurityNumber: demoSsn(),
      documentLocatorNumber: randomInt(10_000_000, 99_999_999),
    }));
    ids.set(key, customerId);
    customers.push({ key, customerId, name: `${person.firstName} ${person.lastName}` });
  }
  for (const { key, ...business } of BUSINESSES) {
    const customerId = await createFresh(services, caller, 'TAX_ID_ALREADY_EXISTS', () => ({
      ...business,
      taxId: demoEin(),
    }));
    ids.set(key, customerId);
    customers.push({ key, customerId, name: business.legalName });
  }
  for (const { business, owner, ...input } of BENEFICIAL_OWNERS) {
    await services.beneficialOwners.add(caller, ids.get(business)!, { ...input, customerId: ids.get(owner)! });
  }
  const accounts: SeedReport['accounts'] = [];
  for (const { key, owners, roles, ...account } of ACCOUNTS) {
    const input: CreateAccountInput = {
      ...account,
      associatedCustomerIds: owners.map((owner) => ids.get(owner)!),
      ...(roles && {
        relationships: Object.entries(roles).map(([owner, role]) => ({ customerId: ids.get(owner)!, role })),
      }),
    };
    const { value: created } = await services.accounts.create(caller, input);
    accounts.push({ key, accountId: created.accountId, name: created.name, customerIds: created.customerIds });
  }
  const accountId = (key: string) => accounts.find((account) => account.key === key)!.accountId;
  for (const posting of POSTINGS) {
    if (posting.kind === 'transfer') {
      await services.ledger.transfer(caller, {
        fromAccountId: accountId(posting.from),
        toAccountId: accountId(posting.to),
        amount: posting.amount,
        description: posting.description,
      });
    } else {
      const { account, kind: _kind, ...input } = posting;
      await services.ledger.postTransaction(caller, accountId(account), input);
    }
  }
  return { environment: caller.environment, createdAt: new Date().toISOString(), customers, accounts };
}

/** Creates a customer, drawing its identifier again (at most 20 times) while another customer has it. */
async function createFresh(
  services: DomainServices,
  caller: Caller,
  takenCode: 'CUSTOMER_ALREADY_EXISTS' | 'TAX_ID_ALREADY_EXISTS',
  input: () => Record<string, unknown>,
): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      const { value } = await services.customers.create(caller, input());
      return value.customerId;
    } catch (error) {
      if (attempt >= 20 || !isDomainError(error) || error.code !== takenCode) throw error;
    }
  }
}
