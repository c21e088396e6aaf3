import type { ProviderId } from '../providers/ids';

/** Where a price was read and when (YYYY-MM-DD), so anyone can re-check it. */
export interface PriceSource {
  url: string;
  readOn: string;
}

/**
 * Chat parameter groups of the spec's provider table.
 * 1: OpenAI-shaped, everything applied. 2: OpenAI-compatible without `n > 1` and logprobs.
 * 3: upstream format is not chat-completions (Anthropic, Gemini).
 */
export type ParamGroup = 1 | 2 | 3;

/** Token prices in USD per million tokens, as providers publish them (= micro-dollars per token). */
export interface TokenPrice {
  inputPerMTok: number;
  outputPerMTok: number;
  /** Prompt-cache read price (OpenAI's "cached input"), where the provider publishes one. */
  cacheReadPerMTok?: number;
  /** Prompt-cache write price (Anthropic: 5-minute writes), where the provider publishes one. */
  cacheWritePerMTok?: number;
  /** 1-hour prompt-cache write price (Anthropic), where the provider publishes one. */
  cacheWrite1hPerMTok?: number;
}

export interface ChatRoute {
  provider: ProviderId;
  /** The model id the upstream API expects. */
  upstreamId: string;
  price: TokenPrice;
  source: PriceSource;
  /** Defaults to the provider's group (its config's `paramGroup`). */
  paramGroup?: ParamGroup;
  /**
   * The provider bills a request aborted before its first token as if it had run (a minimum per
   * request): never sent before its hold is confirmed (D21).
   */
  billsAbortedRequests?: true;
}

interface ModelBase {
  /** Public slug `<maker>/<model>`. */
  id: string;
  displayName: string;
  /** The maker, as `owned_by`. */
  maker: string;
  /** Release date (YYYY-MM-DD), reported as `created` in Unix seconds. */
  released: string;
  /** A built-in demo, not a real model: `/v1/models` marks it `demo: true` with this as its `description`. */
  demo?: string;
}

export interface ChatModel extends ModelBase {
  type: 'chat';
  contextLength: number;
  maxOutputTokens: number;
  vision: boolean;
  tools: boolean;
  pdf: boolean;
  /**
   * The most tokens one image can cost on this model, where it is above `DEFAULT_IMAGE_TOKENS`
   * (`src/products/chat/estimate.ts`): the hold counts it per image (D33).
   */
  imageTokens?: number;
  /** First configured route serves the request; later ones are fallbacks. */
  routes: ChatRoute[];
}

export type ImageQuality = 'low' | 'medium' | 'high' | 'standard' | 'hd' | 'xhigh' | 'max';

/**
 * Token prices of a token-billed image route (GPT-image models), USD per million tokens as the
 * provider publishes them: the charge is the upstream-reported usage at these prices plus the
 * service fee (`src/billing/image-cost.ts`).
 */
export interface ImageTokenPrice {
  textInputPerMTok: number;
  imageInputPerMTok: number;
  imageOutputPerMTok: number;
}

/** How a queue rail takes reference images: the input member and whether it holds a list. */
export interface ReferenceInput {
  field: string;
  list: boolean;
}

export interface ImageRoute {
  provider: ProviderId;
  upstreamId: string;
  /** Upstream id of the edit variant, when references switch to another endpoint. */
  editUpstreamId?: string;
  /** Replicate: the model's own input member for references (each model names it differently). */
  referenceInput?: ReferenceInput;
  /**
   * USD per image; one price, or one per quality tier. On a token-billed route it is the
   * provider's published price of a square image, the basis of the hold and of `/v1/models`.
   */
  perImage: number | Partial<Record<ImageQuality, number>>;
  /** Present on token-billed routes: the charge follows the reported usage. */
  tokens?: ImageTokenPrice;
  source: PriceSource;
}

export interface ImageModel extends ModelBase {
  type: 'image';
  imageEdit: boolean;
  maxReferenceImages: number;
  /** Quality tiers the model takes; absent when it has none. */
  qualities?: ImageQuality[];
  routes: ImageRoute[];
}

export type VideoResolution = '480p' | '720p' | '1080p' | '2k' | '4k';

/**
 * Fields of a prompt-only endpoint that an endpoint's schema does not have: planVideo refuses an
 * asked `aspect_ratio` or `seed` there, and the rail does not send `prompt` or `duration` (an
 * endpoint with a fixed length, or one whose length follows its input video).
 */
export type VideoEndpointLack = 'aspect_ratio' | 'seed' | 'duration' | 'prompt';

/** An endpoint that takes a first frame (and maybe a last one), with the names its schema gives them. */
export interface VideoFrameEndpoint {
  upstreamId: string;
  /** The first frame's field; the rail's default (`image_url` on fal, `start_image` on Replicate) when absent. */
  first?: 'image_url' | 'first_frame_url' | 'start_image';
  /** The last frame's field, where the endpoint takes one. */
  last?: 'tail_image_url' | 'last_frame_url' | 'end_image_url' | 'end_image';
  lacks?: VideoEndpointLack[];
}

