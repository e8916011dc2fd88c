import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in S3 for the tests: it speaks the S3 REST API's object calls with path-style addresses
 * (`/<bucket>/<key>`): PutObject, GetObject, HeadObject and DeleteObject, and answers S3's XML errors
 * (`NoSuchKey`, `NoSuchBucket`, `SignatureDoesNotMatch`, `XAmzContentSHA256Mismatch`). Every request
 * must be signed with AWS Signature Version 4 (header form) by the one key it knows, as S3 checks it:
 * the canonical request over method, path, sorted query, the signed headers and the payload's
 * SHA-256, and a signing key derived from the secret, date, region and service. The server reaches
 * it only through the AWS SDK pointed at `endpoint`. Not covered: multipart uploads, listing,
 * presigned URLs, versioning, ACLs.
 */
export interface S3StandIn {
  endpoint: string;
  bucket: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** Objects by key, with the type they were stored with. */
  objects: Map<string, { body: Buffer; contentType: string | undefined; cacheControl: string | undefined }>;
  /** Requests refused for their signature. */
  refusedSignatures: number;
  close(): Promise<void>;
}

const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text).digest();
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

function xmlError(res: http.ServerResponse, status: number, code: string, message: string, method: string) {
  res.writeHead(status, { 'content-type': 'application/xml', 'x-amz-request-id': 'standin' });
  // A HEAD answer has no body: the SDK names the error from the status.
  res.end(method === 'HEAD' ? undefined : `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>standin</RequestId></Error>`);
}

/** Whether the request carries a valid SigV4 signature of `secret` for `region`/s3 over its headers and this body. */
function signatureHolds(req: http.IncomingMessage, body: Buffer, accessKeyId: string, secret: string, region: string): 'ok' | 'signature' | 'payload' {
  const auth = req.headers.authorization ?? '';
  const match = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(auth);
  if (!match || match[1] !== accessKeyId || match[3] !== region) return 'signature';
  const [, , day, , signedHeaders, signature] = match;
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
  if (!amzDate.startsWith(day) || !payloadHash) return 'signature';
  if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== sha256(body)) return 'payload';
  const [path, query = ''] = (req.url ?? '/').split('?');
  const canonicalQuery = query
    .split('&')
    .filter(Boolean)
    .map((pair) => (pair.includes('=') ? pair : `${pair}=`))
    .sort()
    .join('&');
  const names = signedHeaders.split(';');
  const canonicalHeaders = names.map((name) => `${name}:${String(req.headers[name] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const canonicalRequest = [req.method, path, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].join('\n');
  const scope = `${day}/${region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), 's3'), 'aws4_request');
  return hmac(key, stringToSign).toString('hex') === signature ? 'ok' : 'signature';
}

export async function startS3StandIn(bucket = 'mall-media', region = 'eu-central-1'): Promise<S3StandIn> {
  const credentials = { accessKeyId: 'AKIASTANDIN000000001', secretAccessKey: 'stand-in-secret-key-0123456789abcdefghij' };
  const objects: S3StandIn['objects'] = new Map();
  const standIn = { refusedSignatures: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const method = req.method ?? 'GET';
      const verdict = signatureHolds(req, body, credentials.accessKeyId, credentials.secretAccessKey, region);
      if (verdict !== 'ok') {
        standIn.refusedSignatures++;
        if (verdict === 'payload') return xmlError(res, 400, 'XAmzContentSHA256Mismatch', 'The provided x-amz-content-sha256 header does not match what was computed.', method);
        return xmlError(res, 403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.', method);
      }
      const path = decodeURIComponent((req.url ?? '/').split('?')[0]);
      const [, name, ...rest] = path.split('/');
      if (name !== bucket) return xmlError(res, 404, 'NoSuchBucket', 'The specified bucket does not exist', method);
      const key = rest.join('/');
      if (method === 'PUT') {
        objects.set(key, { body, contentType: req.headers['content-type'], cacheControl: req.headers['cache-control'] });
        res.writeHead(200, { etag: `"${createHash('md5').update(body).digest('hex')}"` });
        return res.end();
      }
      const object = objects.get(key);
      if (method === 'DELETE') {
        objects.delete(key);
        res.writeHead(204);
        return res.end();
      }
      if (!object) return xmlError(res, 404, 'NoSuchKey', 'The specified key does not exist.', method);
      res.writeHead(200, { 'content-type': object.contentType ?? 'binary/octet-stream', 'content-length': object.body.length, etag: `"${createHash('md5').update(object.body).digest('hex')}"` });
      res.end(method === 'HEAD' ? undefined : object.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    region,
    credentials,
    objects,
    get refusedSignatures() {
      return standIn.refusedSignatures;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
