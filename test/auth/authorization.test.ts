import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_SCOPES, type AccessScope, type Caller } from '../../src/domain/caller.js';
import { createDomainHarness, type DomainHarness } from '../support/domain.js';
import { buildAccountInput, buildCustomerInput } from '../support/factories.js';

let h: DomainHarness;
beforeAll(async () => {
  h = await createDomainHarness();
});
afterAll(async () => h.close());

const full = () => h.caller();
const customer = async () => (await h.services.customers.create(full(), buildCustomerInput())).value.customerId;
const account = async () =>
  (await h.services.accounts.create(full(), buildAccountInput([await customer()]))).value.accountId;

/** A small PDF as the REST surface hands an upload to the domain. */
const pdfUpload = () => ({
  type: 'ID_DOCUMENT',
  mediaType: 'application/pdf' as const,
  declaredLength: undefined,
  content: (async function* () {
    yield Buffer.from('%PDF-1.4\n%%EOF\n');
  })(),
});
/** A customer with a document uploaded by a system principal (so the caller under test may review it). */
const uploaded = async () => {
  const id = await customer();
  const uploader = { ...full(), principal: { ...full().principal, id: 'test:uploader' } };
  const { documentId } = await h.services.verificationDocuments.upload(uploader, id, pdfUpload());
  return { id, documentId };
};

let products = 0;
/** A product with a flat rate, defined with every scope. */
const product = async () => {
  const code = `AUTH_${++products}`;
  await h.services.products.create(full(), {
    code,
    name: 'Auth',
    accountType: 'SAVINGS',
    currency: 'USD',
    interest: {
      annualRate: '0.01',
      dayCount: 'ACTUAL_365',
      balanceBasis: 'END_OF_DAY',
      compounding: 'DAILY',
      posting: 'MONTHLY',
    },
  });
  return code;
};

async function writeCounts(): Promise<string> {
  const { rows } = await h.pool.query(
    'SELECT (SELECT count(*) FROM customers) c, (SELECT count(*) FROM accounts) a, (SELECT count(*) FROM account_customers) l, (SELECT count(*) FROM audit_events) e, (SELECT count(*) FROM idempotency_keys) k, (SELECT count(*) FROM notes) n, (SELECT count(*) FROM verification_documents) d, (SELECT count(*) FROM verification_document_chunks) dk, (SELECT count(*) FROM products) p, (SELECT count(*) FROM product_rates) r',
  );
  return JSON.stringify(rows[0]);
}

