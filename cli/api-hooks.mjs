// Module resolution hooks (registered by share-api.ts) for users' ES-module programs run by the
// `phit` command: `import ... from 'phit'`, or phit's index.ts by path, resolves to a module that
// re-exports the running phit's own modules (published on globalThis), not a second copy.

/** @type {string[]} */
let names = [];
let index = '';

/** @param {{ names: string[], index: string }} data */
export function initialize(data) {
  names = data.names;
  index = data.index;
}

/** The module that re-exports the published API (made once: the names do not change). */
let url = '';
function shim() {
  if (url === '') {
    const lines = names.map((n) => `export const ${n} = api.${n};`);
    url = `data:text/javascript,${encodeURIComponent(`const api = globalThis[Symbol.for('phit.api')];\n${lines.join('\n')}\n`)}`;
  }
  return url;
}

/**
 * @param {string} specifier
 * @param {object} context
 * @param {(specifier: string, context: object) => Promise<{ url: string }>} next
 */
export async function resolve(specifier, context, next) {
  if (specifier === 'phit') return { url: shim(), shortCircuit: true };
  const r = await next(specifier, context);
  if (r.url.split('?')[0] === index) return { url: shim(), shortCircuit: true };
  return r;
}
