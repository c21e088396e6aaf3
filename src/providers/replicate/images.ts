import { GatewayError } from '../../errors';
import type { ImageAdapter, ImageCall } from '../adapters';
import { providerJson, type MediaInit } from '../http';
import type { ImagePlan, RenderedImage } from '../renders';
import { downloadImage, pollUntil, sameOrigin } from '../polling';
import { ProviderFailure } from '../upstream-errors';

/**
 * Replicate's predictions API for official models (https://replicate.com/docs/reference/http):
 * `POST {base}/models/{owner}/{name}/predictions` with `{input}`, then `GET urls.get` until
 * `succeeded`, `failed` or `canceled`; `output` is a file URL or a list of them. Input schemas
 * differ per model; `prompt` and `aspect_ratio` are the ones every image model here takes, so
 * `n` images are `n` predictions; references go in the member the catalog names for the model.
 */

interface Prediction {
  id?: string;
  status?: 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled';
  output?: unknown;
  error?: unknown;
  urls?: { get?: string };
}

const ASPECT_RATIOS = ['1:1', '16:9', '9:16', '4:3', '3:4', '3:2', '2:3', '21:9', '9:21'];

/** Replicate fetches the reference links itself; sizes go as the nearest aspect ratio. */
export const replicateImages: ImageAdapter = {
  readsReferenceBytes: false,
  render: async (plan, _references, target) => ({ images: await render(plan, target) }),
};

async function render(plan: ImagePlan, { base, apiKey, deadline, signal }: ImageCall): Promise<RenderedImage[]> {
  const [width, height] = plan.size.split('x').map(Number) as [number, number];
  const input = { prompt: plan.prompt, aspect_ratio: closestAspectRatio(width, height), ...referenceInput(plan) };
  const outputs = await Promise.all(Array.from({ length: plan.n }, () => predict(plan.route.upstreamId, input, base, apiKey, deadline, signal)));
  return Promise.all(outputs.flat().map((url) => downloadImage('Replicate', url, undefined, signal)));
}

async function predict(model: string, input: Record<string, unknown>, base: string, apiKey: string, deadline: number, signal: AbortSignal): Promise<string[]> {
  const auth = { Authorization: `Bearer ${apiKey}` };
  let prediction = await call(`${base}/models/${model}/predictions`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ input }), signal });
  if (!prediction.id) throw new GatewayError('provider_error', 'Replicate answered without a prediction id.');
  const getUrl = sameOrigin(prediction.urls?.get, base) ?? `${base}/predictions/${prediction.id}`;
  // Accepted: from here on only the prediction is read again, never submitted again.
  const ended = (answer: Prediction) => answer.status === 'succeeded' || answer.status === 'failed' || answer.status === 'canceled';
  if (!ended(prediction)) prediction = await pollUntil('Replicate', () => call(getUrl, { headers: auth, signal }), ended, deadline, signal);
  if (prediction.status === 'failed') throw new ProviderFailure(`The provider failed the render: ${typeof prediction.error === 'string' ? prediction.error : 'no reason given'}`, true);
  if (prediction.status === 'canceled') throw new ProviderFailure('Replicate canceled the render.');
  const urls = (Array.isArray(prediction.output) ? prediction.output : [prediction.output]).filter((url): url is string => typeof url === 'string');
  if (urls.length === 0) throw new GatewayError('provider_error', 'Replicate answered without images.');
  return urls;
}

/**
 * References as links (Replicate fetches file inputs given as URLs), in the member the model
 * names: `input_image` (FLUX Kontext), `image` (Qwen Image Edit), a list `image_input`
 * (Seedream 4, Nano Banana Pro).
 */
function referenceInput(plan: ImagePlan): Record<string, string | string[]> {
  if (plan.references.length === 0) return {};
  const field = plan.route.referenceInput;
  if (!field) throw new GatewayError('invalid_request', `${plan.model.id} takes no references on its Replicate route.`, { param: plan.referencesParam });
  return { [field.field]: field.list ? plan.references : plan.references[0]! };
}

function call(url: string, init: MediaInit): Promise<Prediction> {
  return providerJson<Prediction>('Replicate', url, init);
}

/** The aspect ratio nearest to width:height, compared on a log scale so 2:1 and 1:2 weigh alike. */
export function closestAspectRatio(width: number, height: number): string {
  const target = Math.log(width / height);
  const distance = (ratio: string) => {
    const [w, h] = ratio.split(':').map(Number) as [number, number];
    return Math.abs(Math.log(w / h) - target);
  };
  return ASPECT_RATIOS.reduce((best, ratio) => (distance(ratio) < distance(best) ? ratio : best));
}
