import { findModel, liveRoutes } from '../../catalog';
import type { ImageModel, ImageQuality, ImageRoute } from '../../catalog/types';
import { GatewayError } from '../../errors';
import { MICROS_PER_USD } from '../../money';
import { IMAGE_RAILS } from './rail';
import type { ImageRequest } from './request';

/** What one image request renders: its model, route, upstream size and quality, references and price. */
export interface ImagePlan {
  model: ImageModel;
  route: ImageRoute;
  prompt: string;
  n: number;
  /** `WIDTHxHEIGHT` as the upstream takes it (mapped for GPT-image-style models). */
  size: string;
  /** The tier the model renders and is priced at; undefined for a model without tiers. */
  quality: ImageQuality | undefined;
  references: string[];
  /** The request field the references came in, for errors about them. */
  referencesParam: 'image_url' | 'image_urls';
  /** Price of one image at `quality`, micro-dollars. */
  unitMicros: number;
}

/** The image model a slug names; 404 (D11) or 400 otherwise. */
export function findImageModel(slug: string): ImageModel {
  const model = findModel(slug);
  if (!model) throw new GatewayError('model_not_found', `No model ${slug}; GET /v1/models lists them.`, { param: 'model' });
  if (model.type !== 'image') throw new GatewayError('invalid_request', `${slug} is a ${model.type} model, not an image model.`, { param: 'model' });
  return model;
}

/** The model's configured routes that have an image rail; 404 when none. */
function imageRoutes(model: ImageModel, env: Env): ImageRoute[] {
  const configured = liveRoutes(model, env);
  const routes = configured.filter((route) => IMAGE_RAILS.has(route.provider));
  if (routes.length === 0) {
    const why = configured.length > 0 ? ` (no image rail for ${configured[0]!.provider} yet)` : '';
    throw new GatewayError('model_not_found', `${model.id} is not served by this gateway${why}.`, { param: 'model' });
  }
  return routes;
}

/**
 * Checks a request against its model (what the model takes, whoever serves it), then finds its
 * route and prices it, before any money moves.
 */
export function planImages(request: ImageRequest, env: Env): ImagePlan {
  const model = findImageModel(request.model);
  const references = [...(request.image_url ? [request.image_url] : []), ...(request.image_urls ?? [])];
  const referencesParam = request.image_urls !== undefined ? 'image_urls' : 'image_url';
  checkReferences(model, references, referencesParam);
  const quality = modelQuality(model, request.quality);
  const route = imageRoutes(model, env)[0]!;
  return {
    model,
    route,
    prompt: request.prompt,
    n: request.n,
    size: route.provider === 'openai' ? gptImageSize(request.size) : request.size,
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

/** GPT-image-style models render 1024x1024, 1536x1024 or 1024x1536: the one of the same orientation. */
export function gptImageSize(size: string): string {
  const [width, height] = size.split('x').map(Number) as [number, number];
  if (width > height) return '1536x1024';
  if (width < height) return '1024x1536';
  return '1024x1024';
}
