import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { AppError } from '../../errors.js';
import { checkedKey } from './media-keys.js';

/**
 * Where pictures are kept, by key (`<digest>/<width>.webp`): a directory of this host by default, an
 * S3-compatible bucket as the option (MEDIA_STORE). Keys name content, so a key's bytes never change:
 * a `put` of a key that exists writes the same bytes again, and two processes writing one key at
 * once cannot leave a mix.
 */
export interface MediaStore {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The object's bytes, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  has(key: string): Promise<boolean>;
}

/**
 * Files under `dir`, one directory per digest. A file is written beside its place and renamed into
 * it, so a reader (or a process killed mid-write) never sees half a picture.
 */
export function diskMediaStore(dir: string): MediaStore {
  const root = path.resolve(dir);
  const file = (key: string) => path.join(root, checkedKey(key));
  return {
    async put(key, body) {
      const target = file(key);
      await mkdir(path.dirname(target), { recursive: true });
      const partial = `${target}.${randomUUID()}.part`;
      await writeFile(partial, body);
      await rename(partial, target);
    },
    async get(key) {
      try {
        return await readFile(file(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async has(key) {
      try {
        return (await stat(file(key))).isFile();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw error;
      }
    },
  };
}

/** A store that failed (a bucket not answering, a full disk) as the caller hears it: a 503 to try again, its cause kept for the log. */
export function storeUnreachable(error: unknown): AppError {
  const refusal = new AppError('SERVICE_UNAVAILABLE', 503, 'The picture store is not reachable; try again', { retry_after_seconds: 5 });
  refusal.cause = error;
  return refusal;
}
