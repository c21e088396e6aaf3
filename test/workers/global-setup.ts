import type { TestProject } from 'vitest/node';
import { startOpenAIImagesUpstream, type ImagesUpstream } from '../upstreams/openai-images';
import { startOpenAIVideosUpstream, type OpenAIVideosUpstream } from '../upstreams/openai-videos';
import { startAnthropicUpstream } from '../upstreams/anthropic';
import { startChain, type Chain } from '../upstreams/anvil';
import { startGeminiEmbeddingsUpstream, startOpenAIEmbeddingsUpstream } from '../upstreams/embeddings';
import { startFalUpstream } from '../upstreams/fal';
import { startGeminiUpstream } from '../upstreams/gemini';
import { OLLAMA_MODELS, startLocalOpenAIUpstream, VLLM_MODELS } from '../upstreams/local-openai';
import { startOpenAIUpstream } from '../upstreams/openai';
import { startReplicateUpstream } from '../upstreams/replicate';
import type { Upstream } from '../upstreams/server';
import { startTranscriptionUpstream, type TranscriptionUpstream } from '../upstreams/transcription';
import { startWebsite } from '../upstreams/website';

declare module 'vitest' {
  export interface ProvidedContext {
    /** OpenAI's Images API played on 127.0.0.1, for tests that run a media job inside workerd. */
    imagesUpstreamUrl: string;
    /** OpenAI's Videos API played on 127.0.0.1, for the video job tests. */
    videosUpstreamUrl: string;
    /** Replicate's predictions API played on 127.0.0.1 (key `REPLICATE_UPSTREAM_KEY`; GET /__recorded lists what it received). */
    replicateUpstreamUrl: string;
    /** fal's queue API played on 127.0.0.1 (key `FAL_UPSTREAM_KEY`; `GET /__requests/{id}` shows what a request sent). */
    falUpstreamUrl: string;
    /** An OpenAI chat-completions upstream on 127.0.0.1 (GET /__recorded lists what it received). */
    chatUpstreamUrl: string;
    /** Cerebras's chat completions played on 127.0.0.1 (key `CEREBRAS_UPSTREAM_KEY`; GET /__recorded lists what it received). */
    cerebrasUpstreamUrl: string;
    /** Anthropic's Messages API played on 127.0.0.1 (any x-api-key). */
    anthropicUpstreamUrl: string;
    /** The Gemini API played on 127.0.0.1 (key `GEMINI_SIMULATOR_API_KEY`). */
    geminiUpstreamUrl: string;
    /** DeepSeek's chat completions played on 127.0.0.1 (`/chat/completions`, cache hits and misses in its own fields). */
    deepseekUpstreamUrl: string;
    /** A local EVM node with a 6-decimal token as USDC, for the watcher tests: its RPC, the token, a funded payer. */
    chain: { rpcUrl: string; token: string; payer: string; depositAddress: string };
    /** The embeddings APIs played on 127.0.0.1, one server each (keys `EMBEDDINGS_KEYS`; GET /__recorded lists what each received). */
    embeddingsUpstreams: { openai: string; mistral: string; together: string; gemini: string };
    /** OpenAI's, Groq's and ElevenLabs' speech-to-text played on 127.0.0.1 (keys `TRANSCRIPTION_KEYS`; GET /__recorded lists what each request carried). */
    transcriptionUpstreamUrl: string;
    /** Local OpenAI-compatible servers (`test/upstreams/local-openai.ts`): Ollama's shape (no key) and vLLM's (key `LOCAL_VLLM_KEY`). */
    localOpenAIUpstreams: { ollama: string; vllm: string };
    /** The test website (`test/upstreams/website.ts`) on 127.0.0.1, for scrapes, crawls and extracts inside workerd. */
    websiteUrl: string;
  }
}

export const IMAGES_UPSTREAM_KEY = 'sk-images-workers';
export const VIDEOS_UPSTREAM_KEY = 'sk-videos-workers';
export const REPLICATE_UPSTREAM_KEY = 'r8_workers';
export const FAL_UPSTREAM_KEY = 'fal-workers';
export const CEREBRAS_UPSTREAM_KEY = 'csk-workers';
/** The key each embeddings simulator takes. */
export const EMBEDDINGS_KEYS = { openai: 'sk-embed-workers', mistral: 'mistral-embed-workers', together: 'together-embed-workers', gemini: 'gemini-embed-workers' } as const;
export const LOCAL_VLLM_KEY = 'vllm-workers';
export const TRANSCRIPTION_KEYS = { openai: 'sk-transcribe-workers', groq: 'gsk-transcribe-workers', elevenlabs: 'xi-transcribe-workers' };
/** What Cerebras answers 400 to (https://inference-docs.cerebras.ai/resources/openai). */
const CEREBRAS_REJECTS = ['frequency_penalty', 'presence_penalty', 'logit_bias', 'parallel_tool_calls', 'service_tier'];

