import { readFile } from 'node:fs/promises';
import { schemaSDL } from '../src/graphql/schema.js';

describe('committed GraphQL schema', () => {
  it('equals the schema the code builds (run `npm run schema:print` after changing resolvers)', async () => {
    const committed = await readFile(new URL('../schema.graphql', import.meta.url), 'utf8');
    expect(committed).toBe(await schemaSDL());
  });
});
