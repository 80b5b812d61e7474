/**
 * The NIC and one-sided stack against the papers: put bandwidth and put rate of the Aries NIC
 * (seed 001_68348b17bd328203.txt "Aries Performance", figure ids A23, A24), its AMO rates
 * (A27), and the Gemini NIC's FMA put bandwidth and AMO rates (seed 004_c566599512f7712a.txt
 * §V, G6, G11), measured with the putget, putrate and amorate apps. Each figure within 15 % of
 * the paper's value, or on the right side of a bound the paper gives. Rates are measured over a
 * timed window after an untimed warm-up one, from the first rank's start to the last one's end.
 */
import { describe, expect, it } from 'vitest';
import { resolveParams, type Row } from '../apps/app.ts';
import { apps } from '../apps/index.ts';
import { simulate } from '../runtime/simulate.ts';

const ARIES = 'seed 001_68348b17bd328203.txt';
const GEMINI = 'seed 004_c566599512f7712a.txt';

const within = (model: number, paper: number, tolerance = 0.15): boolean => Math.abs(model - paper) / paper <= tolerance;

/** Runs a built-in app and returns its rows (rank 0's). */
async function rows(app: string, machine: string, nodes: number, ppn: number, params: Record<string, string>, set: Record<string, string> = {}): Promise<Row[]> {
  const a = apps[app]!;
  const p = resolveParams(a, params);
  const r = await simulate({ machine, nodes, ppn, set, program: (ctx) => a.main(ctx, p) });
  return [...r.result!.rows];
}

const num = (r: Row | undefined, key: string): number => {
  const v = r?.[key];
  if (typeof v !== 'number') throw new Error(`row has no number ${key}: ${JSON.stringify(r)}`);
  return v;
};


describe(`xc30 put bandwidth (${ARIES} "Aries Performance", Figure 12)`, () => {
  it('A23: over 15 GB/s bidirectional between two nodes one green hop apart (nodes 0 and 4), 1 MiB puts', async () => {
    const [r] = await rows('putget', 'xc30', 8, 1, { target: '4', minBytes: '1MiB', maxBytes: '1MiB', bidirectional: '1' });
    expect(r!.directions).toBe(2);
    expect(num(r, 'bandwidthGBs'), 'total GB/s both ways').toBeGreaterThan(15);
  });

  it('A23: with several (6) processes per node, half of peak bandwidth at 128-byte puts (half-peak size 128 B)', async () => {
    const out = await rows('putget', 'xc30', 8, 6, { target: '24', minBytes: '64', maxBytes: '4KiB', pairs: 'node' });
    const at = (b: number): number => num(out.find((r) => r.bytes === b), 'bandwidthGBs');
    expect(out[0]!.pairs).toBe(6);
    // the peak is the paper's 10 GB/s unidirectional figure, reached at 4 KiB
    expect(within(at(4096), 10), `4 KiB puts ${at(4096)} GB/s`).toBe(true);
    expect(within(at(128), 5), `128-byte puts ${at(128)} GB/s`).toBe(true);
    // 128 B is the first size at half of the peak
    expect(at(64)).toBeLessThan(at(4096) / 2);
    expect(at(128)).toBeGreaterThanOrEqual(at(4096) / 2);
  });
});

describe(`xc30 put rate (${ARIES} "Aries Performance", Figure 13)`, () => {
  const rate = async (ppn: number, set: Record<string, string> = {}): Promise<Row> => (await rows('putrate', 'xc30', 4, ppn, { puts: '200', warmup: '50' }, set))[0]!;

  it('A24: up to 7.5 million 8-byte puts/s from one process (CPU issue: library time + FMA store)', async () => {
    const r = await rate(1);
    expect(within(num(r, 'rateMps'), 7.5), `${r.rateMps} M/s`).toBe(true);
  });

  it('A24: up to 120 million puts/s per node with FMA launch and vMDH, from 24 processes per node', async () => {
    const r = await rate(24);
    expect(r.vmdh).toBe('yes');
    expect(within(num(r, 'rateMps'), 120), `${r.rateMps} M/s`).toBe(true);
    // the FMA unit, not the processes, limits it: 24 x 7.5 would be 180
    expect(num(r, 'perProcessMps')).toBeLessThan(6);
  });

  it('A24: 80 million puts/s when the MDH changes per request (dmapp.vmdh=no)', async () => {
    const r = await rate(24, { 'dmapp.vmdh': 'no' });
    expect(r.vmdh).toBe('no');
    expect(within(num(r, 'rateMps'), 80), `${r.rateMps} M/s`).toBe(true);
  });

  it('A24: below the FMA limit the rate grows with processes per node (8 processes: 8 x 7.5)', async () => {
    const r = await rate(8);
    expect(within(num(r, 'rateMps'), 60), `${r.rateMps} M/s`).toBe(true);
  });
});

