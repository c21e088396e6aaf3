import type { ProviderConfig } from '../adapters';
import { replicateImages } from './images';
import { replicateVideos } from './videos';

/** Replicate: images, videos. */
export const replicate: ProviderConfig = {
  name: 'Replicate',
  defaultBaseUrl: 'https://api.replicate.com/v1',
  versionPrefix: '/v1',
  images: replicateImages,
  videos: replicateVideos,
};
