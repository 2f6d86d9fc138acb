import { describe, expect, it } from 'vitest';
import { RequestFactory } from '../../bench/load/requests.js';

// The scaling bench's workload (bench/fleet-scaling.ts): only its three requests, writes always keyed.
describe('scaling-mix requests', () => {
  it('sends GET customer, keyed creations and keyed transfers, reads the most', () => {
    const factory = new RequestFactory(
      'sandbox',
      { customerIds: ['c1', 'c2'], accountIds: [], nestedCustomerIds: [], transferAccountIds: ['a1', 'a2', 'a3'] },
      1,
    );
    const counts: Record<string, number> = {};
    for (let i = 0; i < 2000; i++) {
      const request = factory.build('scaling-mix');
      const kind = `${request.method} ${request.path!.split('/')[2]}`;
      counts[kind] = (counts[kind] ?? 0) + 1;
      if (request.method === 'POST') expect(request.headers?.['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(Object.keys(counts).sort()).toEqual(['GET customer', 'POST customer', 'POST transfer']);
    expect(counts['GET customer']).toBeGreaterThan(counts['POST customer']! + counts['POST transfer']!);
  });
});
