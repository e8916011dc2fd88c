import { Field, InputType, ObjectType } from 'type-graphql';
import { MediaAssetView, ThumbnailView } from '../../services/media/media-view.js';
import { uploadPlatformMediaRefusals, uploadShopMediaRefusals } from '../../services/media/media.service.js';
import { UploadScalar, type UploadedFile } from '../../graphql/upload-scalar.js';
import { objectType } from './object-type.js';
import { PageType } from './page.types.js';
import { PayloadType } from './payload.types.js';

// Made from the media service's view schemas (object-type.ts).
export const MediaThumbnail = objectType('MediaThumbnail', ThumbnailView);
export type MediaThumbnail = ThumbnailView;
export const MediaAsset = objectType('MediaAsset', MediaAssetView);
export type MediaAsset = MediaAssetView;

@ObjectType()
export class MediaAssetPage extends PageType(MediaAsset) {}

const FILE = 'JPEG, PNG, WebP, GIF (its first frame) or AVIF, up to MEDIA_MAX_BYTES, sent as a part of a multipart request (GraphQL multipart request specification); its format is read from its bytes';
const FILENAME = "The name to keep in the library (default: the file part's own name)";

@InputType({ description: "A picture for the acting shop's library" })
export class UploadShopMediaInput {
  @Field(() => UploadScalar, { description: FILE }) file!: UploadedFile;
  @Field({ nullable: true, description: FILENAME }) filename?: string;
}

@InputType({ description: "A picture for the platform's library" })
export class UploadPlatformMediaInput {
  @Field(() => UploadScalar, { description: FILE }) file!: UploadedFile;
  @Field({ nullable: true, description: FILENAME }) filename?: string;
}

export const UploadShopMediaPayload = PayloadType('UploadShopMedia', 'asset', () => MediaAsset, 'The picture with its thumbnails', uploadShopMediaRefusals);
export const UploadPlatformMediaPayload = PayloadType('UploadPlatformMedia', 'asset', () => MediaAsset, 'The picture with its thumbnails', uploadPlatformMediaRefusals);
