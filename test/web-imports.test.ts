import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The web app reaches into the server's code for one thing only: the input schemas its console forms
 * check fields with (the .inputs.ts files, which import nothing but zod and src/shared/input-rules.ts,
 * as the layer rule `inputs-for-the-web` holds). Any other import of src/ would put server code in
 * the browser's bundle, so it is refused here.
 */
const root = resolve(import.meta.dirname, '..');
const webSrc = join(root, 'web', 'src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'gql' ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('the web app', () => {
  it("imports of the server's code are input schemas only", () => {
    const reaches: string[] = [];
    for (const file of sources(webSrc)) {
      // Static imports and the dynamic ones a form loads its schema with.
      for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/(?:from |import\()'(\.[^']+)'/g)) {
        const target = relative(root, resolve(dirname(file), specifier));
        if (target.startsWith('src/')) reaches.push(`${relative(root, file)} -> ${target}`);
      }
    }
    expect(reaches.length).toBeGreaterThan(0);
    expect(reaches.filter((r) => !/-> src\/services\/[\w-]+\/[\w-]+\.inputs$/.test(r))).toEqual([]);
  });
});
