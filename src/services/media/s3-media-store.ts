import { GetObjectCommand, HeadObjectCommand, NoSuchKey, NotFound, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { MediaConfig } from '../../config.js';
import type { MediaStore } from './media-store.js';
import { checkedKey } from './media-keys.js';

type S3Settings = Extract<MediaConfig['store'], { kind: 's3' }>;

/** Objects are kept under this prefix of the bucket, so the bucket can hold other things. */
const PREFIX = 'media/';

/**
 * Pictures in an S3-compatible bucket through AWS's own SDK. With an endpoint of its own (MinIO,
 * Ceph, R2, the stand-in under test/), paths name the bucket, as those services expect. Checksums
 * are sent only where the operation requires them: several S3-compatible services refuse the SDK's
 * newer default headers.
 */
export function s3MediaStore(settings: S3Settings): MediaStore {
  const client = new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint, forcePathStyle: true } : {}),
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
  });
  const Bucket = settings.bucket;
  const objectKey = (key: string) => PREFIX + checkedKey(key);
  return {
    async put(key, body, contentType) {
      await client.send(new PutObjectCommand({ Bucket, Key: objectKey(key), Body: body, ContentType: contentType, CacheControl: 'public, max-age=31536000, immutable' }));
    },
    async get(key) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) }));
        return answer.Body ? Buffer.from(await answer.Body.transformToByteArray()) : null;
      } catch (error) {
        if (error instanceof NoSuchKey) return null;
        throw error;
      }
    },
    async has(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }));
        return true;
      } catch (error) {
        if (error instanceof NotFound || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
        throw error;
      }
    },
  };
}
