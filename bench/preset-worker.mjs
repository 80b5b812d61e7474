// Worker entry of the per-preset benchmark: loads its TypeScript as the CLI does (see cli/load.mjs), then runs it.
import { URL } from 'node:url';
import { load } from '../cli/load.mjs';

const { default: run } = await load(new URL('./preset-worker.ts', import.meta.url));
export default run;
