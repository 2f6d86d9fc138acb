/**
 * A store whose `method` throws on its `call`-th call, as if the process were killed there mid-step; every
 * other call, and every other member, goes to the real store. For tests of a step that must resume where a
 * crash left it and change nothing twice.
 */
export function stopsAtCall<Store extends object, Method extends keyof Store>(
  store: Store,
  method: Method,
  call: number,
): Store {
  let calls = 0;
  return new Proxy(store, {
    get(target, property, receiver) {
      const member = Reflect.get(target, property, receiver) as unknown;
      if (property !== method || typeof member !== 'function') return member;
      return (...args: unknown[]) => {
        if (++calls === call) throw new Error('the process stops here');
        return (member as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
