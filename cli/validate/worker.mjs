// Worker entry of `phit validate`: loads the checks' TypeScript (see ../load.mjs), then runs one figure id's checks.
import { URL } from 'node:url';
import { load } from '../load.mjs';

const { runTask } = await load(new URL('./run.ts', import.meta.url));
export default runTask;
