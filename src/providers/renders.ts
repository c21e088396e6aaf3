import type { ImageTokenUsage } from '../billing/image-cost';
import type { ImageModel, ImageQuality, ImageRoute, VideoModel, VideoResolution, VideoRoute } from '../catalog/types';
import type { AspectRatio, VideoInputs } from '../catalog/video-inputs';
import type { ProviderId } from './ids';

/**
 * What the media adapters are given and give back. The plans are made in `src/media/` from a
 * client's request and the catalog; a provider reads only these shapes, so no provider module
 * imports from `src/media/`.
 */

/** A reference image's bytes, for upstreams that take files (OpenAI edits, the Sora first frame). */
export interface ReferenceImage {
  bytes: Uint8Array;
  contentType: string;
}

/** What one image request renders: its model, route, upstream size and quality, references and price. */
export interface ImagePlan {
  model: ImageModel;
  route: ImageRoute;
  prompt: string;
  n: number;
  /** `WIDTHxHEIGHT` as the upstream takes it (the adapter's `size`, where it has one). */
  size: string;
  /** The tier the model renders and is priced at; undefined for a model without tiers. */
  quality: ImageQuality | undefined;
  references: string[];
  /** The request field the references came in, for errors about them. */
  referencesParam: 'image_url' | 'image_urls';
  /** Price of one image at `quality`, micro-dollars. */
  unitMicros: number;
}

/** One image as the upstream produced it: exactly these bytes are hosted. */
export interface RenderedImage {
  bytes: Uint8Array;
  contentType: string;
}

/** A finished render: its images, and the usage a token-billed upstream reports. */
export interface ImageRender {
  images: RenderedImage[];
  usage?: ImageTokenUsage;
}

/** Where a video request goes and its images under the endpoint's names (absent name: the rail's default). */
export interface VideoSend {
  upstreamId: string;
  first?: { url: string; field?: string };
  last?: { url: string; field: string };
  references?: { urls: string[]; field: string };
  /** A video and an audio input, under the endpoint's field names. */
  video?: { url: string; field: string };
  audio?: { url: string; field: string };
  /** Fields of the request the endpoint's schema does not have, so the rail does not send them. */
  omit?: ('prompt' | 'duration')[];
}

/** What a video adapter sends: the checked request, as planVideo resolved it. */
export interface VideoOrder {
  model: VideoModel;
  route: VideoRoute;
  request: { prompt: string; audio?: boolean; seed?: number };
  duration: number;
  resolution: VideoResolution;
  /** The ratio to send; undefined when the model takes none (it follows its input). */
  aspectRatio: AspectRatio | undefined;
  /** What the model's endpoint takes (the rail sends only these). */
  inputs: VideoInputs;
  /** The endpoint this request goes to and the image fields it gets. */
  endpoint: VideoSend;
}

/**
 * Where the upstream keeps a render, as a video job stores it (JSON): the provider that owns it,
 * its id, and whatever else that provider's adapter needs to poll it (each adapter reads its own
 * fields back with its own parse: `defineVideoAdapter`).
 */
export interface StoredVideoHandle {
  provider: ProviderId;
  id: string;
}

/** What a poll learns: still waiting, rendering, done (with the file to copy), or failed. */
export type VideoProgress =
  | { state: 'queued' }
  | { state: 'processing' }
  /** `seconds`: the output's length where the provider reports it (a video that follows its input's length is charged by it). */
  /** `download`'s `signal` aborts the fetch (the caller's bound on a provider that never answers). */
  | { state: 'completed'; download: (signal?: AbortSignal) => Promise<Response>; seconds?: number }
  | { state: 'failed'; error: string };
