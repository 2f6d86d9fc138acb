import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoChange as expectNoChangeIn } from '../support/database.js';
import { buildCustomerInput } from '../support/factories.js';
import { ledgerViolations } from '../support/ledger-invariants.js';
import { startTestService, type TestService } from '../support/service.js';
import {
  ACCOUNT_DATA_KEYS,
  createAccount,
  createCustomer,
  CUSTOMER_DATA_KEYS,
  expectFailure,
  expectSuccess,
} from '../rest/helpers.js';

/** Optimistic concurrency over REST: ETag, If-Match, If-None-Match (docs/adr/0057-row-versions-and-etags.md). */

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.stop());

const expectNoChange = <T>(request: () => Promise<T>): Promise<T> => expectNoChangeIn(service.database.pool, request);
const customerPath = (id: string) => `/sandbox/customer/${id}`;
const accountPath = (id: string) => `/sandbox/account/${id}`;
const tagOf = (res: { headers: Headers }) => res.headers.get('etag')!;
const deposit = (accountId: string, amount: number) =>
  service.call('POST', `${accountPath(accountId)}/transaction`, {
    body: { type: 'CREDIT', amount, description: 'Payroll' },
  });

describe('ETag on customers', () => {
  it('answers a strong tag naming the record and its version on create, GET and PUT; a change moves it', async () => {
    const created = await service.call('POST', '/sandbox/customer', { body: buildCustomerInput() });
    expectSuccess(created, 'customer', 201);
    const customerId = created.json.data.customerId as string;
    expect(tagOf(created)).toBe(`"${customerId}.1"`);

    const read = await service.call('GET', customerPath(customerId));
    expectSuccess(read, 'customer', 200);
    expect(tagOf(read)).toBe(tagOf(created));
    // The contract's shape is unchanged: no version in the body.
    expect(Object.keys(read.json.data).sort()).toEqual([...CUSTOMER_DATA_KEYS].sort());

    const updated = await service.call('PUT', customerPath(customerId), { body: { preferredName: 'Lex' } });
    expectSuccess(updated, 'customer', 200);
    expect(tagOf(updated)).toBe(`"${customerId}.2"`);
    expect(tagOf(await service.call('GET', customerPath(customerId)))).toBe(tagOf(updated));
  });

  it("moves when an account is linked or unlinked: the customer's accountIds are part of what it answers", async () => {
    const { customerId } = await createCustomer(service);
    const before = tagOf(await service.call('GET', customerPath(customerId)));
    const account = await createAccount(service, [customerId]);
    const linked = await service.call('GET', customerPath(customerId));
    expect(linked.json.data.accountIds).toEqual([account.accountId]);
    expect(tagOf(linked)).not.toBe(before);
    expectSuccess(await service.call('DELETE', accountPath(account.accountId)), 'account', 200);
    expect(tagOf(await service.call('GET', customerPath(customerId)))).not.toBe(tagOf(linked));
  });
});

