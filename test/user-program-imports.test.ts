import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PHIT = join(ROOT, 'cli', 'phit.mjs');

/** A program that catches a bad send under ERRORS_RETURN and reports whether the error is the MpiError it imported. */
const program = (from: string): string => `import { MpiError, type RankContext } from '${from}';
export default async (ctx: RankContext) => {
  ctx.mpi.setErrhandler(ctx.mpi.ERRORS_RETURN);
  let same = 'no error';
  try {
    await ctx.mpi.send(new Float64Array(1), 99, 0);
  } catch (e) {
    same = e instanceof MpiError ? 'same class' : 'another copy';
  }
  return { rows: [{ same }] };
};
`;

// cli/share-api.ts: a user's program that imports phit gets the running phit's modules, not a second copy
describe("a user's program importing phit", () => {
  // outside the repository, where no node_modules holds 'phit'
  const dir = mkdtempSync(join(tmpdir(), 'phit-user-'));
  mkdirSync(join(dir, 'esm'));
  writeFileSync(join(dir, 'esm', 'package.json'), '{"type": "module"}\n');
  const files = {
    'bare specifier, CommonJS': join(dir, 'bare.ts'),
    'index.ts by path, CommonJS': join(dir, 'path.ts'),
    'bare specifier, ES module': join(dir, 'esm', 'bare.ts'),
  };
  writeFileSync(files['bare specifier, CommonJS'], program('phit'));
  writeFileSync(files['index.ts by path, CommonJS'], program(join(ROOT, 'index.ts')));
  writeFileSync(files['bare specifier, ES module'], program('phit'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  for (const bundle of ['1', '0']) {
    it.each(Object.entries(files))(`%s (PHIT_BUNDLE=${bundle}): catches the runtime's own MpiError`, (_name, file) => {
      const out = execFileSync(process.execPath, [PHIT, 'run', file, '--nodes', '2', '--json'], { encoding: 'utf8', env: { ...process.env, PHIT_BUNDLE: bundle } });
      expect(out).toContain('"same":"same class"');
    });
  }
});
