import Module, { register } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as api from '../index.ts';

/** Where the running phit publishes its modules for users' programs (api-hooks.mjs, phit-api.cjs). */
const KEY = Symbol.for('phit.api');
let shared = false;

/**
 * Makes the programs and algorithm files a user hands to `phit` get this phit's own modules when
 * they import phit (`from 'phit'`, or phit's index.ts by its path), instead of a second copy of
 * phit compiled from its sources for them: an `instanceof MpiError` then sees the errors the
 * runtime throws, and a program loads with only its own file compiled (about half the memory
 * and CPU time of the copy). ES modules are redirected by resolution hooks, CommonJS ones by
 * the module resolver. Idempotent per thread; called before the first user file loads.
 */
export function shareApi(): void {
  if (shared) return;
  shared = true;
  (globalThis as Record<symbol, unknown>)[KEY] = api;
  const index = new URL('../index.ts', import.meta.url);
  register(new URL('./api-hooks.mjs', import.meta.url), { data: { names: Object.keys(api), index: index.href } });
  const cjs = fileURLToPath(new URL('./phit-api.cjs', import.meta.url));
  const indexPath = fileURLToPath(index);
  const resolver = Module as unknown as { _resolveFilename: (this: unknown, request: string, ...rest: unknown[]) => string };
  const original = resolver._resolveFilename;
  resolver._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]): string {
    if (request === 'phit') return cjs;
    const file = original.call(this, request, ...rest);
    return file === indexPath ? cjs : file;
  };
}
