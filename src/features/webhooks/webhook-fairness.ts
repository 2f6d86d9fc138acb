import type { ClaimRooms } from './ports.js';

/**
 * The dispatcher's fair shares (issue 28): how many attempts one environment, and one endpoint, may have in
 * flight on an instance. Every configured environment gets an equal share of WEBHOOKS_CONCURRENCY, so
 * whatever one environment's endpoints do (a tarpit accepts the connection and never answers, holding its
 * slot for the whole WEBHOOKS_TIMEOUT_MS), the others always have their share free. An endpoint gets half
 * its environment's share, so one bad endpoint cannot take its environment's other endpoints down with it.
 * The price: an environment alone with work uses only its share of the slots.
 */
export function fairShares(concurrency: number, environments: number): { perEnvironment: number; perEndpoint: number } {
  const perEnvironment = Math.max(1, Math.floor(concurrency / Math.max(1, environments)));
  return { perEnvironment, perEndpoint: Math.max(1, Math.floor(perEnvironment / 2)) };
}

/** Attempts in flight on this instance, by environment and by endpoint: what the next claim may add. */
export class InFlightCounts {
  private readonly environments = new Map<string, number>();
  private readonly endpoints = new Map<string, number>();

  constructor(private readonly shares: { perEnvironment: number; perEndpoint: number }) {}

  started(environment: string, endpointId: string): void {
    this.environments.set(environment, (this.environments.get(environment) ?? 0) + 1);
    this.endpoints.set(endpointId, (this.endpoints.get(endpointId) ?? 0) + 1);
  }

  finished(environment: string, endpointId: string): void {
    decrement(this.environments, environment);
    decrement(this.endpoints, endpointId);
  }

  rooms(): ClaimRooms {
    const { perEnvironment, perEndpoint } = this.shares;
    return {
      perEnvironment,
      perEndpoint,
      busyEnvironments: new Map(
        [...this.environments].map(([environment, n]) => [environment, Math.max(0, perEnvironment - n)]),
      ),
      busyEndpoints: new Map([...this.endpoints].map(([endpointId, n]) => [endpointId, Math.max(0, perEndpoint - n)])),
    };
  }
}

function decrement(counts: Map<string, number>, key: string): void {
  const left = (counts.get(key) ?? 0) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}
