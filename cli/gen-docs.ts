/** `npm run docs`: writes docs/parameters.md from the parameter schema and the presets. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { parameterReference } from '../fabric/machines/reference.ts';

const target = new URL('../docs/parameters.md', import.meta.url);
mkdirSync(new URL('.', target), { recursive: true });
writeFileSync(target, parameterReference());
process.stdout.write(`wrote ${target.pathname.split('/').slice(-2).join('/')}\n`);
