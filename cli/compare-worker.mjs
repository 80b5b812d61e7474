// Worker entry of `phit compare`: lets the worker thread load TypeScript, then runs one machine.
import { register } from 'tsx/esm/api';

register();
const { default: run } = await import('./compare-worker.ts');
export default run;
