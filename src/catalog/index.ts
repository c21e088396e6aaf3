import { isConfigured } from '../providers/credentials';
import { findLocalModel, localModels } from './local';
import { MODELS } from './models';
import type { CatalogModel } from './types';

export type { CatalogModel } from './types';

const BY_ID = new Map(MODELS.map((model) => [model.id, model]));

/**
 * A catalog model, or one discovered on the local server (`local/<id>`, `local.ts`): from the list
 * of `env`'s server when given, else from the latest list this isolate discovered.
 */
export function findModel(id: string, env?: Env): CatalogModel | undefined {
  return BY_ID.get(id) ?? (env ? localModels(env).find((model) => model.id === id) : findLocalModel(id));
}

export type RouteOf<M extends CatalogModel> = M['routes'][number];

/** The model's routes whose provider is configured, in catalog order: the first serves, the rest are fallbacks. */
export function liveRoutes<M extends CatalogModel>(model: M, env: Env): RouteOf<M>[] {
  return (model.routes as RouteOf<M>[]).filter((route) => isConfigured(env, route.provider));
}

/** Models with at least one configured route: what `/v1/models` lists and what requests may use. */
export function liveModels(env: Env): { model: CatalogModel; route: RouteOf<CatalogModel> }[] {
  return [...MODELS, ...localModels(env)].flatMap((model) => {
    const [route] = liveRoutes(model, env);
    return route ? [{ model, route }] : [];
  });
}
