import type { TestProject } from 'vitest/node';
import { startOpenAIImagesUpstream, type ImagesUpstream } from '../upstreams/openai-images';

declare module 'vitest' {
  export interface ProvidedContext {
    /** OpenAI's Images API played on 127.0.0.1, for tests that run a media job inside workerd. */
    imagesUpstreamUrl: string;
  }
}

export const IMAGES_UPSTREAM_KEY = 'sk-images-workers';

let upstream: ImagesUpstream | undefined;

export async function setup(project: TestProject) {
  upstream = await startOpenAIImagesUpstream(IMAGES_UPSTREAM_KEY);
  project.provide('imagesUpstreamUrl', upstream.url);
}

export async function teardown() {
  await upstream?.stop();
}
