// Worker entry of `phit validate`: lets the worker thread load TypeScript, then runs one figure id's checks.
import { register } from 'tsx/esm/api';

register();
const { runTask } = await import('./run.ts');
export default runTask;
