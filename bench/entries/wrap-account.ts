/**
 * The gateway as `src/index.ts` exports it, with the Worker's `env.ACCOUNT` stubs wrapped: the
 * bench's variants of the bundle are small entry files over this (built by scripts/build.ts with
 * GATEWAY_ENTRY), not edits of the built text, so renaming code in src/ cannot break them. Calls
 * from Durable Objects (their own `this.env`) are left alone: only the Worker's side changes.
 */
import gateway from '../../src/index';

// Every Durable Object class the gateway exports (`export *` leaves the default handler out).
export * from '../../src/index';

type AccountStub = ReturnType<Env['ACCOUNT']['get']>;
type StubWrapper = (stub: AccountStub, env: Env) => AccountStub;

/** `env` with `env.ACCOUNT.get(...)` answering `wrap(stub)`; everything else of the namespace as it is. */
function wrapAccounts(env: Env, wrap: StubWrapper): Env {
  const namespace = env.ACCOUNT;
  const accounts = new Proxy(namespace, {
    get(target, prop) {
      if (prop === 'get') return (...args: Parameters<typeof namespace.get>) => wrap(target.get(...args), env);
      const value: unknown = Reflect.get(target, prop);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { ...env, ACCOUNT: accounts };
}

/** The gateway's handlers, each given `env` with its account stubs wrapped. */
export function gatewayWith(wrap: StubWrapper): ExportedHandler<Env, unknown> {
  return {
    fetch: (request, env, ctx) => gateway.fetch(request, wrapAccounts(env, wrap), ctx),
    queue: (batch, env, ctx) => gateway.queue(batch, wrapAccounts(env, wrap), ctx),
    scheduled: (controller, env) => gateway.scheduled(controller, wrapAccounts(env, wrap)),
  };
}

/**
 * A stub whose methods go through `around(name, call)`, `call` sending the method as it was. An
 * RPC stub answers every property name with a method (even `bind`), so a method is called as
 * `stub[name](...)`, never bound; `then` and symbols are left as they are.
 */
export function aroundMethods(stub: AccountStub, around: (name: string, call: (...args: unknown[]) => Promise<unknown>, args: unknown[]) => unknown): AccountStub {
  return new Proxy(stub, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop);
      if (typeof value !== 'function' || typeof prop !== 'string' || prop === 'then') return value;
      const call = (...args: unknown[]) => (target as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[prop]!(...args);
      return (...args: unknown[]) => around(prop, call, args);
    },
  });
}
