import { describe, expect, it } from 'vitest';
import type { Caller } from '../../../src/domain/caller.js';
import {
  HistoryService,
  type HistoryServiceOptions,
  intervalEnds,
} from '../../../src/features/history/history.service.js';
import type { HistoryStore } from '../../../src/features/history/ports.js';
import type { Statement } from '../../../src/features/history/statement.js';
import type { Stores } from '../../../src/features/ports.js';

/** The history service's own rules, on a fake store: what is decided before anything is read. */
const caller: Caller = {
  environment: 'sandbox',
  requestId: 'r',
  principal: { id: 'test', kind: 'system', scopes: ['accounts:read'], environments: '*' },
};
const ACCOUNT = '0190a8f2-9d7e-7cc4-8f5e-3e2a1b0c9d8e';

function serviceWith(entries: number, options: HistoryServiceOptions = {}) {
  const requested: number[] = [];
  const history: HistoryStore = {
    balanceAsOf: async () => null,
    balancesBefore: async () => [],
    statement: async (request) => {
      requested.push(request.maxEntries);
      if (entries > request.maxEntries) return 'too-large';
      const entry = {
        transactionId: ACCOUNT,
        type: 'CREDIT' as const,
        amount: '1',
        description: '',
        postedAt: request.from.toISOString(),
        balanceAfter: '1',
        sequence: '1',
        transferId: null,
        reversesTransactionId: null,
      };
      const statement: Statement = {
        accountId: ACCOUNT,
        currency: 'USD',
        from: request.from.toISOString(),
        to: request.to.toISOString(),
        asOfSequence: '1',
        openingBalance: '0',
        closingBalance: '0',
        totalCredits: '0',
        totalDebits: '0',
        entries: Array.from({ length: entries }, () => entry),
      };
      return statement;
    },
    exportEntries: async () => 0,
  };
  const stores = { accounts: {}, customers: {}, history } as unknown as Pick<Stores, 'accounts' | 'customers'> & {
    history: HistoryStore;
  };
  return { service: new HistoryService(stores, undefined, options), requested };
}

describe('HistoryService', () => {
  it('refuses a statement over its entry limit with STATEMENT_TOO_LARGE, and serves one at it', async () => {
    const query = { from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z' };
    const over = serviceWith(11);
    await expect(over.service.statement(caller, ACCOUNT, query, 10)).rejects.toMatchObject({
      code: 'STATEMENT_TOO_LARGE',
      kind: 'invalid_input',
    });
    expect(over.requested).toEqual([10]);
    const at = serviceWith(10);
    expect((await at.service.statement(caller, ACCOUNT, query, 10)).entries).toHaveLength(10);
  });

  it('runs at most maxConcurrentExports ledger exports at once; one more is LEDGER_EXPORTS_FULL, after validation; an ended or released export makes room', async () => {
    const exporter: Caller = { ...caller, principal: { ...caller.principal, scopes: ['ledger:export'] } };
    let refusals = 0;
    const { service } = serviceWith(0, { maxConcurrentExports: 2, onExportsFull: () => refusals++ });
    const first = await service.exportLedger(exporter, {}, 'ndjson');
    const second = await service.exportLedger(exporter, {}, 'ndjson');
    expect(service.exportsRunning()).toBe(2);
    await expect(service.exportLedger(exporter, {}, 'ndjson')).rejects.toThrow(
      expect.objectContaining({ code: 'LEDGER_EXPORTS_FULL', kind: 'unavailable' }),
    );
    // A bad request is told what is wrong with it, full or not.
    await expect(service.exportLedger(exporter, { from: 'yesterday' }, 'ndjson')).rejects.toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED' }),
    );
    expect(refusals).toBe(1);
    await first.run(async () => true);
    expect(service.exportsRunning()).toBe(1);
    const third = await service.exportLedger(exporter, {}, 'ndjson');
    // Released once, however often: a released slot is not given back twice.
    second.release();
    second.release();
    third.release();
    expect(service.exportsRunning()).toBe(0);
  });

  it('computes interval ends in UTC, months of every length, and refuses more than 1000 points', () => {
    expect(
      intervalEnds(new Date('2026-01-31T10:00:00Z'), new Date('2026-03-01T00:00:00Z'), 'month').map((d) =>
        d.toISOString(),
      ),
    ).toEqual(['2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z']);
    expect(intervalEnds(new Date('2026-01-01T00:30:00Z'), new Date('2026-01-01T01:00:00.001Z'), 'hour')).toHaveLength(
      2,
    );
    expect(intervalEnds(new Date('2026-01-01T00:00:00Z'), new Date('2028-09-27T00:00:00Z'), 'day')).toHaveLength(1000);
    expect(() => intervalEnds(new Date('2026-01-01T00:00:00Z'), new Date('2028-09-28T00:00:00Z'), 'day')).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED' }),
    );
  });
});
