import { writeFile } from 'node:fs/promises';
import { configurationDocument } from './configuration-document.js';

/** `npm run print:configuration`: rewrites the committed docs/configuration.md from src/settings.ts. */
await writeFile('docs/configuration.md', configurationDocument());
console.log('docs/configuration.md written');
