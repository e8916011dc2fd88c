import { readFile } from 'node:fs/promises';
import { ADMIN_EMAIL, CUSTOMERS, DEMO_PASSWORD, SHOPS } from '../src/seed/demo-data.js';

/**
 * The README is what a newcomer trusts first: short, and true where it names things the code
 * decides (configuration variables, demo accounts, npm scripts).
 */
const read = (path: string) => readFile(new URL(path, import.meta.url), 'utf8');

describe('README', () => {
  // The configuration table is a lookup that must list every setting (next test), so it grows with
  // them; commands and diagrams (fenced blocks) are copied or looked at, not read through: what a
  // newcomer reads is the prose, and the whole file stays bounded too.
  it('reads in five minutes: under 160 lines of prose, and under 300 lines besides the configuration table', async () => {
    const lines = (await read('../README.md')).split('\n');
    const settingRows = lines.filter((line) => /^\| `[A-Z][A-Z0-9_]+` \|/.test(line));
    let fenced = false;
    const prose = lines.filter((line) => {
      if (line.startsWith('```')) fenced = !fenced;
      return !fenced && !line.startsWith('```') && !settingRows.includes(line);
    });
    expect(prose.length).toBeLessThan(160);
    expect(lines.length - settingRows.length).toBeLessThan(300);
  });

  it('lists exactly the environment variables src/config.ts reads', async () => {
    const config = await read('../src/config.ts');
    const fromConfig = [...config.matchAll(/\benv(?:\.|\[')([A-Z][A-Z0-9_]+)|\(env, '([A-Z][A-Z0-9_]+)'/g)].map((m) => m[1] ?? m[2]);
    const readme = await read('../README.md');
    const documented = [...readme.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1]);
    expect([...new Set(documented)].sort()).toEqual([...new Set(fromConfig)].sort());
  });

  it('names the demo accounts the seed creates, with their password', async () => {
    const readme = await read('../README.md');
    expect(readme).toContain(`\`${DEMO_PASSWORD}\``);
    for (const email of [ADMIN_EMAIL, ...CUSTOMERS.map((c) => c.email)]) expect(readme).toContain(`\`${email}\``);
    expect(readme).toContain('`ops@<shop>.mallfront.test`');
    for (const shop of SHOPS) expect(readme).toContain(`\`${shop.slug}\``);
  });

  it('runs only npm scripts that exist', async () => {
    const { scripts } = JSON.parse(await read('../package.json')) as { scripts: Record<string, string> };
    const readme = await read('../README.md');
    const used = [...readme.matchAll(/npm (?:run )?([a-z][\w:-]*)/g)].map((m) => m[1]).filter((s) => s !== 'ci' && s !== 'package');
    expect(used.length).toBeGreaterThan(5);
    for (const script of used) expect(Object.keys(scripts)).toContain(script);
  });
});
