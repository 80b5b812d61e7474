import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The first ```ts block after `marker` in the README. */
function readmeBlock(marker: string): string {
  const text = readFileSync(join(root, 'README.md'), 'utf8');
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`README has no ${marker}`);
  const m = /```ts\n([\s\S]*?)```/.exec(text.slice(at));
  if (!m) throw new Error(`no ts block after ${marker}`);
  return m[1]!;
}

describe('the README programmatic example', () => {
  it("runs as written, importing 'phit', and prints one correct line per machine", () => {
    // inside the package, so that `import ... from 'phit'` resolves to it as it does for a user who installed it
    const dir = mkdtempSync(join(root, '.readme-'));
    try {
      const file = join(dir, 'study.mts');
      writeFileSync(file, readmeBlock('<!-- api-example -->'));
      const out = execFileSync(process.execPath, ['--import', 'tsx', file], { cwd: root, encoding: 'utf8' });
      const lines = out.trim().split('\n');
      expect(lines).toHaveLength(2);
      for (const [i, machine] of ['xe6', 'xc30'].entries()) {
        expect(lines[i]).toMatch(new RegExp(`^${machine}: 8 KiB allreduce on 64 ranks in [0-9.]+ us \\(correct: true\\)$`));
      }
      // the README quotes the figures it prints
      const readme = readFileSync(join(root, 'README.md'), 'utf8');
      expect(readme).toContain(lines[0]);
      expect(readme).toContain(`xc30: ... in ${/in ([0-9.]+ us)/.exec(lines[1]!)![1]}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
