/**
 * The accuracy of the coarse and flow fidelity levels against the packet level (the reference),
 * case by case: the worst deviation over every timed figure of an app's rows, and the packets
 * each level simulates. The README's accuracy table is this test's output (between the
 * `fidelity-accuracy` markers): the test fails when the table there differs from what it
 * computes, so the table cannot drift from the model.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LONG } from './helpers.ts';
import { resolveParams, type Row } from '../apps/app.ts';
import { findApp } from '../apps/index.ts';
import { simulate } from '../runtime/simulate.ts';

interface Case {
  readonly name: string;
  readonly app: string;
  readonly machine: string;
  readonly nodes: number;
  readonly params: Record<string, string>;
  /** Largest deviation each level may show (a fraction of the packet level's figure). */
  readonly tol: { readonly coarse: number; readonly flow: number };
}

const CASES: readonly Case[] = [
  { name: 'ping-pong 16 KiB - 1 MiB', app: 'pingpong', machine: 'xe6', nodes: 4, params: { peer: '2', minBytes: '16KiB', maxBytes: '1MiB', iterations: '2' }, tol: { coarse: 0.05, flow: 0.05 } },
  { name: 'ping-pong 16 KiB - 1 MiB', app: 'pingpong', machine: 'xc30', nodes: 8, params: { peer: '4', minBytes: '16KiB', maxBytes: '1MiB', iterations: '2' }, tol: { coarse: 0.12, flow: 0.07 } },
  { name: 'allreduce 8 B - 256 KiB, 64 ranks', app: 'allreduce', machine: 'xe6', nodes: 64, params: { minBytes: '8', maxBytes: '256KiB', iterations: '2' }, tol: { coarse: 0.1, flow: 0.1 } },
  { name: 'alltoall 8 B - 16 KiB, 64 ranks', app: 'alltoall', machine: 'xe6', nodes: 64, params: { minBytes: '8', maxBytes: '16KiB', iterations: '1' }, tol: { coarse: 0.1, flow: 0.1 } },
  { name: 'halo3d 64^3 per rank, 64 ranks', app: 'halo3d', machine: 'xe6', nodes: 64, params: { nx: '64', ny: '64', nz: '64', iterations: '2' }, tol: { coarse: 0.15, flow: 0.15 } },
  { name: 'uniform random pairs, 256 KiB, 64 ranks', app: 'randpairs', machine: 'xe6', nodes: 64, params: { bytes: '256KiB', rounds: '2' }, tol: { coarse: 0.1, flow: 0.4 } },
  // adversarial traffic: every rank sends 256 KiB along a torus ring (tornado) or across the machine (bit complement)
  { name: 'tornado, 256 KiB, 64 ranks', app: 'pattern', machine: 'xe6', nodes: 64, params: { pattern: 'tornado', bytes: '256KiB', rounds: '2' }, tol: { coarse: 0.25, flow: 0.4 } },
  { name: 'bit complement, 256 KiB, 64 ranks', app: 'pattern', machine: 'xe6', nodes: 64, params: { pattern: 'bitcomplement', bytes: '256KiB', rounds: '2' }, tol: { coarse: 0.25, flow: 0.4 } },
  { name: 'allreduce 8 B - 256 KiB, 64 ranks', app: 'allreduce', machine: 'xc30', nodes: 64, params: { minBytes: '8', maxBytes: '256KiB', iterations: '2' }, tol: { coarse: 0.15, flow: 0.15 } },
];

interface Outcome {
  readonly rows: readonly Row[];
  readonly packets: number;
}

async function run(c: Case, fidelity: string): Promise<Outcome> {
  const a = findApp(c.app);
  const p = resolveParams(a, c.params);
  const r = await simulate({ machine: c.machine, nodes: c.nodes, set: { 'fabric.fidelity': fidelity }, program: (ctx) => a.main(ctx, p) });
  return { rows: (r.result as { rows: Row[] }).rows, packets: r.packets };
}

/** The worst relative deviation of `b` from `a` over every timed figure (keys ending in Us, GBs or MBs, or starting with mbs) of every row. */
function worst(a: readonly Row[], b: readonly Row[]): number {
  expect(b.length).toBe(a.length);
  let w = 0;
  a.forEach((r, i) => {
    for (const [k, v] of Object.entries(r)) {
      if (!/(Us|GBs|MBs)$|^mbs/.test(k) || typeof v !== 'number' || v <= 0) continue;
      const d = ((b[i]![k] as number) - v) / v;
      if (Math.abs(d) > Math.abs(w)) w = d;
    }
  });
  return w;
}

const pct = (x: number): string => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)} %`;

// the long tier (npm run test:long): every case at three levels, many minutes of one core
describe.runIf(LONG)('fidelity levels against packet: the README accuracy table', () => {
  it('every case within its tolerance, and the README shows this very table', async () => {
    const lines = [
      '| case | machine | coarse: worst deviation | flow: worst deviation | packets simulated: packet / coarse / flow |',
      '|---|---|---|---|---|',
    ];
    const over: string[] = [];
    for (const c of CASES) {
      const packet = await run(c, 'packet');
      const coarse = await run(c, 'coarse');
      const flow = await run(c, 'flow');
      const dc = worst(packet.rows, coarse.rows);
      const df = worst(packet.rows, flow.rows);
      if (Math.abs(dc) > c.tol.coarse) over.push(`${c.name} on ${c.machine}: coarse ${pct(dc)} (tolerance ${c.tol.coarse * 100} %)`);
      if (Math.abs(df) > c.tol.flow) over.push(`${c.name} on ${c.machine}: flow ${pct(df)} (tolerance ${c.tol.flow * 100} %)`);
      lines.push(`| ${c.name} | ${c.machine} | ${pct(dc)} | ${pct(df)} | ${packet.packets} / ${coarse.packets} / ${flow.packets} |`);
    }
    const table = lines.join('\n');
    expect(over).toEqual([]);
    const readme = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'README.md'), 'utf8');
    const start = readme.indexOf('<!-- fidelity-accuracy -->');
    const end = readme.indexOf('<!-- /fidelity-accuracy -->');
    expect(start).toBeGreaterThan(0);
    expect(readme.slice(start + '<!-- fidelity-accuracy -->'.length, end).trim(), `README accuracy table; this run computed:\n${table}\n`).toBe(table);
  });
});
