import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFailure } from '../../rest/helpers.js';
import { startTestService, type TestService } from '../../support/service.js';
import { account, balances, expectSoundLedger, graphqlPost, post, posted, product } from './support.js';

/**
 * Concurrent debits never pass a product's limit together (docs/adr/0114): the posting statement checks and moves
 * the account's counts on the row it locks, so parallel requests queue on that lock and each reads what the one
 * before it committed. However they interleave, exactly as many pass as the limit allows.
 */
let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => service?.stop());

const PARALLEL = 12;

async function funded(productCode: string): Promise<string> {
  const id = await account(service, productCode);
  await posted(service, id, { type: 'CREDIT', amount: '10000' });
  return id;
}

describe('parallel debits of one account on a product', () => {
  it('dailyWithdrawalTotal: of 12 parallel debits of 30 under a limit of 100, exactly 3 post', async () => {
    const id = await funded(await product(service, { limits: { dailyWithdrawalTotal: '100' } }));
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, n) =>
        n % 2 === 0
          ? post(service, id, { type: 'DEBIT', amount: '30' })
          : graphqlPost(service, id, { type: 'DEBIT', amount: '30' }),
      ),
    );
    const passed = answers.filter((res) => res.status === 201 || (res.status === 200 && !res.json.errors));
    expect(passed).toHaveLength(3);
    for (const res of answers) {
      if (passed.includes(res)) continue;
      if (res.status === 200) expect(res.json.errors[0].extensions.code).toBe('WITHDRAWAL_LIMIT_EXCEEDED');
      else expectFailure(res, 'account', 409, 'WITHDRAWAL_LIMIT_EXCEEDED');
    }
    expect(await balances(service, id)).toEqual({
      amount: '9910',
      available: '9910',
    });
    await expectSoundLedger(service);
  });

  it('withdrawalsPerMonth: of 12 parallel debits (holds among them) under a limit of 4, exactly 4 are written', async () => {
    const id = await funded(await product(service, { limits: { withdrawalsPerMonth: 4 } }));
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, n) => post(service, id, { type: 'DEBIT', amount: '5', hold: n % 3 === 0 })),
    );
    const passed = answers.filter((res) => res.status === 201);
    expect(passed).toHaveLength(4);
    for (const res of answers) if (res.status !== 201) expectFailure(res, 'account', 409, 'WITHDRAWAL_LIMIT_EXCEEDED');
    const { rows } = await service.database.pool.query<{ debits: string }>(
      "SELECT count(*)::text AS debits FROM ledger_entries WHERE account_id = $1 AND type = 'DEBIT'",
      [id],
    );
    expect(rows[0]!.debits).toBe('4');
    const { available } = await balances(service, id);
    expect(available).toBe('9980');
    await expectSoundLedger(service);
  });

  it('minimumBalance: of 12 parallel debits of 100 above a minimum of 9500 (10000 held), exactly 5 post', async () => {
    const id = await funded(await product(service, { minimumBalance: '9500' }));
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, () => post(service, id, { type: 'DEBIT', amount: '100' })),
    );
    expect(answers.filter((res) => res.status === 201)).toHaveLength(5);
    for (const res of answers) if (res.status !== 201) expectFailure(res, 'account', 409, 'MINIMUM_BALANCE');
    expect(await balances(service, id)).toEqual({
      amount: '9500',
      available: '9500',
    });
    await expectSoundLedger(service);
  });
});
