import busboy from 'busboy';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError } from '../errors.js';
import { UploadedFile } from '../graphql/upload-scalar.js';

/** Files one operation may carry: a console sends one picture at a time; a few leave room for a client that sends a product's pictures together. */
const MAX_FILES = 10;

/**
 * The GraphQL door's multipart requests (the GraphQL multipart request specification, as Saleor's
 * and Vendure's uploads): an `operations` part (the JSON body any other request sends), a `map`
 * part (which file goes where in its variables: `{"0": ["variables.file"]}`), then the files. The
 * files are read into memory up to MEDIA_MAX_BYTES each and put where `map` says, as `Upload`
 * values; the operation then runs as a JSON one would. Anything else passes untouched to the JSON
 * parser. Apollo's CSRF prevention still applies: a multipart request needs an
 * `Apollo-Require-Preflight` header, which no form of another site can send.
 */
export function graphqlUploads(limits: { fileBytes: number; jsonBytes: number }): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!req.headers['content-type']?.toLowerCase().startsWith('multipart/form-data')) return next();
    let parts: busboy.Busboy;
    try {
      parts = busboy({ headers: req.headers, limits: { fileSize: limits.fileBytes, files: MAX_FILES, fields: 2, fieldSize: limits.jsonBytes, parts: MAX_FILES + 2 } });
    } catch {
      return next(bad('The multipart body has no boundary'));
    }
    const fields = new Map<string, string>();
    const files = new Map<string, UploadedFile>();
    const reading: Promise<void>[] = [];
    let failure: AppError | undefined;
    const fail = (error: AppError) => {
      failure ??= error;
    };
    parts.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(new AppError('PAYLOAD_TOO_LARGE', 413, `The ${name} part is larger than ${limits.jsonBytes} bytes`, { limit_bytes: limits.jsonBytes }));
      else fields.set(name, value);
    });
    parts.on('file', (name, stream, info) => {
      if (!fields.has('operations') || !fields.has('map')) fail(bad('The operations and map parts come before the files'));
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(new AppError('PAYLOAD_TOO_LARGE', 413, `The file ${info.filename ?? name} is larger than ${limits.fileBytes} bytes`, { limit_bytes: limits.fileBytes })));
      reading.push(new Promise((done) => stream.on('close', () => {
        files.set(name, new UploadedFile(info.filename ?? name, info.mimeType, Buffer.concat(chunks)));
        done();
      })));
    });
    parts.on('filesLimit', () => fail(bad(`At most ${MAX_FILES} files go with one operation`)));
    parts.on('partsLimit', () => fail(bad(`At most ${MAX_FILES} files go with one operation`)));
    parts.on('fieldsLimit', () => fail(bad('Only the operations and map parts go beside the files')));
    parts.on('error', () => fail(new AppError('REQUEST_ABORTED', 400, 'The multipart body could not be read to its end')));
    parts.on('close', () => {
      void Promise.all(reading).then(() => {
        if (failure) return next(failure);
        try {
          req.body = operationsWithFiles(fields, files);
          next();
        } catch (error) {
          next(error);
        }
      });
    });
    req.pipe(parts);
  };
}

const bad = (message: string) => new AppError('BAD_REQUEST', 400, `${message} (GraphQL multipart request specification)`);

/** The operations part with each file put where the map part says; a file the map does not name, or a name it maps with no file, is refused. */
function operationsWithFiles(fields: Map<string, string>, files: Map<string, UploadedFile>): unknown {
  const operations = json(fields.get('operations'), 'operations');
  const map = json(fields.get('map'), 'map');
  if (typeof operations !== 'object' || operations === null) throw bad('The operations part must be a JSON object');
  if (typeof map !== 'object' || map === null || Array.isArray(map)) throw bad('The map part must be a JSON object of file names to lists of paths');
  for (const [name, paths] of Object.entries(map as Record<string, unknown>)) {
    const file = files.get(name);
    if (!file) throw bad(`The map names a file "${name}" that was not sent`);
    if (!Array.isArray(paths) || paths.length === 0 || !paths.every((p) => typeof p === 'string')) throw bad(`The map's "${name}" must be a list of paths such as "variables.file"`);
    for (const path of paths) place(operations as Record<string, unknown>, path, file);
  }
  for (const name of files.keys()) if (!(name in (map))) throw bad(`The file "${name}" is not in the map`);
  return operations;
}

function json(text: string | undefined, part: string): unknown {
  if (text === undefined) throw bad(`The ${part} part is missing`);
  try {
    return JSON.parse(text);
  } catch {
    throw bad(`The ${part} part is not JSON`);
  }
}

/** Puts `file` at a dotted path of the operations (`variables.input.file`, `0.variables.files.1`), which must lead to a null placeholder. */
function place(operations: Record<string, unknown>, path: string, file: UploadedFile): void {
  const keys = path.split('.');
  let holder: Record<string, unknown> = operations;
  for (const [i, key] of keys.entries()) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype' || !Object.hasOwn(holder, key)) throw bad(`The map's path "${path}" does not lead to a placeholder in the operations`);
    if (i === keys.length - 1) {
      if (holder[key] !== null) throw bad(`The map's path "${path}" must lead to a null placeholder`);
      holder[key] = file;
      return;
    }
    const next = holder[key];
    if (typeof next !== 'object' || next === null) throw bad(`The map's path "${path}" does not lead to a placeholder in the operations`);
    holder = next as Record<string, unknown>;
  }
}
