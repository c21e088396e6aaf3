import type { ImageTokenUsage } from '../../billing/image-cost';
import { GatewayError } from '../../errors';
import type { ImageAdapter } from '../adapters';
import { detailOrStatus, mediaCall, type UpstreamCall } from '../http';
import { UpstreamTrouble } from '../upstream-errors';
import type { ImagePlan, ImageRender, ReferenceImage } from '../renders';

/**
 * OpenAI's Images API (https://platform.openai.com/docs/api-reference/images): GPT-image models
 * answer `data[].b64_json` (they take no `response_format`) with the image format in
 * `output_format`; with references the request goes to `/images/edits` as multipart, each
 * reference an `image[]` file (so the rail reads the reference bytes). One call answers with
 * every image, within the render's time; there is no id to ask again by, so the call is sent
 * once (`once`: a timeout or a dropped connection after it may have arrived fails the render,
 * never sends it again). Its errors follow the media status table, except that OpenAI's 5xx
 * (`server_error`: "retry after a brief wait", no image made) is transport trouble, retried.
 */
export const openaiImages: ImageAdapter = {
  readsReferenceBytes: true,
  size: gptImageSize,
  async render(plan, references, { base, apiKey, timeoutMs, signal }) {
    const { body } = await mediaCall('OpenAI', openaiImageRequest(plan, references, base, apiKey), { timeoutMs, signal, once: true, statusError: serverTrouble });
    return openaiImageAnswer(body);
  },
};

/** OpenAI's 5xx says the request failed on its side, with nothing rendered: worth sending again. */
function serverTrouble(status: number, body: unknown): GatewayError | undefined {
  return status >= 500 ? new UpstreamTrouble(`OpenAI failed (${status}): ${detailOrStatus(status, body)}`, status) : undefined;
}

/** GPT-image-style models render 1024x1024, 1536x1024 or 1024x1536: the one of the same orientation. */
export function gptImageSize(size: string): string {
  const [width, height] = size.split('x').map(Number) as [number, number];
  if (width > height) return '1536x1024';
  if (width < height) return '1024x1536';
  return '1024x1024';
}

export function openaiImageRequest(plan: ImagePlan, references: ReferenceImage[], base: string, apiKey: string): UpstreamCall {
  const fields: Record<string, string> = {
    model: plan.route.upstreamId,
    prompt: plan.prompt,
    n: String(plan.n),
    size: plan.size,
    ...(plan.quality ? { quality: plan.quality } : {}),
  };
  const auth = { Authorization: `Bearer ${apiKey}` };
  if (references.length === 0) {
    return { url: `${base}/images/generations`, headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ ...fields, n: plan.n }) };
  }
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  references.forEach((reference, i) => form.append('image[]', new Blob([reference.bytes], { type: reference.contentType }), `reference-${i}.${extension(reference.contentType)}`));
  // fetch writes the multipart Content-Type with its boundary.
  return { url: `${base}/images/edits`, headers: auth, body: form };
}

interface OpenAIImagesResponse {
  data?: { b64_json?: string; url?: string }[];
  output_format?: string;
  usage?: {
    input_tokens?: unknown;
    output_tokens?: unknown;
    input_tokens_details?: { text_tokens?: unknown; image_tokens?: unknown };
  };
}

/** The images of an OpenAI answer, decoded, with the usage it reports; a provider_error when it holds none. */
export function openaiImageAnswer(body: unknown): ImageRender {
  const { data, output_format, usage } = (body ?? {}) as OpenAIImagesResponse;
  const contentType = `image/${output_format === 'jpeg' || output_format === 'webp' ? output_format : 'png'}`;
  const images = (data ?? []).flatMap((item) => (typeof item.b64_json === 'string' ? [{ bytes: decodeBase64(item.b64_json), contentType }] : []));
  if (images.length === 0) throw new GatewayError('provider_error', 'The provider answered without images.');
  return { images, usage: imageUsage(usage) };
}

const count = (value: unknown): number | undefined => (Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : undefined);

/**
 * GPT-image usage: `input_tokens` split into `text_tokens` and `image_tokens` (the references),
 * and `output_tokens` (the images). Undefined when the answer does not carry it whole.
 */
function imageUsage(usage: OpenAIImagesResponse['usage']): ImageTokenUsage | undefined {
  const input = count(usage?.input_tokens);
  const outputTokens = count(usage?.output_tokens);
  if (input === undefined || outputTokens === undefined) return undefined;
  const imageInputTokens = count(usage?.input_tokens_details?.image_tokens) ?? 0;
  const textInputTokens = count(usage?.input_tokens_details?.text_tokens) ?? Math.max(0, input - imageInputTokens);
  return { textInputTokens, imageInputTokens, outputTokens };
}

function decodeBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function extension(contentType: string): string {
  return contentType.split('/')[1]?.replace('jpeg', 'jpg') ?? 'png';
}
