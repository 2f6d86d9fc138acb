import type { Caller } from '../../domain/caller.js';
import type { LimitCheck } from './ports.js';

/**
 * What the posting statement checks of the caller's limits (src/domain/caller.ts, PostingLimits); null for
 * an unlimited caller, whose postings run the statement without the limit's queries.
 * `countsTowardDaily` false: only the maximum applies (creating a hold reserves money without moving it;
 * posting the hold later counts, so a hold is counted once).
 */
export function limitCheckFor(caller: Caller, countsTowardDaily = true): LimitCheck | null {
  const limits = caller.principal.limits;
  const daily = countsTowardDaily && limits?.daily && Object.keys(limits.daily).length > 0 ? limits.daily : null;
  const maxAmount = limits?.maxAmount ?? null;
  if (maxAmount === null && daily === null) return null;
  return { principalId: caller.principal.id, maxAmount, daily };
}
