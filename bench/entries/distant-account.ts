/**
 * The gateway with a distant account (bench/edge.mjs): every method call of the Worker's account
 * stubs (the AccountClient's batched `apply` and `direct()` calls, the admin routes, registration,
 * claims, the queue consumer) is sent `BENCH_DISTANT_MS` (100) ms late, as to an account on
 * another continent.
 */
import { aroundMethods, gatewayWith } from './wrap-account';

export * from './wrap-account';

const delayMs = (env: Env) => Number((env as Env & { BENCH_DISTANT_MS?: string }).BENCH_DISTANT_MS ?? 100);

export default gatewayWith((stub, env) =>
  aroundMethods(stub, (_name, call, args) => new Promise((resolve) => setTimeout(resolve, delayMs(env))).then(() => call(...args))),
);
