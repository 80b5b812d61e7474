import { ALGORITHMS } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { checkSizeRange, round, sizeSweep, skeletonCheck, type App, type AppResult, type ParamValues, type Row } from './app.ts';
import { COLL_TIMING, itersFor, timeCalls } from './osu-util.ts';

/** Element `e` of the block rank `s` sends to rank `d`: differs for every (s, d, e), so a misplaced block is always wrong. */
function blockValue(s: number, d: number, e: number): number {
  let h = Math.imul(s, 0x9e3779b1) ^ Math.imul(d + 1, 0x85ebca6b) ^ Math.imul(e + 7, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  return h ^ (h >>> 13);
}

/**
 * Alltoall time and per-rank bandwidth against block size (as OSU's osu_alltoall and IMB's
 * Alltoall): every rank sends a block of int32 elements, `minBytes` to `maxBytes` doubling, to
 * every rank, by the named algorithm (`auto`: a run-wide `--coll alltoall=...` if given, else the
 * library's choice by the run's selector, `--coll-selector`; the `algorithm` column shows it). After
 * `warmup` untimed calls each rank times `iterations` calls, back to back between barriers
 * (`timing=loop`) or each alone with a barrier after it (`timing=sync`, as IMB and OSU time
 * them); timeUs is the largest over the ranks of the mean time per call (IMB's t_max), avgUs their
 * average (IMB's t_avg, OSU's average latency), and bandwidth per rank the bytes one rank sends to
 * the others, (ranks - 1) · block, over timeUs. Every element received is checked (not in a
 * skeleton run: the buffers come from `ctx.alloc` and carry sizes only).
 */
export const alltoall: App = {
  name: 'alltoall',
  summary: 'MPI_Alltoall time and per-rank bandwidth vs block size, any algorithm; every element checked',
  minRanks: 1,
  params: {
    minBytes: { type: 'bytes', default: 8, min: 1, help: 'smallest block (bytes from one rank to one rank)' },
    maxBytes: { type: 'bytes', default: 64 * 1024, min: 1, help: 'largest block (sizes double from minBytes)' },
    algorithm: { type: 'choice', default: 'auto', choices: ['auto', ...Object.keys(ALGORITHMS.alltoall)], help: 'alltoall algorithm; auto: the library\'s choice per size' },
    iterations: { type: 'int', default: 10, min: 1, help: 'timed calls per size (fewer above 64 KiB sent per rank, at least 1)' },
    warmup: { type: 'int', default: 1, min: 0, help: 'untimed calls before each size' },
    timing: { type: 'choice', default: 'loop', choices: [...COLL_TIMING], help: 'loop: the calls back to back between barriers; sync: each call timed alone, a barrier after it (IMB -sync 1, OSU)' },
  },
  check: (p) => checkSizeRange('alltoall', p),
  main: runAlltoall,
};

async function runAlltoall(ctx: RankContext, p: ParamValues): Promise<AppResult | undefined> {
  checkSizeRange('alltoall', p);
  const { mpi } = ctx;
  const n = mpi.size;
  const me = mpi.rank;
  const requested = p.algorithm as string;
  const opts = requested === 'auto' ? undefined : { algorithm: requested };
  const rows: Row[] = [];
  let lastCount = -1;
  for (const asked of sizeSweep(p.minBytes as number, p.maxBytes as number)) {
    const count = Math.max(1, Math.floor(asked / 4));
    if (count === lastCount) continue;
    lastCount = count;
    const block = count * 4;
    const send = ctx.alloc(Int32Array, n * count);
    const recv = ctx.alloc(Int32Array, n * count);
    const real = !ctx.skeleton;
    if (real) for (let d = 0; d < n; d++) for (let e = 0; e < count; e++) send[d * count + e] = blockValue(me, d, e);
    const used = requested === 'auto' ? mpi.algorithmFor('alltoall', block) : requested;
    const iters = itersFor(p.iterations as number, block * n, 1);
    for (let w = 0; w < (p.warmup as number); w++) await mpi.alltoall(send, recv, opts);
    if (real) recv.fill(0);
    const mean = await timeCalls(ctx, mpi, iters, p.timing as string, () => mpi.alltoall(send, recv, opts));
    for (let s = 0; real && s < n; s++) {
      for (let e = 0; e < count; e++) {
        const got = recv[s * count + e]!;
        const want = blockValue(s, me, e);
        if (got !== want) throw new Error(`alltoall: rank ${me}: element ${e} of the ${block}-byte block from rank ${s} (${used}) is ${got}, expected ${want}`);
      }
    }
    const worst = new Float64Array(1);
    const sum = new Float64Array(1);
    await mpi.allreduce(Float64Array.of(mean), worst, mpi.MAX);
    await mpi.allreduce(Float64Array.of(mean), sum, mpi.SUM);
    if (me === 0) {
      const timeUs = worst[0]!;
      rows.push({ bytes: block, ranks: n, algorithm: used, timeUs: round(timeUs), avgUs: round(sum[0]! / n), bandwidthGBs: round(((n - 1) * block) / timeUs / 1e3) });
    }
  }
  return me === 0 ? { rows, ...skeletonCheck(ctx) } : undefined;
}
