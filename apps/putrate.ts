import { round, type App } from './app.ts';
import { featureNote, windowSpan } from './putget.ts';

/**
 * Put rate of one node (seed 001 "Aries Performance", Figure 13, A24): every rank of node 0
 * issues 8-byte non-blocking puts to ranks on the other nodes, spread round-robin over many PEs,
 * and completes each window with one gsyncWait. The rate is every put of node 0 over the span
 * from the first rank's start to the last one's end, after an untimed warm-up window. Whether the
 * heap answers to one virtual MDH is the machine parameter `dmapp.vmdh` (`--set dmapp.vmdh=no`
 * makes the FMA descriptor change handle on every put); run with several `--ppn` for the curve.
 */
export const putrate: App = {
  name: 'putrate',
  summary: "8-byte put rate of node 0's ranks (millions/s per node) to PEs spread over the other nodes",
  minRanks: 2,
  params: {
    puts: { type: 'int', default: 200, min: 1, help: 'timed puts per rank of node 0 (one window, one gsyncWait)' },
    warmup: { type: 'int', default: 50, min: 0, help: 'untimed puts per rank first' },
    targets: { type: 'int', default: 64, min: 1, help: 'distinct target PEs each rank cycles through (at most the ranks off node 0)' },
  },
  async main(ctx, p) {
    const { mpi, dmapp } = ctx;
    const ppn = ctx.machine.ppn;
    if (ctx.machine.placement !== 'contiguous') throw new RangeError(`putrate: node 0's ranks put to the other nodes' by rank order and need --placement contiguous, not ${ctx.machine.placement}`);
    const remote = mpi.size - ppn;
    if (remote < 1) throw new RangeError(`putrate: needs ranks on a node other than node 0 (nodes ${ctx.machine.nodes}, ppn ${ppn})`);
    const seg = dmapp.malloc(8 * ppn);
    const mine = ctx.machine.nodeOf(mpi.rank) === 0;
    const local = mpi.rank % ppn;
    const targets = Math.min(p.targets as number, remote);
    // rank i of node 0 starts at a different remote PE and steps through `targets` of them
    const stride = Math.max(1, Math.floor(remote / targets));
    const peerOf = (k: number, from = local): number => ppn + ((from * 7 + k) % targets) * stride;
    // each rank writes its own 8-byte slot of the target's segment: its rank number
    const word = new Uint8Array(new BigUint64Array([BigInt(mpi.rank + 1)]).buffer);
    await mpi.barrier();
    if (mine) {
      for (let k = 0; k < (p.warmup as number); k++) await dmapp.putNbi(peerOf(k), seg, 8 * local, word);
      await dmapp.gsyncWait();
    }
    await mpi.barrier();
    let t0 = NaN;
    let t1 = NaN;
    const n = p.puts as number;
    if (mine) {
      t0 = ctx.now();
      for (let k = 0; k < n; k++) await dmapp.putNbi(peerOf(k), seg, 8 * local, word);
      await dmapp.gsyncWait();
      t1 = ctx.now();
    }
    const span = await windowSpan(ctx, t0, t1);
    await mpi.barrier();
    // slot i of every PE that rank i of node 0 put to holds rank i's number; the others are untouched
    if (!mine) {
      const v = new BigUint64Array(seg.local.buffer, seg.local.byteOffset, ppn);
      const total = (p.warmup as number) + n;
      for (let i = 0; i < ppn; i++) {
        let hit = false;
        for (let k = 0; k < Math.min(total, targets) && !hit; k++) hit = peerOf(k, i) === mpi.rank;
        const want = hit ? BigInt(i + 1) : 0n;
        if (v[i] !== want) throw new Error(`putrate: slot ${i} of rank ${mpi.rank} holds ${v[i]}, expected ${want}`);
      }
    }
    if (mpi.rank !== 0) return undefined;
    const perProcess = n / (t1 - t0);
    const note = featureNote(ctx, ['fma', 'vmdh']);
    return {
      rows: [
        {
          ppn,
          puts: n * ppn,
          vmdh: ctx.machine.nic.vmdh ? 'yes' : 'no',
          rateMps: round((n * ppn) / span),
          perProcessMps: round(perProcess),
          ...(note ? { note } : {}),
        },
      ],
    };
  },
};
