import type { TestProject } from 'vitest/node';
import { startOpenAIImagesUpstream, type ImagesUpstream } from '../upstreams/openai-images';
import { startChatUpstreams, type ChatUpstreams } from './chat-upstreams';

declare module 'vitest' {
  export interface ProvidedContext {
    /** OpenAI's Images API played on 127.0.0.1, for tests that run a media job inside workerd. */
    imagesUpstreamUrl: string;
    /** The chat simulators (OpenAI, Anthropic, Gemini) on 127.0.0.1, for whole chat requests. */
    chatUpstreams: ChatUpstreams;
  }
}

export const IMAGES_UPSTREAM_KEY = 'sk-images-workers';

let upstream: ImagesUpstream | undefined;
let stopChat: (() => Promise<void>) | undefined;

export async function setup(project: TestProject) {
  upstream = await startOpenAIImagesUpstream(IMAGES_UPSTREAM_KEY);
  project.provide('imagesUpstreamUrl', upstream.url);
  const chat = await startChatUpstreams();
  stopChat = chat.stop;
  project.provide('chatUpstreams', chat.upstreams);
}

export async function teardown() {
  await upstream?.stop();
  await stopChat?.();
}
