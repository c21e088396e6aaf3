import { resolveModel, servingRoutes } from '../../catalog/resolve';
import type { ImageModel, ImageQuality, ImageRoute } from '../../catalog/types';
import { GatewayError } from '../../errors';
import { MICROS_PER_USD } from '../../money';
import type { ImagePlan } from '../../providers/renders';
import { adapterOf } from '../../providers/registry';
import type { ImageRequest } from './request';

/**
 * Checks a request against its model (what the model takes, whoever serves it), then finds its
 * route and prices it, before any money moves.
 */
export function planImages(request: ImageRequest, env: Env): ImagePlan {
  const model = resolveModel(request.model, 'image');
  const references = [...(request.image_url ? [request.image_url] : []), ...(request.image_urls ?? [])];
  const referencesParam = request.image_urls !== undefined ? 'image_urls' : 'image_url';
  checkReferences(model, references, referencesParam);
  const quality = modelQuality(model, request.quality);
  const route = servingRoutes(model, env)[0]!;
  const upstreamSize = adapterOf(route.provider, 'images')?.size;
  return {
    model,
    route,
    prompt: request.prompt,
    n: request.n,
    size: upstreamSize ? upstreamSize(request.size) : request.size,
    quality,
    references,
    referencesParam,
    // Catalog prices have at most 6 decimals; rounding removes float noise (0.034 * 1e6).
    unitMicros: Math.round(unitPrice(route, quality) * MICROS_PER_USD),
  };
}

function checkReferences(model: ImageModel, references: string[], param: string): void {
  if (references.length === 0) return;
  if (!model.imageEdit || model.maxReferenceImages === 0) {
    throw new GatewayError('invalid_request', `${model.id} takes no reference images (capabilities.image_edit is false).`, { param });
  }
  if (references.length > model.maxReferenceImages) {
    throw new GatewayError('invalid_request', `${model.id} takes at most ${model.maxReferenceImages} reference image(s); ${references.length} were given.`, { param });
  }
}

/**
 * The tier a model renders for the requested quality: on models that take only low, medium and
 * high, `standard` means `medium` and `hd` means `high` (spec). A model without tiers ignores it.
 */
export function modelQuality(model: ImageModel, requested: ImageQuality): ImageQuality | undefined {
  const tiers = model.qualities;
  if (!tiers) return undefined;
  if (tiers.includes(requested)) return requested;
  const alias = requested === 'standard' ? 'medium' : requested === 'hd' ? 'high' : undefined;
  if (alias && tiers.includes(alias)) return alias;
  throw new GatewayError('invalid_request', `${model.id} renders quality ${tiers.join(', ')}${tiers.includes('medium') ? ' (standard means medium, hd means high)' : ''}.`, {
    param: 'quality',
  });
}

function unitPrice(route: ImageRoute, quality: ImageQuality | undefined): number {
  if (typeof route.perImage === 'number') return route.perImage;
  const price = quality ? route.perImage[quality] : undefined;
  if (price === undefined) throw new GatewayError('invalid_request', `No price for quality ${quality ?? '(none)'} on this model.`, { param: 'quality' });
  return price;
}
