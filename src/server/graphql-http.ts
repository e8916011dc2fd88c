import type { Request, Response } from 'express';
import { HeaderMap, type ApolloServer, type BaseContext, type ContextFunction } from '@apollo/server';

/**
 * Apollo's Express integration (`expressMiddleware` of `@as-integrations/express5`, no longer a dependency), less its
 * per-request `url.parse` of the whole URL (the legacy parser, a visible share of a listing
 * operation's CPU: docs/performance.md) where Apollo only reads the query string, which GET
 * operations carry. Everything else is the integration's: the headers as Apollo's HeaderMap, the
 * parsed JSON body, the answer's status and headers, chunked answers (incremental delivery) written
 * as they come.
 */
export function graphqlHttp<Context extends BaseContext>(
  server: ApolloServer<Context>,
  context: ContextFunction<[{ req: Request; res: Response }], Context>,
): (req: Request, res: Response) => Promise<void> {
  server.assertStarted('graphqlHttp()');
  return async (req, res) => {
    if (!('body' in req)) {
      res.status(500).send('`req.body` is not set: the JSON body parser must run before the GraphQL door');
      return;
    }
    const headers = new HeaderMap();
    for (const [key, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
    }
    const question = req.url.indexOf('?');
    const answer = await server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: req.method.toUpperCase(), headers, search: question === -1 ? '' : req.url.slice(question), body: req.body },
      context: () => context({ req, res }),
    });
    for (const [key, value] of answer.headers) res.setHeader(key, value);
    res.statusCode = answer.status ?? 200;
    if (answer.body.kind === 'complete') {
      res.send(answer.body.string);
      return;
    }
    for await (const chunk of answer.body.asyncIterator) {
      res.write(chunk);
      const flushing = res as Response & { flush?: () => void };
      if (typeof flushing.flush === 'function') flushing.flush();
    }
    res.end();
  };
}
