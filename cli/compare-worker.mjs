// Worker entry of `phit compare` and `phit sweep`: lets the worker thread load TypeScript, then runs one task.
import { register } from 'tsx/esm/api';

register();
const { default: run } = await import('./compare-worker.ts');
export default run;
