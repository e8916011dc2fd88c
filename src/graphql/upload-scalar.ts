import { GraphQLError, GraphQLScalarType } from 'graphql';

/**
 * A file sent with a GraphQL operation as the GraphQL multipart request specification says
 * (https://github.com/jaydenseric/graphql-multipart-request-spec): the door reads the parts
 * (src/server/graphql-uploads.ts) and puts one of these where the operation's `map` points.
 */
export class UploadedFile {
  constructor(readonly filename: string, readonly mimeType: string, readonly bytes: Buffer) {}
}

/**
 * `Upload`: only a file part of a multipart request fills it. A value written in the operation or
 * sent as JSON is not a file, and is refused before any resolver runs.
 */
export const UploadScalar = new GraphQLScalarType<UploadedFile, never>({
  name: 'Upload',
  description: 'A file, sent as a part of a multipart/form-data request (the GraphQL multipart request specification); never written inline',
  serialize() {
    throw new GraphQLError('Upload is an input only');
  },
  parseValue(value) {
    if (value instanceof UploadedFile) return value;
    throw new GraphQLError('Upload must be a file part of a multipart/form-data request (the GraphQL multipart request specification)');
  },
  parseLiteral(ast) {
    throw new GraphQLError('Upload cannot be written inline: send the file as a part of a multipart/form-data request', { nodes: ast });
  },
  specifiedByURL: 'https://github.com/jaydenseric/graphql-multipart-request-spec',
});