/** An endpoint that takes several reference images (no first frame). */
export interface VideoReferenceEndpoint {
  upstreamId: string;
  field: 'image_urls';
  max: number;
  lacks?: VideoEndpointLack[];
}

/**
 * Per-request endpoint choice: the route's `upstreamId` serves a prompt alone; a request carrying
 * images goes to the endpoint its provider documents for them (planVideo picks it).
 */
export interface VideoEndpoints {
  /** First frame. Absent: the route's own endpoint takes it under the rail's default name. */
  image?: VideoFrameEndpoint;
  /** First and last frame, where that is a separate endpoint (Veo 3.1); else `image.last`. */
  firstLast?: VideoFrameEndpoint & { last: NonNullable<VideoFrameEndpoint['last']> };
  references?: VideoReferenceEndpoint;
  /** The route's own endpoint is image-to-video: a prompt alone is a 400 naming `image_url`. */
  imageRequired?: boolean;
  /** Video and audio inputs the route's own endpoint takes, under its schema's names. */
  media?: VideoMediaFields;
}

/** A video or audio input field of an endpoint, and whether its schema requires it. */
export interface VideoMediaField<Name extends string> {
  field: Name;
  required: boolean;
}

/** The video and audio input fields of a route's own endpoint (how many it takes: `VideoInputs`). */
export interface VideoMediaFields {
  video?: VideoMediaField<'video_url'>;
  audio?: VideoMediaField<'audio_url'>;
}

export interface VideoRoute {
  provider: ProviderId;
  upstreamId: string;
  /** USD per second of video; one price, or one per resolution. */
  perSecond: number | Partial<Record<VideoResolution, number>>;
  source: PriceSource;
  endpoints?: VideoEndpoints;
  /** Fields the route's own endpoint lacks (its image endpoints name theirs). */
  lacks?: VideoEndpointLack[];
}

export interface VideoModel extends ModelBase {
  type: 'video';
  /** Allowed `duration` values in seconds. */
  durations: number[];
  defaultDuration: number;
  resolutions: VideoResolution[];
  audio: boolean;
  /** Accepts a first-frame / reference image. */
  imageInput: boolean;
  /**
   * The video's length follows its input video (at most the one duration listed), so a requested
   * `duration` is refused and the price of that longest input is held; the charge is the output's
   * seconds where the provider reports them, rounded up to the provider's billing step (`roundUpTo`
   * seconds), never past the hold (`outputCharge`).
   */
  lengthFromInput?: { roundUpTo: number };
  routes: VideoRoute[];
}

export interface SpeechRoute {
  provider: ProviderId;
  upstreamId: string;
  /** USD per 1,000 characters of input. */
  per1kChars: number;
  source: PriceSource;
}

export interface SpeechModel extends ModelBase {
  type: 'audio';
  defaultVoice: string;
  routes: SpeechRoute[];
}

export interface EmbeddingRoute {
  provider: ProviderId;
  upstreamId: string;
  /** USD per million input tokens, as the provider publishes it (= micro-dollars per token). */
  inputPerMTok: number;
  source: PriceSource;
}

export interface EmbeddingModel extends ModelBase {
  type: 'embedding';
  /** Tokens one input may have: the hold counts each input's bytes up to this (D33), and refuses beyond it. */
  maxInputTokens: number;
  /** Vector length without `dimensions`; `minDimensions` = `maxDimensions` = it when the size is fixed. */
  defaultDimensions: number;
  minDimensions: number;
  maxDimensions: number;
  routes: EmbeddingRoute[];
}


export interface TranscriptionRoute {
  provider: ProviderId;
  upstreamId: string;
  /**
   * USD per hour of audio, as the makers publish it (OpenAI's per-minute price x 60): exact in
   * decimal, so a charge is `seconds x perHour / 3600` rounded once (D16).
   */
  perHour: number;
  /** The provider bills at least this many seconds per request (Groq: 10). */
  minimumSeconds?: number;
  /**
   * Where the provider bills tokens, not seconds (OpenAI's GPT-4o transcribers), USD per million:
   * the charge is the tokens its answer reports; `perHour` is then its estimate of the audio's
   * tokens, which the hold counts beside the prompt and the longest transcript.
   */
  tokens?: TranscriptionTokenPrices;
  source: PriceSource;
}

export interface TranscriptionTokenPrices {
  textInputPerMTok: number;
  audioInputPerMTok: number;
  outputPerMTok: number;
}

export type TranscriptFormat = 'json' | 'text' | 'verbose_json';

export interface TranscriptionModel extends ModelBase {
  type: 'transcription';
  /** The largest file the model takes, in bytes. */
  maxBytes: number;
  /** The longest audio the model takes, in seconds, where the maker states one. */
  maxSeconds?: number;
  /** The `response_format` values it answers. */
  formats: TranscriptFormat[];
  /** The longest transcript it writes, in tokens, where it bills them (`TranscriptionRoute.tokens`). */
  maxOutputTokens?: number;
  routes: TranscriptionRoute[];
}

export type CatalogModel = ChatModel | ImageModel | VideoModel | SpeechModel | EmbeddingModel | TranscriptionModel;
export type ModelType = CatalogModel['type'];
