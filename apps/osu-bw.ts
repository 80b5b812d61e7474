import { round } from './app.ts';
import { osuApp, rates, streamWindows } from './osu-util.ts';

/**
 * OSU osu_bw: rank 0 posts `window` nonblocking sends back to back, `peer` as many receives into
 * one buffer, and a 4-byte acknowledgement closes each window; after `warmup` untimed windows,
 * bandwidth is the bytes of all timed windows over their time, in MB/s (1e6 bytes/s, OSU's unit)
 * and GB/s. The peer checks the last message it received. (Seed 001 "Aries Performance", A25:
 * streaming up to 9.7 GB/s against IMB ping-pong's 8.5.)
 */
export const osuBw = osuApp('osu-bw', 'OSU osu_bw: streaming MPI bandwidth (MB/s) from rank 0 to a peer, windows of nonblocking sends, one ack each', true, {
  perRound: (bytes, window) => bytes * window,
  rounds: (ctx, out, inb, peer, window, iters) => streamWindows(ctx, out, inb, peer, window, iters),
  checkers: (peer) => [peer],
  row: (bytes, window, iters, us) => ({ bytes, window, ...rates(bytes * window * iters, us), messageRateMps: round((window * iters) / us) }),
});
