import { MediaAssetView, ThumbnailView } from '../../services/media/media-view.js';
import { named, page } from './common.js';

export const MediaThumbnail = named('MediaThumbnail', ThumbnailView);
export const MediaAsset = named('MediaAsset', MediaAssetView);
export const MediaAssetPage = named('MediaAssetPage', page(MediaAsset));
