import type { RankContext } from '../runtime/rank.ts';
import { round, type App, type ParamValues } from './app.ts';
import { featureNote, windowSpan } from './putget.ts';

/** Next state of a 32-bit LCG (Numerical Recipes constants). */
function lcg(s: number): number {
  return (Math.imul(s, 1664525) + 1013904223) >>> 0;
}

/** The variables rank `rank` updates, in order: `count` indices in 0..vars-1 from an LCG seeded by the rank. */
export function amoTargets(rank: number, vars: number, count: number): Uint32Array {
  const out = new Uint32Array(count);
  let s = lcg((rank + 1) * 2654435761);
  for (let i = 0; i < count; i++) {
    s = lcg(s);
    out[i] = vars === 1 ? 0 : Math.floor((s / 2 ** 32) * vars);
  }
  return out;
}

/** Byte offset of variable `v` of `vars` spread evenly over `arrayBytes` (8-byte aligned). */
function offsetOf(v: number, vars: number, arrayBytes: number): number {
  return Math.floor((v * (arrayBytes / 8)) / vars) * 8;
}

/** A hit rate in percent, or 'n/a' with the reason when the cache is not modelled. */
function hitRate(hits: number, misses: number, present: boolean): number | string {
  if (!present) return 'n/a';
  return hits + misses === 0 ? 'n/a' : round((100 * hits) / (hits + misses));
}

/**
 * AMO rate at one target (seed 001 "Aries Performance", A27; seed 004 §V, G11): every rank on
 * every node issues non-fetching atomic adds (aaddQwNbi, one gsyncWait per window) to rank 0.
 * With `vars=1` they all hit one variable, which stays in the target NIC's AMO cache; with many,
 * each rank picks variables from a seeded LCG, so most miss the 64-entry cache and, when the
 * variables spread over a large `arrayBytes` on small pages (`--set dmapp.heapPage=4KiB`), the
 * IOMMU's PTE cache as well. Reports AMOs/s at the target over the span of the timed window and
 * the target NIC's AMO and PTE cache hit rates over that window; checks every variable's sum.
 */
export const amorate: App = {
  name: 'amorate',
  summary: "non-fetching AMO rate at rank 0 from every rank, one hot variable or many random ones, with the target NIC's cache hit rates",
  minRanks: 2,
  params: {
    vars: { type: 'int', default: 1, min: 1, help: 'variables at the target (1: one hot, cached variable; e.g. 8192: random ones)' },
    arrayBytes: { type: 'bytes', default: 0, min: 0, help: "bytes the variables spread over at the target (0: 8 x vars, packed)" },
    amos: { type: 'int', default: 200, min: 1, help: 'timed AMOs per rank (one window, one gsyncWait)' },
    warmup: { type: 'int', default: 50, min: 0, help: 'untimed AMOs per rank first (warm caches)' },
  },
  check: checkArray,
  async main(ctx, p) {
    checkArray(p);
    const { mpi, dmapp } = ctx;
    const vars = p.vars as number;
    const arrayBytes = (p.arrayBytes as number) || 8 * vars;
    const warm = p.warmup as number;
    const n = p.amos as number;
    // only rank 0's copy is accessed: the others register a token segment to keep the simulation small
    const seg = dmapp.malloc(mpi.rank === 0 ? arrayBytes : 8);
    const issuing = mpi.rank !== 0 || mpi.size === 1;
    const mine = amoTargets(mpi.rank, vars, warm + n);
    await mpi.barrier();
    if (issuing) {
      for (let i = 0; i < warm; i++) await dmapp.aaddQwNbi(0, seg, offsetOf(mine[i]!, vars, arrayBytes), 1n);
      await dmapp.gsyncWait();
    }
    await mpi.barrier();
    const before = ctx.machine.nicStats(0);
    let t0 = NaN;
    let t1 = NaN;
    if (issuing) {
      t0 = ctx.now();
      for (let i = warm; i < warm + n; i++) await dmapp.aaddQwNbi(0, seg, offsetOf(mine[i]!, vars, arrayBytes), 1n);
      await dmapp.gsyncWait();
      t1 = ctx.now();
    }
    const span = await windowSpan(ctx, t0, t1);
    if (mpi.rank !== 0) return undefined;
    const after = ctx.machine.nicStats(0);
    verify(ctx, seg.local, vars, arrayBytes, warm + n);
    const issuers = mpi.size === 1 ? 1 : mpi.size - 1;
    const f = ctx.machine.nic;
    const note = featureNote(ctx, ['amoCache', 'iommu']);
    return {
      rows: [
        {
          ranks: issuers,
          vars,
          arrayBytes,
          heapPageBytes: f.heapPageBytes,
          amos: issuers * n,
          rateMps: round((issuers * n) / span),
          amoCacheHitPct: hitRate(after.amo.hits - before.amo.hits, after.amo.misses - before.amo.misses, f.amoCacheEntries > 0),
          pteCacheHitPct: hitRate(after.pte.hits - before.pte.hits, after.pte.misses - before.pte.misses, f.pteCacheEntries > 0),
          ...(note ? { note } : {}),
        },
      ],
    };
  },
};

/** Throws unless `arrayBytes` (when given) holds `vars` 8-byte variables. */
function checkArray(p: ParamValues): void {
  const vars = p.vars as number;
  const bytes = p.arrayBytes as number;
  if (bytes !== 0 && bytes < 8 * vars) throw new RangeError(`parameter arrayBytes=${bytes} of app amorate: must hold vars=${vars} 8-byte variables (at least ${8 * vars})`);
}

/** Rank 0: every variable holds the number of adds the issuing ranks' LCG streams sent it. */
function verify(ctx: RankContext, bytes: Uint8Array, vars: number, arrayBytes: number, count: number): void {
  const want = new Float64Array(vars);
  const size = ctx.size;
  for (let r = size === 1 ? 0 : 1; r < size; r++) for (const v of amoTargets(r, vars, count)) want[v]!++;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let v = 0; v < vars; v++) {
    const got = Number(view.getBigUint64(offsetOf(v, vars, arrayBytes), true));
    if (got !== want[v]) throw new Error(`amorate: variable ${v} holds ${got}, expected ${want[v]} adds`);
  }
}
