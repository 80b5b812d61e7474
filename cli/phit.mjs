#!/usr/bin/env node
// Entry point of the `phit` command: loads the TypeScript sources compiled (see load.mjs).
import { spawnSync } from 'node:child_process';
import { totalmem } from 'node:os';
import { fileURLToPath, URL } from 'node:url';
import { getHeapStatistics } from 'node:v8';

// Node's default heap (about 4 GB) is too small for the largest machines: unless the user chose a
// heap size, run again with three quarters of the host's memory as the heap's limit
const wantMB = Math.floor((totalmem() / 2 ** 20) * 0.75);
const chosen = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((a) => a.includes('max-old-space-size'));
if (!chosen && getHeapStatistics().heap_size_limit / 2 ** 20 < wantMB) {
  const r = spawnSync(process.execPath, [...process.execArgv, `--max-old-space-size=${wantMB}`, fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  if (r.signal) process.kill(process.pid, r.signal);
  process.exit(r.status ?? 1);
}

const { load } = await import('./load.mjs');
// a reader that stops early (`phit ... | head`) is not an error
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});
const { main } = await load(new URL('./main.ts', import.meta.url));
process.exitCode = await main(process.argv.slice(2));
