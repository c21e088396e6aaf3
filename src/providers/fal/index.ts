import type { ProviderConfig } from '../adapters';
import { falImages } from './images';
import { falVideos } from './videos';

/** fal.ai: images, videos. */
export const fal: ProviderConfig = {
  name: 'fal.ai',
  defaultBaseUrl: 'https://queue.fal.run',
  versionPrefix: '',
  images: falImages,
  videos: falVideos,
};
