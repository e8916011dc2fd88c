import 'reflect-metadata';
import { writeFile } from 'node:fs/promises';
import { openApiJson } from '../rest/openapi/document.js';

/** `npm run openapi:print`: rewrites the committed openapi.json from the routes' descriptions. */
await writeFile('openapi.json', openApiJson());
console.log('openapi.json written');
