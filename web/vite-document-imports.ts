import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Plugin } from 'vite';

/**
 * Each `graphql(`...`)` call becomes the one document it names, written into the calling module: the
 * generated `graphql.ts` holds it as `HomePageDocument` or `ListingProductFragmentDoc`, a JSON literal
 * (the client preset's babel plugin rewrites calls the same way, to imports). Without it, every module
 * that calls `graphql()` imports the preset's map of all documents (`gql.ts`), so the app's entry
 * carried every page's documents and parsed them before the first paint. An import of `graphql.ts`
 * would not do either: the bundler keeps one module in one chunk, the entry's. Written into the page,
 * each page's chunk carries its own documents (a fragment spread by several pages is in each).
 *
 * Types are unchanged: `tsc` still reads the calls through the map; only the build rewrites them.
 */
export function documentImports(): Plugin {
  const documentsOf = new Map<string, Map<string, string>>();
  const generated = (file: string): Map<string, string> => {
    let documents = documentsOf.get(file);
    if (!documents) {
      documents = new Map([...readFileSync(file, 'utf8').matchAll(/^export const (\w+) = (\{.*\}) as unknown as DocumentNode<.*;$/gm)].map((m) => [m[1], m[2]]));
      documentsOf.set(file, documents);
    }
    return documents;
  };
  return {
    name: 'mallfront-document-imports',
    enforce: 'pre',
    buildStart() {
      documentsOf.clear();
    },
    transform(code, id) {
      if (!/\/web\/src\/.*\.tsx?$/.test(id) || id.includes('/gql/') || !code.includes('graphql(`')) return null;
      const imported = /^import \{ graphql \} from '([^']+)';\n/m.exec(code);
      if (!imported) throw new Error(`${id}: graphql() is called but not imported from a generated gql folder`);
      const file = resolve(dirname(id), `${imported[1]}/graphql.ts`);
      let out = code.replace(/graphql\(`([^`]*)`\)/g, (_call, text: string) => {
        const first = /\b(query|mutation|subscription|fragment)\s+(\w+)/.exec(text);
        if (!first) throw new Error(`${id}: a graphql() document without a named operation or fragment`);
        const name = first[1] === 'fragment' ? `${first[2]}FragmentDoc` : `${first[2]}Document`;
        const document = generated(file).get(name);
        if (!document) throw new Error(`${id}: ${file} has no ${name} (run npm run codegen:web)`);
        // JSON.parse of a string: V8 reads JSON faster than the same object as a JavaScript literal.
        return `JSON.parse(${JSON.stringify(document)})`;
      });
      if (/\bgraphql\(/.test(out)) throw new Error(`${id}: a graphql() call the build cannot rewrite (only template literals without interpolation)`);
      out = out.replace(imported[0], '');
      return { code: out, map: null };
    },
  };
}
