import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { graphqlSchema, schemaSDL } from '../resolvers/schema.js';
import { breakingChanges, CHANGES_FILE, changesEntry, SCHEMA_FILE } from './schema-compat.js';

/**
 * `npm run schema:print`: rewrites the committed schema.graphql from the code, unless the change
 * would break a client of the committed one: then it lists the breaks and writes nothing. Deprecate
 * first (`@deprecated`), or record an intended break, reviewed like code:
 * `npm run schema:print -- --accept-breaking "why"` appends it to docs/schema-changes.md.
 */
const flag = process.argv.indexOf('--accept-breaking');
const reason = flag >= 0 ? process.argv[flag + 1]?.trim() : undefined;
if (flag >= 0 && !reason) {
  console.error('--accept-breaking needs the reason: npm run schema:print -- --accept-breaking "why clients must change"');
  process.exit(2);
}

const committed = await readFile(SCHEMA_FILE, 'utf8').catch(() => null);
const breaks = committed === null ? [] : await breakingChanges(committed, await graphqlSchema());
if (breaks.length > 0 && !reason) {
  console.error(`${SCHEMA_FILE} NOT written: ${breaks.length} breaking change(s) for clients of the committed schema:`);
  for (const b of breaks) console.error(`  - ${b.message}`);
  console.error('Deprecate instead (@deprecated, remove in a later change), or record the break: npm run schema:print -- --accept-breaking "why"');
  process.exit(1);
}
if (breaks.length > 0 && reason) {
  await appendFile(CHANGES_FILE, changesEntry(new Date().toISOString().slice(0, 10), reason, breaks));
  console.log(`${breaks.length} breaking change(s) recorded in ${CHANGES_FILE}`);
}
await writeFile(SCHEMA_FILE, await schemaSDL());
console.log(`${SCHEMA_FILE} written`);
