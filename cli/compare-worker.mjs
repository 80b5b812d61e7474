// Worker entry of `phit compare` and `phit sweep`: loads the worker's TypeScript (see load.mjs), then runs one task.
import { URL } from 'node:url';
import { load } from './load.mjs';

const { default: run } = await load(new URL('./compare-worker.ts', import.meta.url));
export default run;
