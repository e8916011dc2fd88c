import { readFile } from 'node:fs/promises';
import { ADMIN_EMAIL, CUSTOMERS, DEMO_PASSWORD, SHOPS } from '../src/seed/demo-data.js';

/**
 * The README is what a newcomer trusts first: short, and true where it names things the code
 * decides (demo accounts, npm scripts).
 */
const read = (path: string) => readFile(new URL(path, import.meta.url), 'utf8');

describe('README', () => {
  // Issue 20's bound: a newcomer reads it in five minutes. The settings live in docs/configuration.md
  // (printed from src/settings.ts, test/configuration.test.ts), references in docs/.
  it('reads in five minutes: under 200 lines, under 160 of them prose', async () => {
    const lines = (await read('../README.md')).split('\n');
    let fenced = false;
    const prose = lines.filter((line) => {
      if (line.startsWith('```')) fenced = !fenced;
      return !fenced && !line.startsWith('```');
    });
    expect(prose.length).toBeLessThan(160);
    expect(lines.length).toBeLessThan(200);
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
