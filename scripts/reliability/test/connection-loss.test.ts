import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccountInput, buildCustomerInput } from '../../../test/support/factories.js';
import { startTestService, type TestService } from '../../../test/support/service.js';
import { pick, runClients, seededRandom } from '../lib/concurrency.js';
import { HUNG_TEST_DEADLINE_MS } from '../../../test/support/eventually.js';
import { storageProblems } from '../lib/consistency.js';
import { answerOf, envelopeProblems } from '../lib/envelope.js';

/**
 * PostgreSQL ending the service's connections under write load (what a database restart, failover or an
 * administrator's pg_terminate_backend does): the service must keep running, answer each affected
 * request 503 SERVICE_UNAVAILABLE in the envelope, and leave no half-written record. Found by the
 * database-outage script: a connection ended while checked out between two statements of a transaction
 * emitted an 'error' event nobody listened to, and the process died (fixed in src/db/connection/pool.ts).
 */

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ DATABASE_POOL_SIZE: '8' });
});
afterAll(async () => service?.stop());

describe('connections ended by PostgreSQL under load', () => {
  it('keeps the service up and answers 2xx or 503 while its backends are terminated again and again', async () => {
    const customers: string[] = [];
    for (let i = 0; i < 6; i++)
      customers.push(
        (await service.call('POST', '/sandbox/customer', { body: buildCustomerInput() })).json.data.customerId,
      );
    let running = true;
    const statuses: Record<string, number> = {};
    const problems: string[] = [];
    // The load's progress paces the faults, not the clock: each wait is for answers, whatever the machine's speed.
    let answered = 0;
    let progressed: (() => void) | undefined;
    const answers = (count: number) =>
      new Promise<void>((resolve, reject) => {
        const target = answered + count;
        const hung = setTimeout(
          () => reject(new Error(`the load stopped at ${answered} answers`)),
          HUNG_TEST_DEADLINE_MS,
        );
        progressed = () => {
          if (answered < target) return;
          clearTimeout(hung);
          progressed = undefined;
          resolve();
        };
      });
    const load = runClients(16, async (client) => {
      const random = seededRandom(client + 7);
      while (running) {
        const write = random() < 0.5;
        const path = write ? '/sandbox/account' : `/sandbox/customer/${pick(random, customers)}`;
        const res = await service.call(
          write ? 'POST' : 'GET',
          path,
          write
            ? {
                body: buildAccountInput(
                  [pick(random, customers), pick(random, customers)].filter((v, i, a) => a.indexOf(v) === i),
                ),
              }
            : {},
        );
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        problems.push(...envelopeProblems(answerOf(res), path));
        if (![200, 201, 503].includes(res.status)) problems.push(`answered ${res.status} ${res.json?.error?.code}`);
        answered += 1;
        progressed?.();
      }
    });
    let terminated = 0;
    // 15 rounds, and more until a request has met a terminated connection (a round can hit only idle ones);
    // between two rounds the 16 clients got as many answers.
    const hung = Date.now() + HUNG_TEST_DEADLINE_MS;
    for (let round = 0; round < 15 || ((statuses[503] ?? 0) === 0 && Date.now() < hung); round++) {
      await answers(16);
      const { rows } = await service.database.pool.query<{ n: string }>(
        "SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'customer-account-service' AND pid <> pg_backend_pid()",
      );
      terminated += Number(rows[0]!.n);
    }
    // The load goes on after the last round: answers again (the check below: none but 2xx and 503).
    await answers(32);
    running = false;
    await load;
    expect(problems.slice(0, 5)).toEqual([]);
    expect(terminated).toBeGreaterThan(0);
    expect(statuses[503] ?? 0, 'some requests met a terminated connection').toBeGreaterThan(0);
    // Still serving, from fresh connections.
    const after = await service.call('POST', '/sandbox/account', { body: buildAccountInput([customers[0]!]) });
    expect(after.status).toBe(201);
    expect(await storageProblems(service.database.pool)).toEqual([]);
  });
});
