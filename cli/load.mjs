// Loads one of phit's TypeScript entry points (the CLI, its worker threads, the benchmark's
// studies) as plain JavaScript: the entry and everything it imports from phit are compiled into one
// bundle, kept in node_modules/.cache/phit and used until one of its source files changes. Node then
// runs JavaScript it has not had to transform module by module, which takes about half the memory
// of loading the sources through tsx (a 1,024-rank study: 144 MB against 274 MB) and starts faster.
// Where no bundle can be made (no esbuild, a read-only install) or PHIT_BUNDLE=0, the sources load
// through tsx as before. Programs a user hands to phit (`phit run file.ts`) are loaded through tsx
// in both cases.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL, URL } from 'node:url';
import { threadId } from 'node:worker_threads';

/** Bumped when the way bundles are made changes, so that older ones are not used. */
const FORMAT = 1;
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CACHE = join(ROOT, 'node_modules', '.cache', 'phit');

/**
 * The module at `entry` (a file: URL of a .ts file of phit): from its bundle when one is fresh or
 * can be made, else through tsx.
 * @param {URL | string} entry
 */
export async function load(entry) {
  const file = process.env.PHIT_BUNDLE === '0' ? null : await bundleOf(fileURLToPath(entry)).catch(() => null);
  if (file) return import(pathToFileURL(file).href);
  const { register } = await import('tsx/esm/api');
  register();
  return import(entry.toString());
}

/**
 * The path of a fresh bundle of `entry`, made if need be. A bundle's name carries a hash of the
 * modification time and size of every source file it was made from, so a change to any of them
 * names another file, which is then made; a bundle is written under a temporary name and renamed,
 * so processes starting at once never read half a file.
 * @param {string} entry
 * @returns {Promise<string>}
 */
export async function bundleOf(entry) {
  const name = createHash('sha256').update(entry).digest('hex').slice(0, 16);
  const list = join(CACHE, `${name}.inputs.json`);
  let inputs = null;
  try {
    inputs = JSON.parse(readFileSync(list, 'utf8'));
  } catch {
    // never made, or made by another version: make it
  }
  if (Array.isArray(inputs)) {
    const key = keyOf(inputs);
    if (key) {
      const file = join(CACHE, `${name}-${key}.mjs`);
      try {
        statSync(file);
        return file;
      } catch {
        // an input changed: make it again
      }
    }
  }
  return make(entry, name, list);
}

/**
 * The hash of the inputs' modification times and sizes (and this loader's format and esbuild's
 * version), or null if one is gone.
 * @param {string[]} inputs
 */
function keyOf(inputs, version = esbuildVersion()) {
  const h = createHash('sha256').update(`${FORMAT} ${version}\n`);
  for (const p of inputs) {
    let s;
    try {
      s = statSync(resolve(ROOT, p));
    } catch {
      return null;
    }
    h.update(`${p} ${s.mtimeMs} ${s.size}\n`);
  }
  return h.digest('hex').slice(0, 16);
}

/** esbuild's version as installed, or '' if it is not. */
function esbuildVersion() {
  try {
    return JSON.parse(readFileSync(join(ROOT, 'node_modules', 'esbuild', 'package.json'), 'utf8')).version;
  } catch {
    return '';
  }
}

/**
 * Compiles `entry` and the phit sources it imports into one ES module (npm packages stay imports).
 * Each source's `import.meta.url` becomes its own file's URL, so that the files it finds beside it
 * (worker entries, measured data, docs) are found from the bundle too.
 * @param {string} entry
 * @param {string} name
 * @param {string} list
 */
async function make(entry, name, list) {
  const esbuild = await import('esbuild');
  const started = Date.now();
  const metaUrl = {
    name: 'phit-import-meta-url',
    setup(build) {
      build.onLoad({ filter: /\.[cm]?ts$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        const url = JSON.stringify(pathToFileURL(args.path).href);
        return { contents: text.replace(/\bimport\.meta\.url\b/g, url), loader: 'ts' };
      });
    },
  };
  const r = await esbuild.build({
    entryPoints: [entry],
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [metaUrl],
  });
  const inputs = Object.keys(r.metafile.inputs).sort();
  // a source changed while it was compiled would key old content by its new time: load through tsx this once
  if (inputs.some((p) => Math.floor(statSync(resolve(ROOT, p)).mtimeMs) > started)) throw new Error('a source file changed while phit was compiled');
  const key = keyOf(inputs);
  if (!key) throw new Error('a source file went away while phit was compiled');
  mkdirSync(CACHE, { recursive: true });
  const file = join(CACHE, `${name}-${key}.mjs`);
  // one name per process and thread: a pool's threads may compile the same entry at once
  const tmp = `${file}.${process.pid}.${threadId}.tmp`;
  writeFileSync(tmp, r.outputFiles[0].contents);
  renameSync(tmp, file);
  const tmpList = `${list}.${process.pid}.${threadId}.tmp`;
  writeFileSync(tmpList, JSON.stringify(inputs));
  renameSync(tmpList, list);
  // older bundles of this entry are of no more use once no process can still be starting on them
  for (const f of readdirSync(CACHE)) {
    if (!f.startsWith(`${name}-`) || f === basename(file)) continue;
    try {
      if (Date.now() - statSync(join(CACHE, f)).mtimeMs > 3_600_000) unlinkSync(join(CACHE, f));
    } catch {
      // another process removed it first
    }
  }
  return file;
}
