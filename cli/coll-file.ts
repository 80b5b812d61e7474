/** `--coll collective=./my-algorithm.ts`: collective algorithms from users' files. */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { loadErrorLine } from './compile-error.ts';
import { shareApi } from './share-api.ts';
import { ALGORITHMS, checkAlgorithms, type AlgorithmChoice, type Collective } from '../runtime/mpi/coll/index.ts';
import { userAlgorithm } from '../runtime/mpi/coll/schedule.ts';

/** Whether an algorithm choice names a file (a path, or a script's extension) rather than a built-in algorithm. */
export function isAlgorithmFile(value: string): boolean {
  return /\.(m?[jt]s)$/.test(value) || value.includes('/');
}

/**
 * A run's algorithm choices (`{allreduce: 'ring', bcast: './my-bcast.ts'}`) with every file
 * loaded as a user's algorithm (see userAlgorithm); throws RangeError naming the bad choice.
 */
export async function loadAlgorithms(choices: Readonly<Record<string, string>>): Promise<Record<string, AlgorithmChoice>> {
  const out: Record<string, AlgorithmChoice> = {};
  for (const [coll, value] of Object.entries(choices)) {
    if (!isAlgorithmFile(value)) {
      out[coll] = value;
      continue;
    }
    if (!Object.hasOwn(ALGORITHMS, coll)) throw new RangeError(`unknown collective '${coll}'; valid: ${Object.keys(ALGORITHMS).join(', ')}`);
    const abs = resolve(value);
    if (!existsSync(abs) || !statSync(abs).isFile()) throw new RangeError(`${coll}=${value}: no such file`);
    type Module = { default?: unknown };
    shareApi();
    let mod: Module;
    try {
      mod = (await tsImport(pathToFileURL(abs).href, import.meta.url)) as Module;
    } catch (e) {
      throw new RangeError(`${coll}=${value}: cannot load it: ${loadErrorLine(e)}`, { cause: e });
    }
    // a .ts file outside an ES-module package arrives as CommonJS: its exports sit under `default`
    const inner = mod.default as Module | undefined;
    const exported = typeof mod.default === 'function' || (typeof inner === 'object' && inner !== null && !('default' in inner)) ? mod.default : inner?.default;
    out[coll] = userAlgorithm(coll as Collective, value, exported);
  }
  checkAlgorithms(out);
  return out;
}

/** The names a run's report shows for its algorithm choices (a user's algorithm by its file). */
export function algorithmNames(choices: Readonly<Record<string, AlgorithmChoice>>): Record<string, string> {
  return Object.fromEntries(Object.entries(choices).map(([k, v]) => [k, typeof v === 'string' ? v : v.name]));
}
