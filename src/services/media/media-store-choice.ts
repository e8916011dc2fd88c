import type { MediaConfig } from '../../config.js';
import { diskMediaStore, type MediaStore } from './media-store.js';
import { s3MediaStore } from './s3-media-store.js';

/** The store MEDIA_STORE names, made once at start-up (src/services/wiring.ts, the seed's commands). */
export function mediaStoreFor(config: MediaConfig['store']): MediaStore {
  return config.kind === 'disk' ? diskMediaStore(config.dir) : s3MediaStore(config);
}