/** Every domain operation, the one scope it needs, and a call that succeeds when that scope is held. */
const OPERATIONS: {
  name: string;
  required: AccessScope;
  prepare: () => Promise<(caller: Caller) => Promise<unknown>>;
}[] = [
  {
    name: 'customers.create',
    required: 'customers:write',
    prepare: async () => (s) => h.services.customers.create(s, buildCustomerInput()),
  },
  {
    name: 'customers.get',
    required: 'customers:read',
    prepare: async () => {
      const id = await customer();
      return (s) => h.services.customers.get(s, id);
    },
  },
  {
    name: 'customers.findById',
    required: 'customers:read',
    prepare: async () => {
      const id = await customer();
      return (s) => h.services.customers.findById(s, id);
    },
  },
  {
    name: 'customers.findMany',
    required: 'customers:read',
    prepare: async () => {
      const id = await customer();
      return (s) => h.services.customers.findMany(s, [id]);
    },
  },
  {
    name: 'customers.find',
    required: 'customers:read',
    prepare: async () => (s) => h.services.customers.find(s, {}, { first: 5 }),
  },
  {
    name: 'customers.update',
    required: 'customers:write',
    prepare: async () => {
      const id = await customer();
      return (s) => h.services.customers.update(s, id, { preferredName: 'Sam' });
    },
  },
  {
    name: 'customers.delete',
    required: 'customers:write',
    prepare: async () => {
      const id = await customer();
      return (s) => h.services.customers.delete(s, id);
    },
  },
  {
    name: 'accounts.create',
    required: 'accounts:write',
    prepare: async () => {
      const id = await customer();
      return (s) => h.services.accounts.create(s, buildAccountInput([id]));
    },
  },
  {
    name: 'accounts.get',
    required: 'accounts:read',
    prepare: async () => {
      const id = await account();
      return (s) => h.services.accounts.get(s, id);
    },
  },
  {
    name: 'accounts.findById',
    required: 'accounts:read',
    prepare: async () => {
      const id = await account();
      return (s) => h.services.accounts.findById(s, id);
    },
  },
  {
    name: 'accounts.findMany',
    required: 'accounts:read',
    prepare: async () => {
      const id = await account();
      return (s) => h.services.accounts.findMany(s, [id]);
    },
  },
  {
    name: 'accounts.find',
    required: 'accounts:read',
    prepare: async () => (s) => h.services.accounts.find(s, {}, { first: 5 }),
  },
  {
    name: 'accounts.update',
    required: 'accounts:write',
    prepare: async () => {
      const id = await account();
      return (s) => h.services.accounts.update(s, id, { name: 'Renamed', currency: 'EUR' });
    },
  },
  {
    name: 'accounts.delete',
    required: 'accounts:write',
    prepare: async () => {
      const id = await account();
      return (s) => h.services.accounts.delete(s, id);
    },
  },
  {
    name: 'audit.find',
    required: 'audit:read',
    prepare: async () => (s) => h.services.audit.find(s, {}, { first: 5 }),
  },
  {
    name: 'verification.get',
    required: 'verification:read',
    prepare: async () => {
      const id = await customer();
      return (s) => h.services.verification.get(s, id);
    },
  },
  {
    name: 'verification.getMany',
    required: 'verification:read',
    prepare: async () => {
      const id = await customer();
      return (s) => h.services.verification.getMany(s, [id]);
    },
  },
  {
    name: 'verification.requestCheck',
    required: 'verification:write',
    prepare: async () => {
      const id = await customer();
      return (s) => h.services.verification.requestCheck(s, id);
    },
  },
  {
    name: 'verification.decide',
    required: 'verification:decide',
    prepare: async () => {
      const id = await customer();
      await h.services.verification.requestCheck(full(), id);
      await h.services.verification.completeDueChecks();
      return (s) => h.services.verification.decide(s, id, { outcome: 'REJECTED', reason: 'Sanctions list match.' });
    },
  },
  {
    name: 'verificationDocuments.upload',
    required: 'verification:write',
    prepare: async () => {
      const id = await customer();
      return (s) => h.services.verificationDocuments.upload(s, id, pdfUpload());
    },
  },
  {
    name: 'verificationDocuments.get',
    required: 'verification:read',
    prepare: async () => {
      const { id, documentId } = await uploaded();
      return (s) => h.services.verificationDocuments.get(s, id, documentId);
    },
  },
  {
    name: 'verificationDocuments.content',
    required: 'documents:read',
    prepare: async () => {
      const { id, documentId } = await uploaded();
      return (s) => h.services.verificationDocuments.content(s, id, documentId);
    },
  },
  {
    name: 'verificationDocuments.review',
    required: 'verification:decide',
    prepare: async () => {
      const { id, documentId } = await uploaded();
      return (s) => h.services.verificationDocuments.review(s, id, documentId, { status: 'APPROVED' });
    },
  },
  {
    name: 'notes.add (customer)',
    required: 'notes:write',
    prepare: async () => {
      const id = await customer();
      return (s) => h.services.notes.add(s, 'customer', id, { text: 'Called back.' });
    },
  },
  {
    name: 'notes.add (account)',
    required: 'notes:write',
    prepare: async () => {
      const id = await account();
      return (s) => h.services.notes.add(s, 'account', id, { text: 'Fee dispute.' });
    },
  },
  {
    name: 'notes.list',
    required: 'notes:read',
    prepare: async () => {
      const id = await customer();
      return (s) => h.services.notes.list(s, 'customer', id, { first: 5 });
    },
  },
  {
    name: 'products.create',
    required: 'products:write',
    prepare: async () => (s) =>
      h.services.products.create(s, {
        code: `AUTH_${++products}`,
        name: 'Auth',
        accountType: 'CHECKING',
        currency: 'USD',
      }),
  },
  {
    name: 'products.changeRate',
    required: 'products:write',
    prepare: async () => {
      const code = await product();
      return (s) => h.services.products.changeRate(s, code, { annualRate: '0.02', effectiveFrom: '2099-01-01' });
    },
  },
  { name: 'products.list', required: 'products:read', prepare: async () => (s) => h.services.products.list(s, {}) },
  {
    name: 'products.get',
    required: 'products:read',
    prepare: async () => {
      const code = await product();
      return (s) => h.services.products.get(s, code);
    },
  },
];

describe('scopes: each operation needs exactly its scope', () => {
  for (const operation of OPERATIONS) {
    it(`${operation.name} is refused without ${operation.required} (every other scope held) and changes nothing`, async () => {
      const call = await operation.prepare();
      const before = await writeCounts();
      const others = ACCESS_SCOPES.filter((scope) => scope !== operation.required);
      await expect(call(h.caller('sandbox', { scopes: others }))).rejects.toMatchObject({
        code: 'FORBIDDEN',
        kind: 'forbidden',
        requiredScope: operation.required,
      });
      expect(await writeCounts()).toBe(before);
    });

    it(`${operation.name} succeeds with ${operation.required} alone`, async () => {
      const call = await operation.prepare();
      // Throws (and fails the test) on any refusal.
      await call(h.caller('sandbox', { scopes: [operation.required] }));
    });
  }

  it('a principal without any scope can do nothing, not even read', async () => {
    const id = await customer();
    await expect(h.services.customers.get(h.caller('sandbox', { scopes: [] }), id)).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
  });

  it('refuses before validating: an unauthorised caller learns nothing about the input rules', async () => {
    await expect(
      h.services.customers.create(h.caller('sandbox', { scopes: ['customers:read'] }), { nonsense: true }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('environment-bound principals', () => {
  it('act in their environments and are refused in any other, even with every scope', async () => {
    const sandboxOnly = (environment: string) => h.caller(environment, { environments: ['sandbox'] });
    const {
      value: { customerId },
    } = await h.services.customers.create(sandboxOnly('sandbox'), buildCustomerInput());
    expect((await h.services.customers.get(sandboxOnly('sandbox'), customerId)).customerId).toBe(customerId);

    const before = await writeCounts();
    for (const call of [
      () => h.services.customers.create(sandboxOnly('production-like'), buildCustomerInput()),
      () => h.services.customers.find(sandboxOnly('production-like'), {}, { first: 1 }),
      () => h.services.accounts.find(sandboxOnly('production-like'), {}, { first: 1 }),
      () => h.services.audit.find(sandboxOnly('production-like'), {}),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: 'FORBIDDEN', kind: 'forbidden', requiredScope: undefined });
    }
    expect(await writeCounts()).toBe(before);
  });

  it("'*' means every environment", async () => {
    await expect(
      h.services.customers.create(h.caller('production-like', { environments: '*' }), buildCustomerInput()),
    ).resolves.toHaveProperty('value.customerId');
  });
});
