import { GatewayError } from '../errors';
import type { Capability } from '../providers/adapters';
import { serves } from '../providers/registry';
import { buildAliasIndex, matchAlias, type AliasIndex } from './aliases';
import { findModel, liveRoutes, type RouteOf } from './index';
import { MODELS } from './models';
import type { CatalogModel, ModelType } from './types';

export type ModelOf<T extends ModelType> = Extract<CatalogModel, { type: T }>;

/** What each kind of model needs its provider to serve. */
export const CAPABILITY_OF = { chat: 'chat', image: 'images', video: 'videos', audio: 'speech', embedding: 'embeddings', transcription: 'transcription' } as const satisfies Record<ModelType, Capability>;
const NOUN = { chat: 'a chat', image: 'an image', video: 'a video', audio: 'a speech', embedding: 'an embedding', transcription: 'a transcription' } as const satisfies Record<ModelType, string>;

function isOfType<T extends ModelType>(model: CatalogModel, type: T): model is ModelOf<T> {
  return model.type === type;
}

/** Built at the first id that is not a slug, once per isolate: most requests name a slug. */
let aliases: AliasIndex | undefined;
const SLUGS = MODELS.map((model) => model.id);

/** The model a slug or an alias names (D32); a 404 `model_not_found` naming the closest slugs otherwise. */
function findByAnyId(id: string, env?: Env): CatalogModel {
  const exact = findModel(id, env);
  if (exact) return exact;
  aliases ??= buildAliasIndex(MODELS);
  const match = matchAlias(aliases, SLUGS, id);
  if (match.ok) return findModel(match.id)!;
  if (match.reason === 'ambiguous') {
    throw new GatewayError('model_not_found', `${id} names more than one model: ${match.candidates.join(', ')}. Use one of these slugs.`, { param: 'model' });
  }
  const closest = match.closest.length > 0 ? ` Closest: ${match.closest.join(', ')}.` : '';
  throw new GatewayError('model_not_found', `No model ${id}; GET /v1/models lists them.${closest}`, { param: 'model' });
}

/**
 * The one model lookup of every billed route: the catalog entry a slug or an alias (D32) names,
 * as a model of `type`. Errors (spec, D11): an unknown id is a 404 `model_not_found`, a model of
 * another kind a 400 naming `model`. What the model takes is checked against it before
 * `servingRoutes` asks who serves it. With `env`, a local model (`local/<id>`) is looked up in
 * that configuration's discovered list.
 */
export function resolveModel<T extends ModelType>(slug: string, type: T, env?: Env): ModelOf<T> {
  const model = findByAnyId(slug, env);
  if (!isOfType(model, type)) {
    throw new GatewayError('invalid_request', `${slug} is ${NOUN[model.type]} model, not ${NOUN[type]} model.`, { param: 'model' });
  }
  return model;
}

/**
 * The model's routes that are configured and whose provider serves its kind (has the adapter), in
 * catalog order: the first serves, chat falls back to the next. None: a 404 `model_not_found`.
 */
export function servingRoutes<M extends CatalogModel>(model: M, env: Env): RouteOf<M>[] {
  const capability = CAPABILITY_OF[model.type];
  const configured = liveRoutes(model, env);
  const routes = configured.filter((route) => serves(route.provider, capability));
  if (routes.length === 0) {
    const why = configured.length > 0 ? ` (no ${capability} rail for ${configured[0]!.provider} yet)` : '';
    throw new GatewayError('model_not_found', `${model.id} is not served by this gateway${why}.`, { param: 'model' });
  }
  return routes;
}
