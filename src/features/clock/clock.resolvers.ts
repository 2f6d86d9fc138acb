import type { Resolvers } from '../../graphql/generated/resolvers-types.js';
import { withoutNulls } from '../../graphql/resolver-helpers.js';
import { presentClock, presentClockAdvance, presentEndOfDay } from './clock.presenter.js';

/**
 * `Query.clock`, `Query.endOfDay` and `Mutation.advanceClock`: the clock and end-of-day services (which check the
 * scope and validate), presented as REST presents them.
 */
export const clockResolvers: Pick<Resolvers, 'Query' | 'Mutation'> = {
  Query: {
    clock: async (_parent, _args, { services, caller }) => presentClock(await services.clock.read(caller)),
    endOfDay: async (_parent, range, { services, caller }) =>
      presentEndOfDay(await services.endOfDay.list(caller, withoutNulls(range))).days,
  },
  Mutation: {
    advanceClock: async (_parent, input, { services, caller }) =>
      presentClockAdvance(await services.clock.advance(caller, withoutNulls(input))),
  },
};
