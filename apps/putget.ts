import type { RankContext } from '../runtime/rank.ts';
import { checkSizeRange, round, sizeSweep, skeletonCheck, type App, type Row } from './app.ts';

/**
 * The span (us) of a measured window run by several ranks: from the earliest start to the
 * latest end, over every rank (collective: every rank calls it; idle ranks pass NaN, NaN).
 */
export async function windowSpan(ctx: RankContext, startUs: number, endUs: number): Promise<number> {
  const mine = new Float64Array([Number.isNaN(startUs) ? -Infinity : -startUs, Number.isNaN(endUs) ? -Infinity : endUs]);
  const all = new Float64Array(2);
  await ctx.mpi.allreduce(mine, all, ctx.mpi.MAX);
  return all[1]! + all[0]!;
}

/** What a machine lacks of the NIC features the one-sided apps measure, by machine (wording only). */
const LACKS: Readonly<Record<string, { fma?: string; amoCache?: string; iommu?: string; vmdh?: string }>> = {
  xt4: { fma: 'SeaStar has no FMA; puts use the DMA engine', amoCache: 'no AMO cache (SeaStar atomics run on its embedded processor)', iommu: 'no IOMMU model', vmdh: 'no vMDH on SeaStar' },
  xe6: { iommu: "no IOMMU model (Gemini's memory relocation table is not modelled)", vmdh: 'no vMDH (an Aries addition)' },
  xc30: {},
  sc5832: { amoCache: 'no AMO cache', iommu: 'no IOMMU model', vmdh: 'no vMDH' },
  bw: { amoCache: 'no AMO cache (atomics execute at the memory)', iommu: 'no IOMMU model', vmdh: 'no vMDH' },
};

/** One-line notes on the NIC features `which` that this run's machine lacks ('' when it has them all). */
export function featureNote(ctx: RankContext, which: readonly ('fma' | 'amoCache' | 'iommu' | 'vmdh')[]): string {
  const m = ctx.machine;
  const words = LACKS[m.name] ?? {};
  const has = { fma: m.nic.fma, amoCache: m.nic.amoCacheEntries > 0, iommu: m.nic.pteCacheEntries > 0, vmdh: m.nic.vmdh };
  const generic = { fma: 'no FMA; puts use the block engine', amoCache: 'no AMO cache', iommu: 'no IOMMU model', vmdh: 'vMDH off' };
  const out = which.filter((k) => !has[k]).map((k) => words[k] ?? generic[k]);
  return out.length ? `${m.name}: ${out.join('; ')}` : '';
}

/**
 * One-sided put and get from rank 0 to a target rank through DMAPP. Latency: a blocking
 * operation from issue to the source's completion event (a round trip). Bandwidth: a window of
 * non-blocking operations completed by one gsyncWait. The local buffers come from `ctx.alloc` and
 * the segment is allocated `{skeleton: true}`: a skeleton run moves sizes only and checks nothing.
 */
export const putget: App = {
  name: 'putget',
  summary: 'one-sided put/get latency and bandwidth from rank 0 to a target, with the router hops between them',
  minRanks: 2,
  params: {
    target: { type: 'int', default: -1, min: -1, help: 'target rank (-1: the last rank)' },
    minBytes: { type: 'bytes', default: 8, min: 1, help: 'smallest transfer' },
    maxBytes: { type: 'bytes', default: 1024 * 1024, min: 1, help: 'largest transfer' },
    iterations: { type: 'int', default: 10, min: 1, help: 'blocking operations averaged per size' },
    window: { type: 'int', default: 16, min: 1, help: 'non-blocking operations per bandwidth measurement' },
    ops: { type: 'list', default: 'put,get', choices: ['put', 'get'], help: 'operations to measure' },
    pairs: { type: 'choice', default: 'one', choices: ['one', 'node'], help: "one: rank 0 to the target; node: every rank of node 0 to its counterpart on the target's node (puts, aggregate bandwidth)" },
    bidirectional: { type: 'int', default: 0, min: 0, max: 1, help: "1: the target side puts back at the same time (puts only; total GB/s both ways)" },
  },
  check: (p) => checkSizeRange('putget', p),
  async main(ctx, p) {
    checkSizeRange('putget', p);
    const { mpi, dmapp } = ctx;
    const target = (p.target as number) < 0 ? mpi.size - 1 : (p.target as number);
    if (target === 0 || target >= mpi.size) throw new RangeError(`putget: target=${target} must be a rank other than 0 (size ${mpi.size})`);
    const sizes = sizeSweep(p.minBytes as number, p.maxBytes as number);
    if (p.pairs === 'node' || p.bidirectional === 1) return streams(ctx, target, sizes, p.pairs === 'node', p.bidirectional === 1, p.window as number);
    const maxBytes = sizes[sizes.length - 1]!;
    // puts land in the first half of the segment; gets read the second half
    const seg = dmapp.malloc(2 * maxBytes, { skeleton: true });
    const local = ctx.alloc(Uint8Array, maxBytes);
    const real = !ctx.skeleton;
    for (let i = 0; real && i < maxBytes; i++) local[i] = (i * 13 + 5) & 255;
    if (mpi.rank === target && real) for (let i = 0; i < maxBytes; i++) seg.local[maxBytes + i] = (i * 31 + 1) & 255;
    await mpi.barrier();
    const rows: Row[] = [];
    if (mpi.rank === 0) {
      const hops = ctx.machine.hops(0, target);
      const window = p.window as number;
      for (const op of (p.ops as string).split(',')) {
        for (const bytes of sizes) {
          const buf = op === 'put' ? local.subarray(0, bytes) : ctx.alloc(Uint8Array, bytes);
          let t0 = 0;
          const iters = Math.max(2, Math.min(p.iterations as number, Math.floor(((p.iterations as number) * 65536) / bytes)));
          // one untimed operation first warms the target's translation and AMO caches
          for (let i = -1; i < iters; i++) {
            if (i === 0) t0 = ctx.now();
            if (op === 'put') await dmapp.put(target, seg, 0, buf);
            else await dmapp.get(target, seg, maxBytes, buf);
          }
          const latencyUs = (ctx.now() - t0) / iters;
          if (op === 'get' && real) {
            for (let i = 0; i < bytes; i++) if (buf[i] !== ((i * 31 + 1) & 255)) throw new Error(`putget: get of ${bytes} bytes returned wrong data at byte ${i}`);
          }
          const w = Math.max(1, Math.min(window, Math.floor((window * 65536) / bytes)));
          t0 = ctx.now();
          for (let i = 0; i < w; i++) {
            if (op === 'put') await dmapp.putNbi(target, seg, 0, buf);
            else await dmapp.getNbi(target, seg, maxBytes, buf);
          }
          await dmapp.gsyncWait();
          const bandwidthGBs = (w * bytes) / (ctx.now() - t0) / 1000;
          rows.push({ op, bytes, hops, latencyUs: round(latencyUs), bandwidthGBs: round(bandwidthGBs) });
        }
      }
    }
    await mpi.barrier();
    if (mpi.rank === target && real && (p.ops as string).includes('put')) {
      for (let i = 0; i < maxBytes; i++) if (seg.local[i] !== local[i]) throw new Error(`putget: byte ${i} of the target's segment was not written by the puts`);
    }
    return mpi.rank === 0 ? { rows, target, ...skeletonCheck(ctx) } : undefined;
  },
};

