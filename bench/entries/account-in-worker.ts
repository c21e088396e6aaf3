/**
 * The gateway whose batched account calls are answered in the Worker, every hold granted and every
 * settlement applied (bench/run.mjs, "Worker side"): what the Worker side of a request costs with
 * no Durable Object behind it. Only `apply` (the AccountClient's batch) is answered here; the
 * key's first check and other `direct()` calls still reach the account.
 */
import type { AccountOp } from '../../durable-objects/account/types';
import { aroundMethods, gatewayWith } from './wrap-account';

export * from './wrap-account';

const answer = (op: AccountOp) =>
  op.op === 'hold'
    ? { ok: true, accountId: 'a', keyId: 'k', holdId: 'h', amountMicros: op.request.maxMicros, availableMicros: 1e12 }
    : { ok: true, holdId: 'holdId' in op ? op.holdId : 'h', chargedMicros: op.op === 'settle' ? op.chargeMicros : 0, balanceMicros: 1e12, applied: true };

export default gatewayWith((stub) =>
  aroundMethods(stub, (name, call, args) => (name === 'apply' ? Promise.resolve({ balanceMicros: 1e12, results: (args[0] as AccountOp[]).map(answer) }) : call(...args))),
);
