import type { Context, Handler, MiddlewareHandler, Next } from 'hono';
import type { AppEnv } from '../../env';
import { renderError } from '../error-response';

/** One route's handlers in order: its middleware, its validators, its handler (as Hono stores them). */
export type Chain = readonly (Handler<AppEnv> | MiddlewareHandler<AppEnv>)[];

/**
 * Runs a route's chain inside the request that matched it, exactly as Hono's `compose` would have
 * if the chain had been registered on the app itself: each step's thrown Error is rendered by the
 * app's error handler, a returned Response becomes `c.res`, and the last step's `next` is the
 * app's own. Unlike `compose`, it leaves `c.req.routeIndex` alone: the stub that called it was
 * matched with the same path, so `c.req.param()` and the logged route stay the stub's, the real one.
 */
export async function runChain(chain: Chain, c: Context<AppEnv>, next: Next): Promise<void> {
  let index = -1;
  const dispatch = async (i: number): Promise<void> => {
    if (i <= index) throw new Error('next() called multiple times');
    index = i;
    const step = i < chain.length ? chain[i] : i === chain.length ? next : undefined;
    if (!step) return;
    let res: Response | void;
    let isError = false;
    try {
      res = await step(c, () => dispatch(i + 1));
    } catch (err) {
      if (!(err instanceof Error)) throw err;
      c.error = err;
      res = renderError(err, c);
      isError = true;
    }
    if (res && (!c.finalized || isError)) c.res = res;
  };
  await dispatch(0);
}
