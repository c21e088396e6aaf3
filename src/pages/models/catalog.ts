import { localModels } from '../../catalog/local';
import { MODELS } from '../../catalog/models';
import { modelEntry } from '../../catalog/model-entry';
import type { CatalogModel, ChatRoute } from '../../catalog/types';
import type { RouteStatus } from '../../products/chat/health/breaker';
import { routeStatus } from '../../products/chat/health/route-health';
import { PROVIDERS } from '../../providers/registry';
import { isConfigured } from '../../providers/credentials';

export type ModelTypeFilter = CatalogModel['type'];

/** Each model type as the page names it; the compiler asks for a new type's name. */
export const TYPE_NAMES: Record<ModelTypeFilter, string> = { chat: 'Chat', image: 'Image', video: 'Video', audio: 'Speech', embedding: 'Embedding', transcription: 'Transcription' };
export const MODEL_TYPES = Object.keys(TYPE_NAMES) as ModelTypeFilter[];

/** One row of the catalog page: what a person compares, read off the same entry `/v1/models` serves. */
export interface CatalogRow {
  id: string;
  name: string;
  maker: string;
  type: CatalogModel['type'];
  context: number | null;
  price: string;
  capabilities: string[];
  /** Each route's provider, whether it is configured here, and a chat route's recent status (route health, D34). */
  endpoints: { provider: string; serving: boolean; status?: RouteStatus }[];
}

const CAPABILITY_NAMES = { vision: 'vision', tools: 'tools', pdf: 'PDF', image_edit: 'image edit', streaming: 'streaming' } as const;

/** The catalog, every model of it and the local server's, filtered by `query` (id, name or maker) and `type`; serving endpoints are those configured here. */
export function catalogRows(env: Env, filter: { query: string; type: ModelTypeFilter | null }): CatalogRow[] {
  const words = filter.query.toLowerCase().split(/\s+/).filter(Boolean);
  return [...MODELS, ...localModels(env)].flatMap((model) => {
    if (filter.type && model.type !== filter.type) return [];
    const haystack = `${model.id} ${model.displayName} ${model.maker}`.toLowerCase();
    if (!words.every((word) => haystack.includes(word))) return [];
    const serving = model.routes.find((route) => isConfigured(env, route.provider)) ?? model.routes[0]!;
    const entry = modelEntry(model, serving);
    return [
      {
        id: model.id,
        name: model.displayName,
        maker: model.maker,
        type: model.type,
        context: entry.context_length,
        price: entry.pricing.display,
        capabilities: Object.entries(CAPABILITY_NAMES).flatMap(([key, name]) => (entry.capabilities[key as keyof typeof CAPABILITY_NAMES] ? [name] : [])),
        endpoints: model.routes.map((route) => {
          const serving = isConfigured(env, route.provider);
          return { provider: PROVIDERS[route.provider].name, serving, ...(serving && model.type === 'chat' && { status: routeStatus(route as ChatRoute, env) }) };
        }),
      },
    ];
  });
}
