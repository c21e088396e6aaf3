import type { RouteHandler } from '@hono/zod-openapi';
import { ownDataOf } from '../../accounts/data-scope';
import { holdFailureError } from '../../accounts/failures';
import { database } from '../../db';
import { generationsPage, type GenerationKind } from '../../db/generations';
import type { AppEnv } from '../../env';
import { fileUrl } from '../../media/outputs';
import { publicBaseUrl } from '../../urls';
import { decodeCursor, encodeCursor } from '../cursor';
import type { listGenerations } from './generations.routes';

/** `GET /v1/generations`: this account's completed generations (a sub-key's own only, D35), newest first, by opaque cursor. */
export const listGenerationsHandler: RouteHandler<typeof listGenerations, AppEnv> = async (c) => {
  const { kind, limit, cursor } = c.req.valid('query');
  const caller = c.get('caller');
  const auth = await caller.account.authenticate(caller.keyHash);
  if (!auth.ok) throw holdFailureError(auth);
  const kinds: GenerationKind[] = kind ? [kind] : ['image', 'video'];
  const after = cursor ? decodeCursor(cursor, /^gen_[A-Za-z0-9]{1,64}$/) : undefined;
  const rows = await generationsPage(database(c.env), { accountId: auth.accountId, keyId: ownDataOf(auth), kinds, limit, cursor: after && { createdAt: after.time, id: after.id }, now: Date.now() });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const base = publicBaseUrl(c);
  return c.json(
    {
      data: page.map((row) => ({
        id: row.id,
        kind: row.kind,
        model: row.model,
        prompt: row.prompt,
        urls: row.keys.map((key) => fileUrl(base, key)),
        created_at: new Date(row.createdAt).toISOString(),
      })),
      next_cursor: rows.length > limit && last ? encodeCursor(last.createdAt, last.id) : null,
    },
    200,
  );
};
