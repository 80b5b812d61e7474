import { checkSizeRange, round, sizeSweep, skeletonCheck, type App, type Row } from './app.ts';
import { itersFor, pingPongs, streamWindows } from './osu-util.ts';

/**
 * MPI ping-pong between rank 0 and `peer`: latency is half the round trip, bandwidth the
 * message size over that latency (the definitions every phit output uses), as IMB's PingPong:
 * one transfer active at a time. `mode=stream` measures streaming bandwidth as OSU's osu_bw:
 * rank 0 posts `window` nonblocking sends back to back, `peer` as many receives, and one small
 * acknowledgement closes each window; bandwidth is the bytes of all windows over their time
 * (seed 001 "Aries Performance" compares the two, A25). The message comes from `ctx.alloc`:
 * a skeleton run moves its size only and skips the check of its bytes.
 */
export const pingpong: App = {
  name: 'pingpong',
  summary: 'MPI ping-pong latency and bandwidth between rank 0 and a peer, 8 B to 4 MiB; mode=stream for OSU-style streaming bandwidth',
  minRanks: 2,
  params: {
    minBytes: { type: 'bytes', default: 8, min: 0, help: 'smallest message' },
    maxBytes: { type: 'bytes', default: 4 * 1024 * 1024, min: 1, help: 'largest message (sizes double from minBytes)' },
    iterations: { type: 'int', default: 10, min: 1, help: 'round trips (stream: windows) per size (fewer above 64 KiB of traffic each)' },
    peer: { type: 'int', default: 1, min: 1, help: 'rank that answers rank 0' },
    mode: { type: 'choice', default: 'pingpong', choices: ['pingpong', 'stream'], help: 'pingpong: one message at a time (IMB PingPong); stream: windows of messages, one ack each (OSU bandwidth)' },
    window: { type: 'int', default: 64, min: 1, help: 'stream: messages in flight per window' },
  },
  check: (p) => checkSizeRange('pingpong', p),
  async main(ctx, p) {
    checkSizeRange('pingpong', p);
    const { mpi } = ctx;
    const peer = p.peer as number;
    if (peer >= mpi.size) throw new RangeError(`pingpong: peer=${peer} is not a rank (size ${mpi.size})`);
    const sizes = sizeSweep(p.minBytes as number, p.maxBytes as number);
    const rows: Row[] = [];
    const buf = ctx.alloc(Uint8Array, sizes[sizes.length - 1] ?? 0);
    const real = !ctx.skeleton;
    const stream = p.mode === 'stream';
    const window = p.window as number;
    for (const bytes of sizes) {
      const msg = buf.subarray(0, bytes);
      const perRound = stream ? window * bytes : bytes;
      const iters = itersFor(p.iterations as number, perRound, stream ? 1 : 2);
      if (mpi.rank === 0 && real) for (let i = 0; i < bytes; i++) msg[i] = (i * 7 + bytes) & 255;
      else if (mpi.rank === peer && real) msg.fill(0);
      await mpi.barrier();
      const t0 = ctx.now();
      if (stream) await streamWindows(ctx, msg, msg, peer, window, iters);
      else await pingPongs(ctx, msg, msg, peer, iters);
      const us = ctx.now() - t0;
      // the bytes came back to rank 0 (ping-pong) or reached the peer (stream)
      const checker = stream ? peer : 0;
      if (mpi.rank === checker && real) {
        for (let i = 0; i < bytes; i++) {
          if (msg[i] !== ((i * 7 + bytes) & 255)) throw new Error(`pingpong: byte ${i} of the ${bytes}-byte message ${stream ? 'reached the peer' : 'came back'} wrong`);
        }
      }
      if (mpi.rank !== 0) continue;
      if (stream) {
        rows.push({ bytes, window, bandwidthGBs: round((bytes * window * iters) / us / 1000), messageRateMps: round((window * iters) / us) });
      } else {
        const latencyUs = us / iters / 2;
        rows.push({ bytes, latencyUs: round(latencyUs), bandwidthGBs: round(bytes / latencyUs / 1000) });
      }
    }
    return mpi.rank === 0 ? { rows, peer, hops: ctx.machine.hops(0, peer), ...skeletonCheck(ctx) } : undefined;
  },
};