describe('If-None-Match on GET', () => {
  it('answers 304 with the tag and no body while the copy is current (its tag, W/ of it, or *), 200 once it changed', async () => {
    const { customerId } = await createCustomer(service);
    const tag = tagOf(await service.call('GET', customerPath(customerId)));
    for (const ifNoneMatch of [tag, `W/${tag}`, `"other", ${tag}`, '*']) {
      const res = await service.call('GET', customerPath(customerId), { headers: { 'If-None-Match': ifNoneMatch } });
      expect(res.status).toBe(304);
      expect(res.text).toBe('');
      expect(tagOf(res)).toBe(tag);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    await service.call('PUT', customerPath(customerId), { body: { emails: ['new@example.com'] } });
    const changed = await service.call('GET', customerPath(customerId), { headers: { 'If-None-Match': tag } });
    expectSuccess(changed, 'customer', 200);
    expect(changed.json.data.emails).toEqual(['new@example.com']);
  });

  it('ignores a malformed If-None-Match (the full answer), and a missing record is still 404', async () => {
    const { customerId } = await createCustomer(service);
    expectSuccess(
      await service.call('GET', customerPath(customerId), { headers: { 'If-None-Match': 'not-a-tag' } }),
      'customer',
      200,
    );
    expectFailure(
      await service.call('GET', customerPath('0193a5c5-5a97-7260-9c1e-8daecf406b87'), {
        headers: { 'If-None-Match': '*' },
      }),
      'customer',
      404,
      'CUSTOMER_NOT_FOUND',
    );
  });

  it("answers 200, not 304, after a deposit: an account's balance and transactions are part of what it answers", async () => {
    const { customerId } = await createCustomer(service);
    const account = await createAccount(service, [customerId]);
    const tag = tagOf(await service.call('GET', accountPath(account.accountId)));
    expect(
      (await service.call('GET', accountPath(account.accountId), { headers: { 'If-None-Match': tag } })).status,
    ).toBe(304);
    expectSuccess(await deposit(account.accountId, 25), 'account', 201);
    const after = await service.call('GET', accountPath(account.accountId), { headers: { 'If-None-Match': tag } });
    expectSuccess(after, 'account', 200);
    expect(after.json.data.amount).toBe(25);
    expect(tagOf(after)).not.toBe(tag);
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });
});

describe('If-Match on PUT and DELETE', () => {
  it('two clients updating with the same If-Match: exactly one wins, the other gets 412 and changes nothing', async () => {
    const { customerId } = await createCustomer(service);
    const tag = tagOf(await service.call('GET', customerPath(customerId)));
    const answers = await Promise.all(
      ['Ada', 'Bea'].map((preferredName) =>
        service.call('PUT', customerPath(customerId), { body: { preferredName }, headers: { 'If-Match': tag } }),
      ),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([200, 412]);
    const winner = answers.find((res) => res.status === 200)!;
    const loser = answers.find((res) => res.status === 412)!;
    expectFailure(loser, 'customer', 412, 'PRECONDITION_FAILED');
    const stored = await service.call('GET', customerPath(customerId));
    expect(stored.json.data.preferredName).toBe(winner.json.data.preferredName);
    expect(tagOf(stored)).toBe(tagOf(winner));
    const { rows } = await service.database.pool.query(
      "SELECT count(*)::int AS n FROM audit_events WHERE resource_id = $1 AND operation = 'customer.update'",
      [customerId],
    );
    expect(rows[0].n).toBe(1);
  });

  it('a stale tag, a tag of another record or a weak tag: 412 and nothing changes; the current tag or *: the write happens', async () => {
    const { customerId } = await createCustomer(service);
    const { customerId: otherId } = await createCustomer(service);
    const first = tagOf(await service.call('GET', customerPath(customerId)));
    const current = tagOf(
      await service.call('PUT', customerPath(customerId), {
        body: { preferredName: 'Second' },
        headers: { 'If-Match': first },
      }),
    );
    const other = tagOf(await service.call('GET', customerPath(otherId)));
    const eventsBefore = (await service.database.pool.query('SELECT count(*)::int AS n FROM events')).rows[0].n;
    for (const ifMatch of [first, other, `W/${current}`]) {
      const refused = await expectNoChange(() =>
        service.call('PUT', customerPath(customerId), {
          body: { preferredName: 'Third' },
          headers: { 'If-Match': ifMatch },
        }),
      );
      expectFailure(refused, 'customer', 412, 'PRECONDITION_FAILED');
      expectFailure(
        await expectNoChange(() =>
          service.call('DELETE', customerPath(customerId), { headers: { 'If-Match': ifMatch } }),
        ),
        'customer',
        412,
        'PRECONDITION_FAILED',
      );
    }
    expect((await service.database.pool.query('SELECT count(*)::int AS n FROM events')).rows[0].n).toBe(eventsBefore);
    const unchanged = await service.call('GET', customerPath(customerId));
    expect(unchanged.json.data.preferredName).toBe('Second');
    expect(tagOf(unchanged)).toBe(current);

    expectSuccess(
      await service.call('PUT', customerPath(customerId), {
        body: { preferredName: 'Fourth' },
        headers: { 'If-Match': `"x", ${current}` },
      }),
      'customer',
      200,
    );
    expectSuccess(
      await service.call('PUT', customerPath(customerId), {
        body: { preferredName: 'Fifth' },
        headers: { 'If-Match': '*' },
      }),
      'customer',
      200,
    );
    const latest = tagOf(await service.call('GET', customerPath(customerId)));
    expectSuccess(
      await service.call('DELETE', customerPath(customerId), { headers: { 'If-Match': latest } }),
      'customer',
      200,
    );
    // Gone: the answer without the condition would be 404, so that is the answer (RFC 9110 §13.2.1).
    expectFailure(
      await service.call('PUT', customerPath(customerId), {
        body: { preferredName: 'Sixth' },
        headers: { 'If-Match': latest },
      }),
      'customer',
      404,
      'CUSTOMER_NOT_FOUND',
    );
  });

  it('refuses a malformed If-Match with 400 VALIDATION_FAILED naming the header; nothing changes', async () => {
    const { customerId } = await createCustomer(service);
    for (const ifMatch of ['not-a-tag', '"unterminated', ',']) {
      const res = await expectNoChange(() =>
        service.call('PUT', customerPath(customerId), {
          body: { preferredName: 'X' },
          headers: { 'If-Match': ifMatch },
        }),
      );
      expectFailure(res, 'customer', 400, 'VALIDATION_FAILED');
      expect(res.json.error.details).toEqual([expect.objectContaining({ field: 'If-Match', code: 'INVALID_FORMAT' })]);
    }
  });

  it('accounts: a deposit makes an earlier tag stale (412, nothing changes); with the current tag the rename and the deletion happen', async () => {
    const { customerId } = await createCustomer(service);
    const created = await service.call('POST', '/sandbox/account', {
      body: { associatedCustomerIds: [customerId], name: 'Everyday', currency: 'USD', type: 'CHECKING' },
    });
    expectSuccess(created, 'account', 201);
    const accountId = created.json.data.accountId as string;
    expect(tagOf(created)).toBe(`"${accountId}.1"`);
    expect(tagOf(await service.call('GET', accountPath(accountId)))).toBe(tagOf(created));

    expectSuccess(await deposit(accountId, 40), 'account', 201);
    const renamed = await expectNoChange(() =>
      service.call('PUT', accountPath(accountId), {
        body: { name: 'Savings', currency: 'USD' },
        headers: { 'If-Match': tagOf(created) },
      }),
    );
    expectFailure(renamed, 'account', 412, 'PRECONDITION_FAILED');
    expect((await service.call('GET', accountPath(accountId))).json.data.name).toBe('Everyday');

    const current = tagOf(await service.call('GET', accountPath(accountId)));
    const answers = await Promise.all(
      ['Savings', 'Holiday'].map((name) =>
        service.call('PUT', accountPath(accountId), {
          body: { name, currency: 'USD' },
          headers: { 'If-Match': current },
        }),
      ),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([200, 412]);
    const winner = answers.find((res) => res.status === 200)!;
    expect(Object.keys(winner.json.data).sort()).toEqual([...ACCOUNT_DATA_KEYS].sort());
    expect((await service.call('GET', accountPath(accountId))).json.data.name).toBe(winner.json.data.name);

    const debit = await service.call('POST', `${accountPath(accountId)}/transaction`, {
      body: { type: 'DEBIT', amount: 40, description: 'Out' },
    });
    expectSuccess(debit, 'account', 201);
    expectFailure(
      await expectNoChange(() =>
        service.call('DELETE', accountPath(accountId), { headers: { 'If-Match': tagOf(winner) } }),
      ),
      'account',
      412,
      'PRECONDITION_FAILED',
    );
    const latest = tagOf(await service.call('GET', accountPath(accountId)));
    expectSuccess(
      await service.call('DELETE', accountPath(accountId), { headers: { 'If-Match': latest } }),
      'account',
      200,
    );
    expect(await ledgerViolations(service.database.pool)).toEqual([]);
  });

  it("an account's flags, overdraft limit and holders: writes conditional on the account's version, answering its new tag", async () => {
    const { customerId } = await createCustomer(service);
    const { customerId: jointId } = await createCustomer(service);
    const account = await createAccount(service, [customerId, jointId]);
    const path = accountPath(account.accountId);
    const writes: [string, string, { body?: unknown }][] = [
      ['PUT', `${path}/flags/FROZEN`, { body: { reason: 'Case 4711' } }],
      ['DELETE', `${path}/flags/FROZEN`, {}],
      ['PUT', `${path}/overdraft-limit`, { body: { overdraftLimit: 50 } }],
      ['DELETE', `${path}/customer/${jointId}`, {}],
    ];
    let current = tagOf(await service.call('GET', path));
    for (const [index, [method, url, options]] of writes.entries()) {
      // Another client renames the account: the tag this client holds is stale.
      const stale = current;
      expectSuccess(
        await service.call('PUT', path, { body: { name: `Renamed ${index}`, currency: 'USD' } }),
        'account',
        200,
      );
      current = tagOf(await service.call('GET', path));
      expect(current).not.toBe(stale);
      const refused = await expectNoChange(() =>
        service.call(method, url, { ...options, headers: { 'If-Match': stale } }),
      );
      expectFailure(refused, 'account', 412, 'PRECONDITION_FAILED');
      const done = await service.call(method, url, { ...options, headers: { 'If-Match': current } });
      expectSuccess(done, 'account', 200);
      expect(Object.keys(done.json.data).sort()).toEqual([...ACCOUNT_DATA_KEYS].sort());
      current = tagOf(await service.call('GET', path));
      expect(tagOf(done)).toBe(current);
    }
    const after = (await service.call('GET', path)).json.data;
    expect(after.flags).toEqual([]);
    expect(after.customers).toEqual([customerId]);
    expectFailure(
      await expectNoChange(() => service.call('PUT', `${path}/flags/FROZEN`, { headers: { 'If-Match': 'not-a-tag' } })),
      'account',
      400,
      'VALIDATION_FAILED',
    );
  });

  it('without the headers everything is as the contract says: no condition, the same answers', async () => {
    const { customerId } = await createCustomer(service);
    await service.call('PUT', customerPath(customerId), { body: { preferredName: 'One' } });
    const res = await service.call('PUT', customerPath(customerId), { body: { preferredName: 'Two' } });
    expectSuccess(res, 'customer', 200);
    expect(Object.keys(res.json.data).sort()).toEqual([...CUSTOMER_DATA_KEYS].sort());
    expectSuccess(await service.call('DELETE', customerPath(customerId)), 'customer', 200);
    expect(res.text).not.toContain('version');
  });
});

describe('idempotent replays', () => {
  it("an account creation's replay answers the account as first created, with that version's tag; a customer's, its current tag", async () => {
    const { customerId } = await createCustomer(service);
    const body = { associatedCustomerIds: [customerId], name: 'Replayed', currency: 'USD', type: 'CHECKING' };
    const first = await service.call('POST', '/sandbox/account', {
      body,
      headers: { 'Idempotency-Key': `etag-replay-${customerId}` },
    });
    await deposit(first.json.data.accountId, 5);
    const replay = await service.call('POST', '/sandbox/account', {
      body,
      headers: { 'Idempotency-Key': `etag-replay-${customerId}` },
    });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.json.data.amount).toBe(0);
    expect(tagOf(replay)).toBe(tagOf(first));

    const input = buildCustomerInput();
    const created = await service.call('POST', '/sandbox/customer', {
      body: input,
      headers: { 'Idempotency-Key': `etag-customer-${customerId}` },
    });
    const changed = await service.call('PUT', customerPath(created.json.data.customerId), {
      body: { preferredName: 'Changed' },
    });
    const again = await service.call('POST', '/sandbox/customer', {
      body: input,
      headers: { 'Idempotency-Key': `etag-customer-${customerId}` },
    });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(tagOf(again)).toBe(tagOf(changed));
  });
});
