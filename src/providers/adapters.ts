import type { z } from '@hono/zod-openapi';
import type { ParamGroup, TranscriptFormat } from '../catalog/types';
import { GatewayError } from '../errors';
import type { ChatAdapter, UpstreamRequest } from './chat/types';
import type { UpstreamCall } from './http';
import type { ImagePlan, ImageRender, ReferenceImage, StoredVideoHandle, VideoOrder, VideoProgress } from './renders';

/**
 * The contract of a provider: its endpoint, and one adapter per thing it does. A provider's folder
 * exports one `ProviderConfig` (`src/providers/<id>/index.ts`); `registry.ts` lists them all.
 * Chat's adapter contract is in `chat/types.ts` (it is the largest).
 */

export type { ChatAdapter } from './chat/types';

/** Where one provider call goes: the base URL with its version prefix, and the operator's key. */
export interface ProviderTarget {
  base: string;
  apiKey: string;
}

/** An image render's call: where, and within what time. */
export interface ImageCall extends ProviderTarget {
  /** When the whole render must have ended (ms since epoch). */
  deadline: number;
  /** The longest one upstream call may take. */
  timeoutMs: number;
  signal: AbortSignal;
}

export interface ImageAdapter {
  /** The rail sends the reference images' bytes (OpenAI edits), not their links (the provider fetches those). */
  readsReferenceBytes: boolean;
  /** The size the upstream renders for the asked `WIDTHxHEIGHT`; the asked size when absent. */
  size?(asked: string): string;
  /** Renders the plan: images (at most `plan.n` are kept) and the usage a token-billed upstream reports. Throws `GatewayError`. */
  render(plan: ImagePlan, references: ReferenceImage[], call: ImageCall): Promise<ImageRender>;
}

export interface VideoAdapter {
  /** The rail sends the first frame's bytes (OpenAI), not its link (fal, Replicate fetch it). */
  readsFrameBytes: boolean;
  /** Sends the render upstream; the handle is what later polls need, stored with the job as JSON. */
  submit(order: VideoOrder, firstFrame: ReferenceImage | undefined, target: ProviderTarget): Promise<StoredVideoHandle>;
  /** One poll of a stored handle. A handle this adapter cannot read is a `provider_error`. */
  poll(stored: StoredVideoHandle, target: ProviderTarget): Promise<VideoProgress>;
}

/**
 * A video adapter over its own typed handle `H`: `handle` is the schema of what its submit stores,
 * and a poll parses the stored JSON with it, so it sees exactly those fields, never a cast.
 */
export function defineVideoAdapter<H extends StoredVideoHandle>(spec: {
  readsFrameBytes: boolean;
  handle: z.ZodType<H>;
  submit(order: VideoOrder, firstFrame: ReferenceImage | undefined, target: ProviderTarget): Promise<H>;
  poll(handle: H, target: ProviderTarget): Promise<VideoProgress>;
}): VideoAdapter {
  return {
    readsFrameBytes: spec.readsFrameBytes,
    submit: (order, firstFrame, target) => spec.submit(order, firstFrame, target),
    poll: (stored, target) => {
      const parsed = spec.handle.safeParse(stored);
      if (!parsed.success) throw new GatewayError('provider_error', `The job's ${stored.provider} upstream handle could not be read.`);
      return spec.poll(parsed.data, target);
    },
  };
}

export interface SpeechAdapter {
  /** Characters one upstream request takes for this upstream model. */
  requestLimit(upstreamId: string): number;
  /** The call that renders one part as MP3. */
  request(part: { text: string; voice: string; upstreamId: string }, target: ProviderTarget): UpstreamCall;
}

/** One upstream call's worth of inputs: texts, or token arrays where the adapter takes them. */
export type EmbeddingInputs = { kind: 'text'; texts: string[] } | { kind: 'tokens'; arrays: number[][] };

/** A vector as the upstream sent it: floats, or OpenAI's base64 of little-endian float32s. */
export type Vector = number[] | string;

