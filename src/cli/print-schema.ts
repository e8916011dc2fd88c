import { writeFile } from 'node:fs/promises';
import { schemaSDL } from '../graphql/schema.js';

/** `npm run schema:print`: rewrites the committed schema.graphql from the code. */
await writeFile('schema.graphql', await schemaSDL());
console.log('schema.graphql written');