/**
 * Put bandwidth of concurrent streams: rank 0 to `target` (or, with `node`, every rank of node 0
 * to the rank of the same index on the target's node; ranks are placed in blocks), and with
 * `both` the target side putting back at the same time. Each stream runs a warm-up window, then
 * a timed window of non-blocking puts completed by one gsyncWait; the bandwidth is all bytes
 * over the span from the first start to the last end (GB/s, both directions summed).
 */
async function streams(ctx: RankContext, target: number, sizes: readonly number[], node: boolean, both: boolean, window: number): Promise<{ rows: Row[]; target: number; pairs: number; check?: string } | undefined> {
  const { mpi, dmapp } = ctx;
  const ppn = ctx.machine.ppn;
  if (ctx.machine.placement !== 'contiguous') throw new RangeError(`putget: pairs=node pairs the ranks of two nodes by their rank order and needs --placement contiguous, not ${ctx.machine.placement}`);
  const tNode = ctx.machine.nodeOf(target);
  const myNode = ctx.machine.nodeOf(mpi.rank);
  if (tNode === ctx.machine.nodeOf(0)) throw new RangeError(`putget: pairs=node needs a target on another node than rank 0's (target=${target})`);
  const local = mpi.rank % ppn;
  // my peer: counterpart on the other side, or -1 when this rank does not stream
  let peer = -1;
  if (node) {
    if (myNode === 0) peer = tNode * ppn + local;
    else if (both && myNode === tNode) peer = local;
  } else if (mpi.rank === 0) {
    peer = target;
  } else if (both && mpi.rank === target) {
    peer = 0;
  }
  const pairs = node ? ppn : 1;
  const maxBytes = sizes[sizes.length - 1]!;
  const seg = dmapp.malloc(maxBytes, { skeleton: true });
  const src = ctx.alloc(Uint8Array, maxBytes);
  const real = !ctx.skeleton;
  for (let i = 0; real && i < maxBytes; i++) src[i] = (i * 13 + mpi.rank) & 255;
  await mpi.barrier();
  const rows: Row[] = [];
  for (const bytes of sizes) {
    const buf = src.subarray(0, bytes);
    const w = Math.max(4, Math.min(window * 16, Math.floor((window * 65536) / bytes)));
    let t0 = NaN;
    let t1 = NaN;
    if (peer >= 0) {
      for (let i = 0; i < Math.ceil(w / 4); i++) await dmapp.putNbi(peer, seg, 0, buf);
      await dmapp.gsyncWait();
    }
    await mpi.barrier();
    if (peer >= 0) {
      t0 = ctx.now();
      for (let i = 0; i < w; i++) await dmapp.putNbi(peer, seg, 0, buf);
      await dmapp.gsyncWait();
      t1 = ctx.now();
    }
    const span = await windowSpan(ctx, t0, t1);
    const streamsN = pairs * (both ? 2 : 1);
    rows.push({ op: 'put', bytes, pairs, directions: both ? 2 : 1, bandwidthGBs: round((streamsN * w * bytes) / span / 1000) });
  }
  // every byte a stream wrote is in place at its peer (the sender's pattern)
  const from = node ? (myNode === tNode ? local : myNode === 0 && both ? tNode * ppn + local : -1) : mpi.rank === target ? 0 : mpi.rank === 0 && both ? target : -1;
  if (from >= 0 && real) {
    for (let i = 0; i < maxBytes; i++) if (seg.local[i] !== ((i * 13 + from) & 255)) throw new Error(`putget: byte ${i} of rank ${mpi.rank}'s segment was not written by rank ${from}'s puts`);
  }
  return mpi.rank === 0 ? { rows, target, pairs, ...skeletonCheck(ctx) } : undefined;
}
