import type { TestProject } from 'vitest/node';
import { startOpenAIImagesUpstream, type ImagesUpstream } from '../upstreams/openai-images';
import { startOpenAIVideosUpstream, type OpenAIVideosUpstream } from '../upstreams/openai-videos';

declare module 'vitest' {
  export interface ProvidedContext {
    /** OpenAI's Images API played on 127.0.0.1, for tests that run a media job inside workerd. */
    imagesUpstreamUrl: string;
    /** OpenAI's Videos API played on 127.0.0.1, for the video job tests. */
    videosUpstreamUrl: string;
  }
}

export const IMAGES_UPSTREAM_KEY = 'sk-images-workers';
export const VIDEOS_UPSTREAM_KEY = 'sk-videos-workers';

let upstream: ImagesUpstream | undefined;
let videos: OpenAIVideosUpstream | undefined;

export async function setup(project: TestProject) {
  [upstream, videos] = await Promise.all([startOpenAIImagesUpstream(IMAGES_UPSTREAM_KEY), startOpenAIVideosUpstream(VIDEOS_UPSTREAM_KEY)]);
  project.provide('imagesUpstreamUrl', upstream.url);
  project.provide('videosUpstreamUrl', videos.url);
}

export async function teardown() {
  await upstream?.stop();
  await videos?.stop();
}
