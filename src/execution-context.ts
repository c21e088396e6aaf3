import type { Context } from 'hono';

/** The request's execution context, or undefined where there is none (`app.request` in unit tests). */
export function executionContext(c: Context): ExecutionContext | undefined {
  try {
    return c.executionCtx as ExecutionContext;
  } catch {
    return undefined;
  }
}
