// Worker entry of the per-preset benchmark: lets the worker thread load TypeScript, then runs it.
import { register } from 'tsx/esm/api';

register();
const { default: run } = await import('./preset-worker.ts');
export default run;