export interface EmbeddingsAdapter {
  /** What one upstream request takes (OpenAI: 2,048 inputs, 300,000 tokens); a larger batch is split. */
  limits: { maxInputs: number; maxTokens: number };
  /** Whether the upstream takes token arrays as input (OpenAI does; the others embed text only). */
  takesTokenArrays: boolean;
  /** The call for one part; `base64` asks the upstream for base64 where it has it (else it answers floats). */
  request(part: { inputs: EmbeddingInputs; upstreamId: string; dimensions?: number; base64: boolean }, target: ProviderTarget): UpstreamCall;
  /** The vectors in input order and the tokens the upstream reports (null: it reports none). Throws `GatewayError`. */
  parse(body: unknown, count: number): { vectors: Vector[]; promptTokens: number | null };
}

/** One transcription as a provider is asked for it (the file streams in the multipart body). */
export interface TranscriptionOrder {
  upstreamId: string;
  language?: string;
  prompt?: string;
  temperature?: number;
  format: TranscriptFormat;
}

/** The tokens a transcript was billed, as an upstream that bills tokens reports them. */
export interface TranscriptTokens {
  textInput: number;
  audioInput: number;
  output: number;
}

/**
 * A transcript as the gateway answers it: JSON (`json`, `verbose_json`) or plain text (`text`),
 * and the tokens the upstream reported billing, where it bills tokens.
 */
export type TranscriptAnswer = ({ json: Record<string, unknown> } | { text: string }) & { tokens?: TranscriptTokens };

export interface TranscriptionAdapter {
  /** Whether the upstream takes a `prompt` (else a prompt is a 400 naming it). */
  takesPrompt: boolean;
  /**
   * The call's URL and headers, the multipart text fields and the name of the file's field; the
   * product writes the body around the streamed file.
   */
  request(order: TranscriptionOrder, target: ProviderTarget): { url: string; headers: Record<string, string>; fields: [string, string][]; fileField: string };
  /** The upstream's successful answer in the asked format; throws `GatewayError` for one it cannot read. */
  answer(response: Response, order: TranscriptionOrder): Promise<TranscriptAnswer>;
}

/** One provider: its endpoint, and the adapters of what it serves (absent: it does not serve that). */
interface ProviderBase {
  name: string;
  /** The public endpoint as the provider's own SDK writes it, version prefix included. */
  defaultBaseUrl: string;
  /**
   * The path prefix all of the provider's endpoints share. `<P>_BASE_URL` is accepted with or
   * without it (`https://api.openai.com/v1` as the `openai` SDK writes it, or
   * `https://api.openai.com`); adapters append their endpoint to the base with the prefix.
   */
  versionPrefix: string;
  /** A chat upstream inside the Worker (the demo model): the built request is answered by this, never fetched. */
  answer?: (request: UpstreamRequest) => Response;
  images?: ImageAdapter;
  videos?: VideoAdapter;
  speech?: SpeechAdapter;
  embeddings?: EmbeddingsAdapter;
  transcription?: TranscriptionAdapter;
}

/**
 * A chat provider also names its parameter group (spec "Provider parameter support"), read from
 * its API reference; a catalog route may override it:
 * - 1: OpenAI-shaped, everything applied (`n`, logprobs, `logit_bias`, `seed`, both penalties).
 * - 2: OpenAI-compatible without `n` above 1 and logprobs (their members are announced).
 * - 3: the upstream format is not chat-completions (Anthropic Messages, Gemini generateContent).
 */
interface ServesChat {
  chat: ChatAdapter;
  paramGroup: ParamGroup;
}

interface ServesNoChat {
  chat?: undefined;
  paramGroup?: undefined;
}

export type ProviderConfig = ProviderBase & (ServesChat | ServesNoChat);

/** What a provider may serve: one member of `ProviderConfig` per kind of catalog model. */
export type Capability = 'chat' | 'images' | 'videos' | 'speech' | 'embeddings' | 'transcription';
