import { GatewayError } from '../../errors';
import type { ImageAdapter, ImageCall } from '../adapters';
import { providerJson, type MediaInit } from '../http';
import type { ImagePlan, RenderedImage } from '../renders';
import { downloadImage, pollUntil, readWithRetry, sameOrigin } from '../polling';
import { ProviderFailure } from '../upstream-errors';

/**
 * fal.ai's queue API (https://docs.fal.ai/model-endpoints/queue): submit to `{base}/{model_id}`
 * with `Authorization: Key`, poll the `status_url` it returns until `COMPLETED`, read the
 * `response_url`, then download each `images[].url` from fal's CDN. References go to the model's
 * edit endpoint as `image_urls`, which fal fetches itself.
 */

interface Submitted {
  request_id?: string;
  status_url?: string;
  response_url?: string;
}

interface Status {
  status?: string;
  error?: string;
  error_type?: string;
}

interface Result {
  images?: { url?: string; content_type?: string }[];
}

/** fal's JSON calls; a refusal in the result (422) is the request's fault. */
function call<T>(url: string, init: MediaInit): Promise<T> {
  return providerJson<T>('fal', url, init);
}

/** Refusals that the same request would get again: the job fails instead of retrying. */
const REFUSALS = new Set(['content_policy_violation', 'validation_error', 'invalid_input']);

/** fal renders any size and fetches the reference links itself. */
export const falImages: ImageAdapter = {
  readsReferenceBytes: false,
  render: async (plan, _references, target) => ({ images: await render(plan, target) }),
};

async function render(plan: ImagePlan, { base, apiKey, deadline, signal }: ImageCall): Promise<RenderedImage[]> {
  const auth = { Authorization: `Key ${apiKey}` };
  const edit = plan.references.length > 0;
  const modelId = edit ? (plan.route.editUpstreamId ?? plan.route.upstreamId) : plan.route.upstreamId;
  const [width, height] = plan.size.split('x').map(Number) as [number, number];
  const input = {
    prompt: plan.prompt,
    num_images: plan.n,
    image_size: { width, height },
    ...(edit ? { image_urls: plan.references } : {}),
  };
  const submitted = await call<Submitted>(`${base}/${modelId}`, { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify(input), signal });
  if (!submitted.request_id) throw new GatewayError('provider_error', 'fal answered the submission without a request id.');
  // fal's status and result URLs drop the model's sub-path; use them as returned, on fal's own origin.
  const appUrl = `${base}/${modelId.split('/').slice(0, 2).join('/')}/requests/${submitted.request_id}`;
  const statusUrl = sameOrigin(submitted.status_url, base) ?? `${appUrl}/status`;
  const responseUrl = sameOrigin(submitted.response_url, base) ?? appUrl;

  // Accepted: from here on only the status and result URLs are asked, never a new submission.
  const status = await pollUntil('fal', () => call<Status>(statusUrl, { headers: auth, signal }), (answer) => answer.status === 'COMPLETED', deadline, signal);
  if (status.error) throw falFailure(status.error, status.error_type);
  const result = await readWithRetry(() => call<Result>(responseUrl, { headers: auth, signal }), deadline, signal);
  const images = (result.images ?? []).filter((image): image is { url: string; content_type?: string } => typeof image.url === 'string');
  if (images.length === 0) throw new GatewayError('provider_error', 'fal answered without images.');
  return Promise.all(images.map((image) => downloadImage('fal', image.url, image.content_type, signal)));
}

/** fal's failure report: a refusal the same request would get again is the request's fault (400). */
export function falFailure(message: string, errorType: string | undefined): ProviderFailure {
  return REFUSALS.has(errorType ?? '') ? new ProviderFailure(`The provider rejected the request: ${message}`, true) : new ProviderFailure(`fal failed: ${message}`);
}
