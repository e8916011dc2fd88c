/**
 * GraphiQL, served by the API server at `GET /graphql` to a browser (src/server/graphiql.ts): a page
 * of its own, bundled from npm with no CDN, so it works offline and stays out of the storefront's
 * bundle. Queries go to `/graphql` over HTTP and subscriptions over the graphql-ws websocket on the
 * same path; the headers editor's headers (`Authorization: Bearer ...`) go with both.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { GraphiQL } from 'graphiql';
import { createGraphiQLFetcher, type Fetcher } from '@graphiql/toolkit';
import { parse, type DocumentNode } from 'graphql';
// Monaco's editor, JSON and GraphQL language workers, built by Vite as files of our own origin.
import 'graphiql/setup-workers/vite';
import 'graphiql/style.css';
import './graphiql.css';

const url = new URL('/graphql', window.location.href);
const subscriptionUrl = new URL(url);
subscriptionUrl.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';

const toolkitFetcher = createGraphiQLFetcher({ url: url.href, subscriptionUrl: subscriptionUrl.href });

/** The query's syntax tree, or undefined while it does not parse (the server then says why). */
function parsed(query: string): DocumentNode | undefined {
  try {
    return parse(query);
  } catch {
    return undefined;
  }
}

// The toolkit sends an operation over the websocket only when the parsed document it is handed is a
// subscription, and GraphiQL 5 may hand it the tree of the editor's previous text (its editor parses
// in a worker, later): a subscription typed just before Run then went over HTTP and was refused.
// The query text sent is the truth, so the tree is made from it.
const fetcher: Fetcher = (params, options) =>
  toolkitFetcher(params, { ...options, documentAST: parsed(params.query) ?? options?.documentAST });

const DEFAULT_QUERY = `# Mallfront GraphQL. Sign in with the login mutation, then put the token in the
# Headers tab below as {"Authorization": "Bearer <token>"}; subscriptions need it too.
{
  currency { code }
}
`;

const root = document.getElementById('graphiql');
if (!root) throw new Error('graphiql.html has no #graphiql');
createRoot(root).render(
  <StrictMode>
    <GraphiQL fetcher={fetcher} defaultQuery={DEFAULT_QUERY} isHeadersEditorEnabled shouldPersistHeaders={false} />
  </StrictMode>,
);
