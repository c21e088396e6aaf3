import { IMAGE_TOKEN_FEE_PERCENT } from '../billing/image-cost';
import type { CatalogModel, EmbeddingRoute, ImageRoute, SpeechRoute, TranscriptionRoute, VideoModel, VideoRoute, ChatRoute } from './types';
import { videoInputs } from './video-inputs';

/** USD per million tokens to USD per token, through the decimal text so 0.15 gives 1.5e-7, not 1.4999e-7. */
const perToken = (perMTok: number) => Number(`${perMTok}e-6`);

/** USD per hour to USD per second, rounded to 12 decimals so float noise does not show. */
const perSecond = (perHour: number) => Number((perHour / 3600).toPrecision(12));

/** `2.5` -> `2.50`, `0.0035` -> `0.0035`: at least two decimals, no float noise. */
export function formatPrice(usd: number): string {
  const [whole, fraction = ''] = usd.toFixed(6).replace(/0+$/, '').split('.');
  return `${whole}.${fraction.padEnd(2, '0')}`;
}

function tierPrices(price: number | Partial<Record<string, number>>): { from: number; tiers?: Record<string, number> } {
  if (typeof price === 'number') return { from: price };
  const tiers = Object.fromEntries(Object.entries(price).filter((entry): entry is [string, number] => entry[1] !== undefined));
  return { from: Math.min(...Object.values(tiers)), tiers };
}

function pricing(model: CatalogModel, route: CatalogModel['routes'][number]) {
  switch (model.type) {
    case 'chat': {
      const { price } = route as ChatRoute;
      return {
        input: perToken(price.inputPerMTok),
        output: perToken(price.outputPerMTok),
        ...(price.cacheReadPerMTok === undefined ? {} : { cache_read: perToken(price.cacheReadPerMTok) }),
        ...(price.cacheWritePerMTok === undefined ? {} : { cache_write: perToken(price.cacheWritePerMTok) }),
        ...(price.cacheWrite1hPerMTok === undefined ? {} : { cache_write_1h: perToken(price.cacheWrite1hPerMTok) }),
        unit: 'per_token' as const,
        display: `$${formatPrice(price.inputPerMTok)} / 1M input tokens, $${formatPrice(price.outputPerMTok)} / 1M output tokens`,
      };
    }
    case 'image': {
      const { perImage, tokens } = route as ImageRoute;
      const { from, tiers } = tierPrices(perImage);
      return {
        input: 0,
        output: from,
        unit: 'per_image' as const,
        display: `${tiers ? 'from ' : ''}$${formatPrice(from)} / image${tokens ? `, billed by tokens + ${IMAGE_TOKEN_FEE_PERCENT}%` : ''}`,
        ...(tiers ? { tiers } : {}),
        // Token-billed: the charge is the reported usage at these prices plus the fee (spec).
        ...(tokens
          ? {
              tokens: {
                text_input: perToken(tokens.textInputPerMTok),
                image_input: perToken(tokens.imageInputPerMTok),
                image_output: perToken(tokens.imageOutputPerMTok),
                service_fee_percent: IMAGE_TOKEN_FEE_PERCENT,
              },
            }
          : {}),
      };
    }
    case 'video': {
      const { from, tiers } = tierPrices((route as VideoRoute).perSecond);
      return { input: 0, output: from, unit: 'per_second' as const, display: `${tiers ? 'from ' : ''}$${formatPrice(from)} / second`, ...(tiers ? { tiers } : {}) };
    }
    case 'audio': {
      const { per1kChars } = route as SpeechRoute;
      return { input: 0, output: per1kChars, unit: 'per_1k_chars' as const, display: `$${formatPrice(per1kChars)} / 1K characters` };
    }
    case 'embedding': {
      const { inputPerMTok } = route as EmbeddingRoute;
      return { input: perToken(inputPerMTok), output: 0, unit: 'per_token' as const, display: `$${formatPrice(inputPerMTok)} / 1M input tokens` };
    }
    case 'transcription': {
      const { perHour, minimumSeconds, tokens } = route as TranscriptionRoute;
      const minimum = minimumSeconds ? `, at least ${minimumSeconds} s per request` : '';
      // USD per second of audio, through the decimal text (0.36 / 3600 gives 0.0001, not 9.999e-5).
      const seconds = { input: 0, output: perSecond(perHour), unit: 'per_second' as const };
      if (!tokens) return { ...seconds, display: `$${formatPrice(perHour)} / hour of audio${minimum}` };
      // Billed by the tokens the upstream reports; the hour's price is its audio's estimate.
      return {
        ...seconds,
        tokens: { text_input: perToken(tokens.textInputPerMTok), audio_input: perToken(tokens.audioInputPerMTok), output: perToken(tokens.outputPerMTok) },
        display: `billed by tokens: $${formatPrice(tokens.audioInputPerMTok)} / 1M audio, $${formatPrice(tokens.textInputPerMTok)} / 1M text in, $${formatPrice(tokens.outputPerMTok)} / 1M out (audio about $${formatPrice(perHour)} / hour)`,
      };
    }
  }
}

