import type { z } from '@hono/zod-openapi';
import { validationError } from '../errors';

interface JsonBodyRoute<S extends z.ZodType> {
  request: { body: { content: { 'application/json': { schema: S } } } };
}

/** The JSON body schema a route declares: an MCP tool's arguments are its route's body. */
export function bodySchemaOf<S extends z.ZodType>(route: JsonBodyRoute<S>): S {
  return route.request.body.content['application/json'].schema;
}

/** Parses a body with a route's own schema: the same 400s, with the same `param`, as the route gives. */
export function parseBody<S extends z.ZodType>(route: JsonBodyRoute<S>, body: unknown): z.output<S> {
  const result = bodySchemaOf(route).safeParse(body);
  if (!result.success) throw validationError(result.error);
  return result.data;
}
