import { readFile } from 'node:fs/promises';
import { ConfigError, loadConfig } from '../src/config.js';
import { SETTINGS, type Setting } from '../src/settings.js';
import { configurationDocument } from '../src/cli/configuration-document.js';

/**
 * The settings are described once (src/settings.ts): the committed docs/configuration.md is printed
 * from the declarations, config.ts reads every declared name (the compiler refuses an undeclared
 * one), and a whole-number setting's bounds and default are the ones enforced at start.
 */
const read = (path: string) => readFile(new URL(path, import.meta.url), 'utf8');
const entries = Object.entries(SETTINGS) as [string, Setting][];

it('docs/configuration.md is the one printed from the declarations (npm run print:configuration)', async () => {
  expect(await read('../docs/configuration.md')).toBe(configurationDocument());
});

it('config.ts reads every declared setting', async () => {
  const config = await read('../src/config.ts');
  const read_ = new Set([...config.matchAll(/\benv(?:\.|\[')([A-Z][A-Z0-9_]+)|\(env, '([A-Z][A-Z0-9_]+)'/g)].map((m) => m[1] ?? m[2]));
  expect(entries.map(([name]) => name).filter((name) => !read_.has(name))).toEqual([]);
});

it('starts with every declared default, and holds whole numbers to their declared bounds', () => {
  const config = loadConfig({});
  expect(config.port).toBe(SETTINGS.PORT.default);
  expect(config.webhooks.maxConcurrencyPerEndpoint).toBe(SETTINGS.WEBHOOK_MAX_CONCURRENCY.default);
  for (const [name, setting] of entries) {
    if (setting.kind !== 'integer') continue;
    if (typeof setting.default === 'number') expect([name, setting.default >= setting.min && setting.default <= setting.max]).toEqual([name, true]);
    if (setting.max < Number.MAX_SAFE_INTEGER) {
      // Settings checked against each other (DB_LOCK_TIMEOUT_MS below DB_STATEMENT_TIMEOUT_MS) get a companion that fits.
      const companions = name === 'DB_STATEMENT_TIMEOUT_MS' ? { DB_LOCK_TIMEOUT_MS: '1' } : {};
      expect(() => loadConfig({ ...companions, [name]: String(setting.max + 1) })).toThrow(new ConfigError(`${name} must be between ${setting.min} and ${setting.max}, got ${setting.max + 1}`));
      expect(() => loadConfig({ [name]: 'many' })).toThrow(new ConfigError(`${name} must be a whole number, got "many"`));
    }
  }
});

it('holds a choice to its declared words', () => {
  for (const [name, setting] of entries) {
    if (setting.kind !== 'choice') continue;
    expect(() => loadConfig({ [name]: 'other' })).toThrow(new ConfigError(`${name} must be one of ${setting.values.join(', ')}, got "other"`));
  }
});