/** The spec's model entry, priced at the route that will serve it. */
export function modelEntry(model: CatalogModel, route: CatalogModel['routes'][number]) {
  const chat = model.type === 'chat' ? model : undefined;
  const image = model.type === 'image' ? model : undefined;
  return {
    id: model.id,
    object: 'model' as const,
    created: Math.floor(Date.parse(`${model.released}T00:00:00Z`) / 1000),
    owned_by: model.maker,
    type: model.type,
    display_name: model.displayName,
    context_length: chat?.contextLength ?? (model.type === 'embedding' ? model.maxInputTokens : null),
    max_output_tokens: chat?.maxOutputTokens ?? null,
    capabilities: {
      streaming: model.type === 'chat',
      vision: chat?.vision ?? false,
      images: chat?.vision ?? false,
      tools: chat?.tools ?? false,
      pdf: chat?.pdf ?? false,
      image_edit: image?.imageEdit ?? false,
      max_reference_images: image?.maxReferenceImages ?? 0,
    },
    pricing: pricing(model, route),
    ...(model.demo !== undefined && { demo: true, description: model.demo }),
    ...(image?.qualities ? { qualities: image.qualities } : {}),
    ...(model.type === 'video'
      ? { video: { durations: model.durations, default_duration: model.defaultDuration, resolutions: model.resolutions, audio: model.audio, image_input: model.imageInput, inputs: videoInputsEntry(model, route as VideoRoute) } }
      : {}),
    ...(model.type === 'audio' ? { default_voice: model.defaultVoice } : {}),
    ...(model.type === 'embedding'
      ? { embedding: { default_dimensions: model.defaultDimensions, min_dimensions: model.minDimensions, max_dimensions: model.maxDimensions, max_input_tokens: model.maxInputTokens } }
      : {}),
    ...(model.type === 'transcription'
      ? { transcription: { max_file_bytes: model.maxBytes, max_seconds: model.maxSeconds ?? null, response_formats: model.formats, minimum_billed_seconds: (route as TranscriptionRoute).minimumSeconds ?? 0 } }
      : {}),
  };
}

/**
 * Which request fields a video model takes at the route that serves it (what planVideo accepts;
 * any other is a 400 naming it): images as first frames, a last frame, reference images, video
 * and audio inputs (and whether they are required), a seed, the aspect ratios it renders.
 */
function videoInputsEntry(model: VideoModel, route: VideoRoute) {
  const inputs = videoInputs(model);
  const endpoints = route.endpoints ?? {};
  const lastFrame = (endpoints.firstLast ?? endpoints.image)?.last !== undefined && inputs.images > 0;
  const media = endpoints.media;
  return {
    image_url: inputs.images > 0,
    end_image_url: lastFrame,
    max_reference_images: inputs.images > 0 ? (endpoints.references?.max ?? 0) : 0,
    video_url: inputs.videos > 0 && media?.video !== undefined ? (media.video.required ? ('required' as const) : ('optional' as const)) : ('no' as const),
    audio_url: inputs.audios > 0 && media?.audio !== undefined ? (media.audio.required ? ('required' as const) : ('optional' as const)) : ('no' as const),
    seed: inputs.seed,
    aspect_ratios: [...inputs.aspectRatios],
  };
}
