import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleOf } from '../cli/load.mjs';

// cli/load.mjs: the compiled bundles the CLI, its workers and the benchmark's studies run from
describe('compiled entry points', () => {
  const dir = mkdtempSync(join(tmpdir(), 'phit-load-'));
  const a = join(dir, 'a.ts');
  const b = join(dir, 'b.ts');
  writeFileSync(a, "import { base } from './b.ts';\nexport const v: number = base + 1;\nexport const here: string = import.meta.url;\n");
  writeFileSync(b, 'export const base: number = 41;\n');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('compiles once, reuses the bundle while no source changes, keeps each file its own import.meta.url', async () => {
    const first = await bundleOf(a);
    const made = statSync(first).mtimeMs;
    const again = await bundleOf(a);
    expect(again).toBe(first);
    expect(statSync(again).mtimeMs).toBe(made);
    const mod = (await import(pathToFileURL(first).href)) as { v: number; here: string };
    expect(mod.v).toBe(42);
    expect(mod.here).toBe(pathToFileURL(a).href);
  });

  it('makes a new bundle when an imported source changes', async () => {
    const before = await bundleOf(a);
    writeFileSync(b, 'export const base: number = 1000;\n');
    const after = await bundleOf(a);
    expect(after).not.toBe(before);
    const mod = (await import(pathToFileURL(after).href)) as { v: number };
    expect(mod.v).toBe(1001);
  });
});
