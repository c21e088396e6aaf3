import { GatewayError } from '../errors';
import type { Capability } from '../providers/adapters';
import { serves } from '../providers/registry';
import { findModel, liveRoutes, type RouteOf } from './index';
import type { CatalogModel, ModelType } from './types';

export type ModelOf<T extends ModelType> = Extract<CatalogModel, { type: T }>;

/** What each kind of model needs its provider to serve. */
export const CAPABILITY_OF = { chat: 'chat', image: 'images', video: 'videos', audio: 'speech' } as const satisfies Record<ModelType, Capability>;
const NOUN = { chat: 'a chat', image: 'an image', video: 'a video', audio: 'a speech' } as const satisfies Record<ModelType, string>;

function isOfType<T extends ModelType>(model: CatalogModel, type: T): model is ModelOf<T> {
  return model.type === type;
}

/**
 * The one model lookup of every billed route: the catalog entry a slug names, as a model of
 * `type`. Errors (spec, D11): an unknown slug is a 404 `model_not_found`, a model of another kind
 * a 400 naming `model`. What the model takes is checked against it before `servingRoutes` asks
 * who serves it.
 */
export function resolveModel<T extends ModelType>(slug: string, type: T): ModelOf<T> {
  const model = findModel(slug);
  if (!model) throw new GatewayError('model_not_found', `No model ${slug}; GET /v1/models lists them.`, { param: 'model' });
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
