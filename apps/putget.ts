import { checkSizeRange, round, sizeSweep, type App, type Row } from './app.ts';

/**
 * One-sided put and get from rank 0 to a target rank through DMAPP. Latency: a blocking
 * operation from issue to the source's completion event (a round trip). Bandwidth: a window of
 * non-blocking operations completed by one gsyncWait.
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
  },
  check: (p) => checkSizeRange('putget', p),
  async main(ctx, p) {
    checkSizeRange('putget', p);
    const { mpi, dmapp } = ctx;
    const target = (p.target as number) < 0 ? mpi.size - 1 : (p.target as number);
    if (target === 0 || target >= mpi.size) throw new RangeError(`putget: target=${target} must be a rank other than 0 (size ${mpi.size})`);
    const sizes = sizeSweep(p.minBytes as number, p.maxBytes as number);
    const maxBytes = sizes[sizes.length - 1]!;
    // puts land in the first half of the segment; gets read the second half
    const seg = dmapp.malloc(2 * maxBytes);
    const local = new Uint8Array(maxBytes);
    for (let i = 0; i < maxBytes; i++) local[i] = (i * 13 + 5) & 255;
    if (mpi.rank === target) for (let i = 0; i < maxBytes; i++) seg.local[maxBytes + i] = (i * 31 + 1) & 255;
    await mpi.barrier();
    const rows: Row[] = [];
    if (mpi.rank === 0) {
      const hops = ctx.machine.hops(0, target);
      const window = p.window as number;
      for (const op of (p.ops as string).split(',')) {
        for (const bytes of sizes) {
          const buf = op === 'put' ? local.subarray(0, bytes) : new Uint8Array(bytes);
          let t0 = 0;
          const iters = Math.max(2, Math.min(p.iterations as number, Math.floor(((p.iterations as number) * 65536) / bytes)));
          // one untimed operation first warms the target's translation and AMO caches
          for (let i = -1; i < iters; i++) {
            if (i === 0) t0 = ctx.now();
            if (op === 'put') await dmapp.put(target, seg, 0, buf);
            else await dmapp.get(target, seg, maxBytes, buf);
          }
          const latencyUs = (ctx.now() - t0) / iters;
          if (op === 'get') {
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
    if (mpi.rank === target && (p.ops as string).includes('put')) {
      for (let i = 0; i < maxBytes; i++) if (seg.local[i] !== local[i]) throw new Error(`putget: byte ${i} of the target's segment was not written by the puts`);
    }
    return mpi.rank === 0 ? { rows, target } : undefined;
  },
};
