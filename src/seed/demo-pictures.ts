import sharp from 'sharp';
import { demoImageSvg, type DemoImageKind } from '../services/media/demo-drawings.js';
import { DEFAULT_WIDTH, thumbnailPath } from '../services/media/media-keys.js';
import type { MediaStore } from '../services/media/media-store.js';
import { keepPicture, type KeptPicture } from '../services/media/thumbnails.js';

/** A demo picture as a shop would upload it: its file's name and what the pipeline kept. */
export interface DemoPicture extends KeptPicture {
  filename: string;
  /** What an image field holds: the picture's default thumbnail. */
  url: string;
}

/**
 * The demo's pictures through the upload pipeline (src/services/media): each drawing
 * (src/services/media/demo-drawings.ts) is turned into the PNG a shop would send, then read, thumbnailed and
 * kept in the media store exactly as an upload is. Done before the seed's transaction, all at once
 * (sharp works on its own threads); a second seed into the same store finds the thumbnails there.
 */
export async function demoPictures(store: MediaStore, kind: DemoImageKind, names: string[]): Promise<Map<string, DemoPicture>> {
  const kept = await Promise.all(
    names.map(async (name) => {
      const png = await sharp(Buffer.from(demoImageSvg(kind, name))).png({ compressionLevel: 1 }).toBuffer();
      const picture = await keepPicture(store, png);
      return [name, { ...picture, filename: `${kind}-${name}.png`, url: thumbnailPath(picture.digest, DEFAULT_WIDTH) }] as const;
    }),
  );
  return new Map(kept);
}