describe(`xc30 AMO rate (${ARIES} "Aries Performance", A27)`, () => {
  /** 63 ranks (8 nodes x 8) update rank 0's variables. */
  const amo = async (params: Record<string, string>, set: Record<string, string> = {}): Promise<Row> => (await rows('amorate', 'xc30', 8, 8, { amos: '200', warmup: '50', ...params }, set))[0]!;

  it('A27: up to 400 million AMOs/s when many processes update one cached variable', async () => {
    const r = await amo({ vars: '1' });
    expect(r.amoCacheHitPct).toBe(100);
    expect(within(num(r, 'rateMps'), 400), `${r.rateMps} M/s`).toBe(true);
  });

  it('A27: random variables miss the AMO cache; 4 KiB pages over 64 MiB miss the PTE cache (reach 128 x 8 x 4 KiB = 4 MiB), 2 MiB pages do not', async () => {
    const small = await amo({ vars: '8192' });
    expect(num(small, 'amoCacheHitPct')).toBeLessThan(5);
    expect(small.pteCacheHitPct).toBe(100);
    const large = await amo({ vars: '8192', arrayBytes: '64MiB' }, { 'dmapp.heapPage': '4KiB' });
    expect(large.heapPageBytes).toBe(4096);
    expect(num(large, 'pteCacheHitPct')).toBeLessThan(25);
  });

  it('A27: about 120 million AMOs/s on 8192 random variables with large pages', async () => {
    const r = await amo({ vars: '8192' });
    expect(within(num(r, 'rateMps'), 120), `${r.rateMps} M/s`).toBe(true);
  });

  it('A27: 50-60 million AMOs/s on random variables of a 64 MiB array on 4 KiB pages', async () => {
    const r = await amo({ vars: '8192', arrayBytes: '64MiB' }, { 'dmapp.heapPage': '4KiB' });
    expect(num(r, 'rateMps')).toBeGreaterThan(50 * 0.85);
    expect(num(r, 'rateMps')).toBeLessThan(60 * 1.15);
  });
});

describe(`xe6 FMA bandwidth and AMO rate (${GEMINI} §V)`, () => {
  it('G6: FMA puts (4 KiB, under the BTE threshold) from 4 processes reach the 8 GB/s HT peak, not above 8.3', async () => {
    const out = await rows('putget', 'xe6', 8, 4, { target: '8', minBytes: '4KiB', maxBytes: '4KiB', pairs: 'node' });
    const bw = num(out[0], 'bandwidthGBs');
    expect(within(bw, 8), `${bw} GB/s`).toBe(true);
    expect(bw).toBeLessThanOrEqual(8.3);
  });

  it('G11: up to 100 million AMOs/s with cache reuse (one variable)', async () => {
    const [r] = await rows('amorate', 'xe6', 8, 8, { vars: '1', amos: '200', warmup: '50' });
    expect(r!.amoCacheHitPct).toBe(100);
    expect(within(num(r, 'rateMps'), 100), `${r!.rateMps} M/s`).toBe(true);
  });

  it('G11: over 45 million AMOs/s on 8192 random variables', async () => {
    const [r] = await rows('amorate', 'xe6', 8, 8, { vars: '8192', amos: '200', warmup: '50' });
    expect(num(r, 'rateMps')).toBeGreaterThan(45);
  });
});
