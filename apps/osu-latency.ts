import { round } from './app.ts';
import { osuApp, pingPongs } from './osu-util.ts';

/**
 * OSU osu_latency: ping-pong between rank 0 and `peer` with blocking send and receive, each side
 * sending its own buffer and receiving into another; after `warmup` untimed round trips (OSU's
 * skip), latency is half the mean round trip (the definition of pingpong's latencyUs). Both
 * sides check the message they received last.
 */
export const osuLatency = osuApp('osu-latency', 'OSU osu_latency: one-way MPI latency (half a ping-pong round trip) between rank 0 and a peer, 1 B to 4 MiB', false, {
  perRound: (bytes) => bytes,
  rounds: (ctx, out, inb, peer, _window, iters) => pingPongs(ctx, out, inb, peer, iters),
  checkers: (peer) => [0, peer],
  row: (bytes, _window, iters, us) => ({ bytes, latencyUs: round(us / iters / 2) }),
});