let upstream: ImagesUpstream | undefined;
let videos: OpenAIVideosUpstream | undefined;
let chain: Chain | undefined;
let chat: Upstream | undefined;
let website: Upstream | undefined;
let replicate: Upstream | undefined;
let fal: Upstream | undefined;
let cerebras: Upstream | undefined;
let anthropic: Upstream | undefined;
let gemini: Upstream | undefined;
let deepseek: Upstream | undefined;
let embeddingUpstreams: Upstream[] = [];
let transcription: TranscriptionUpstream | undefined;
let localUpstreams: Upstream[] = [];

export async function setup(project: TestProject) {
  [upstream, videos, chain, chat, website, replicate, fal, cerebras, anthropic, gemini, deepseek, transcription] = await Promise.all([
    startOpenAIImagesUpstream(IMAGES_UPSTREAM_KEY),
    startOpenAIVideosUpstream(VIDEOS_UPSTREAM_KEY),
    startChain(),
    startOpenAIUpstream(),
    startWebsite(),
    startReplicateUpstream(REPLICATE_UPSTREAM_KEY),
    startFalUpstream(FAL_UPSTREAM_KEY),
    startOpenAIUpstream({ name: 'cerebras', supportsN: false, apiKey: CEREBRAS_UPSTREAM_KEY, usageOnFinishChunk: true, rejects: CEREBRAS_REJECTS }),
    startAnthropicUpstream(),
    startGeminiUpstream(),
    startOpenAIUpstream({ name: 'deepseek', path: '/chat/completions' }),
    startTranscriptionUpstream(TRANSCRIPTION_KEYS),
  ]);
  const [openaiEmbed, mistralEmbed, togetherEmbed, geminiEmbed] = (embeddingUpstreams = await Promise.all([
    startOpenAIEmbeddingsUpstream({ name: 'openai', apiKey: EMBEDDINGS_KEYS.openai, models: { 'text-embedding-3-small': 1536, 'text-embedding-3-large': 3072 } }),
    startOpenAIEmbeddingsUpstream({ name: 'mistral', apiKey: EMBEDDINGS_KEYS.mistral, models: { 'mistral-embed': 1024 } }),
    startOpenAIEmbeddingsUpstream({ name: 'together', apiKey: EMBEDDINGS_KEYS.together, models: { 'intfloat/multilingual-e5-large-instruct': 1024 } }),
    startGeminiEmbeddingsUpstream(EMBEDDINGS_KEYS.gemini),
  ]));
  project.provide('embeddingsUpstreams', { openai: openaiEmbed!.url, mistral: mistralEmbed!.url, together: togetherEmbed!.url, gemini: geminiEmbed!.url });
  const [ollama, vllm] = (localUpstreams = await Promise.all([
    startLocalOpenAIUpstream({ flavor: 'ollama', models: OLLAMA_MODELS }),
    startLocalOpenAIUpstream({ flavor: 'vllm', models: VLLM_MODELS, apiKey: LOCAL_VLLM_KEY }),
  ]));
  project.provide('localOpenAIUpstreams', { ollama: ollama!.url, vllm: vllm!.url });
  project.provide('transcriptionUpstreamUrl', transcription.url);
  project.provide('anthropicUpstreamUrl', anthropic.url);
  project.provide('geminiUpstreamUrl', gemini.url);
  project.provide('deepseekUpstreamUrl', deepseek.url);
  project.provide('replicateUpstreamUrl', replicate.url);
  project.provide('falUpstreamUrl', fal.url);
  project.provide('websiteUrl', website.url);
  project.provide('chatUpstreamUrl', chat.url);
  project.provide('cerebrasUpstreamUrl', cerebras.url);
  await chain.mint(chain.payer, 1_000_000_000_000n);
  // Past anvil's `finalized` (head - 64): rows other files make at low block numbers are settled, never re-checked by a watcher pass.
  await chain.mine(70);
  project.provide('imagesUpstreamUrl', upstream.url);
  project.provide('videosUpstreamUrl', videos.url);
  project.provide('chain', { rpcUrl: chain.rpcUrl, token: chain.token, payer: chain.payer, depositAddress: chain.accounts[9]! });
}

export async function teardown() {
  await upstream?.stop();
  await videos?.stop();
  await chain?.stop();
  await chat?.stop();
  await website?.stop();
  await replicate?.stop();
  await fal?.stop();
  await cerebras?.stop();
  await anthropic?.stop();
  await gemini?.stop();
  await deepseek?.stop();
  await Promise.all(embeddingUpstreams.map((server) => server.stop()));
  await transcription?.stop();
  await Promise.all(localUpstreams.map((server) => server.stop()));
}
