import { biWindows, osuApp, rates } from './osu-util.ts';

/**
 * OSU osu_bibw: rank 0 and `peer` each post `window` receives and then `window` sends to the
 * other at once, and wait for all of them (no acknowledgement); after `warmup` untimed windows,
 * bandwidth is the bytes sent by both sides over the time, in MB/s (1e6 bytes/s) and GB/s. Both
 * sides check the last message they received. (Seed 001, A23: over 15 GB/s bidirectional.)
 */
export const osuBibw = osuApp('osu-bibw', 'OSU osu_bibw: bidirectional MPI bandwidth (MB/s), rank 0 and a peer send windows to each other at once', true, {
  perRound: (bytes, window) => 2 * bytes * window,
  rounds: (ctx, out, inb, peer, window, iters) => biWindows(ctx, out, inb, peer, window, iters),
  checkers: (peer) => [0, peer],
  row: (bytes, window, iters, us) => ({ bytes, window, ...rates(2 * bytes * window * iters, us) }),
});
