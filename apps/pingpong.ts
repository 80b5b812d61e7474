import { checkSizeRange, round, sizeSweep, type App, type Row } from './app.ts';

/**
 * MPI ping-pong between rank 0 and `peer`: latency is half the round trip, bandwidth the
 * message size over that latency (the definitions every phit output uses).
 */
export const pingpong: App = {
  name: 'pingpong',
  summary: 'MPI ping-pong latency and bandwidth between rank 0 and a peer, 8 B to 4 MiB',
  minRanks: 2,
  params: {
    minBytes: { type: 'bytes', default: 8, min: 0, help: 'smallest message' },
    maxBytes: { type: 'bytes', default: 4 * 1024 * 1024, min: 1, help: 'largest message (sizes double from minBytes)' },
    iterations: { type: 'int', default: 10, min: 1, help: 'round trips per size (fewer above 64 KiB)' },
    peer: { type: 'int', default: 1, min: 1, help: 'rank that answers rank 0' },
  },
  check: (p) => checkSizeRange('pingpong', p),
  async main(ctx, p) {
    checkSizeRange('pingpong', p);
    const { mpi } = ctx;
    const peer = p.peer as number;
    if (peer >= mpi.size) throw new RangeError(`pingpong: peer=${peer} is not a rank (size ${mpi.size})`);
    const sizes = sizeSweep(p.minBytes as number, p.maxBytes as number);
    const rows: Row[] = [];
    const buf = new Uint8Array(sizes[sizes.length - 1] ?? 0);
    for (const bytes of sizes) {
      const msg = buf.subarray(0, bytes);
      const iters = Math.max(2, Math.min(p.iterations as number, Math.floor(((p.iterations as number) * 65536) / Math.max(bytes, 1))));
      if (mpi.rank === 0) for (let i = 0; i < bytes; i++) msg[i] = (i * 7 + bytes) & 255;
      await mpi.barrier();
      const t0 = ctx.now();
      for (let i = 0; i < iters; i++) {
        if (mpi.rank === 0) {
          await mpi.send(msg, peer, 1);
          await mpi.recv(msg, peer, 1);
        } else if (mpi.rank === peer) {
          await mpi.recv(msg, 0, 1);
          await mpi.send(msg, 0, 1);
        }
      }
      const latencyUs = (ctx.now() - t0) / iters / 2;
      if (mpi.rank === 0) {
        for (let i = 0; i < bytes; i++) {
          if (msg[i] !== ((i * 7 + bytes) & 255)) throw new Error(`pingpong: byte ${i} of the ${bytes}-byte message came back wrong`);
        }
        rows.push({ bytes, latencyUs: round(latencyUs), bandwidthGBs: round(bytes / latencyUs / 1000) });
      }
    }
    return mpi.rank === 0 ? { rows, peer, hops: ctx.machine.hops(0, peer) } : undefined;
  },
};
