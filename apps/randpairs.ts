import { Prng, shuffle } from '../fabric/engine/prng.ts';
import { round, skeletonCheck, type App } from './app.ts';

/**
 * Random-pair exchange under load (seed 002 §6.1, "high contention", K13): in every round all
 * ranks are paired at random (a new seeded matching each round, the same on every rank) and each
 * pair swaps one message of `bytes` both ways. A rank's bandwidth is the bytes it sent over its
 * time from the common start to the end of its last round; the row gives the mean, least and
 * largest over the ranks, and `hops`, the mean router-to-router path of the messages (0 on a
 * node), for the seed's contention model C = p s / (links). With an odd number of ranks one rank
 * sits out each round. `active` limits the exchange to the first ranks (the seed ran about 5,000
 * processes on the 5,832-processor machine; with --placement round-robin they spread over every
 * node); the others only join the barrier and the final reductions. Messages come from
 * `ctx.alloc`: a skeleton run moves their sizes only and skips the check of their marks.
 */
export const randpairs: App = {
  name: 'randpairs',
  summary: 'per-rank MPI bandwidth (MB/s) while every rank swaps messages with a random partner each round',
  merit: { key: 'mbsMean', higherIsBetter: true },
  minRanks: 2,
  params: {
    bytes: { type: 'bytes', default: 64 * 1024, min: 1, help: 'message size each way' },
    rounds: { type: 'int', default: 4, min: 1, help: 'timed rounds, each with a new random pairing' },
    warmup: { type: 'int', default: 1, min: 0, help: 'untimed rounds first' },
    seed: { type: 'int', default: 1, min: 0, help: 'seed of the pairings' },
    active: { type: 'int', default: 0, min: 0, help: 'ranks that exchange (the first ones; 0: all)' },
  },
  async main(ctx, p) {
    const { mpi } = ctx;
    const bytes = p.bytes as number;
    const rounds = p.rounds as number;
    const warmup = p.warmup as number;
    const active = (p.active as number) === 0 ? mpi.size : (p.active as number);
    if (active < 2 || active > mpi.size) throw new RangeError(`randpairs: active=${active} must be between 2 and the ${mpi.size} ranks`);
    const size = active;
    const me = mpi.rank;
    const rng = new Prng(p.seed as number);
    const order = new Int32Array(size);
    /** Partner of this rank in the next pairing (-1: sits out). */
    const nextPartner = (): number => {
      for (let i = 0; i < size; i++) order[i] = i;
      shuffle(order, rng);
      const at = order.indexOf(me);
      const mate = at ^ 1;
      return mate < size ? order[mate]! : -1;
    };
    const out = ctx.alloc(Uint8Array, bytes);
    const inb = ctx.alloc(Uint8Array, bytes);
    const real = !ctx.skeleton;
    let sent = 0;
    let hops = 0;
    const exchange = async (r: number, timed: boolean): Promise<void> => {
      if (me >= size) return;
      const peer = nextPartner();
      if (peer < 0) return;
      if (real) {
        out[0] = r & 255;
        out[bytes - 1] = me & 255;
      }
      const rq = mpi.irecv(inb, peer, r);
      const sq = mpi.isend(out, peer, r);
      await mpi.waitAll([rq, sq]);
      if (real && (inb[bytes - 1] !== (peer & 255) || (bytes > 1 && inb[0] !== (r & 255)))) {
        throw new Error(`randpairs: rank ${me} got a wrong message from rank ${peer} in round ${r}`);
      }
      if (timed) {
        sent += bytes;
        hops += ctx.machine.hops(me, peer);
      }
    };
    for (let r = 0; r < warmup; r++) await exchange(r, false);
    await mpi.barrier();
    const t0 = ctx.now();
    for (let r = warmup; r < warmup + rounds; r++) await exchange(r, true);
    const span = ctx.now() - t0;
    const mbs = span > 0 ? sent / span : 0;
    // [sum of MB/s, -least, largest, messages, hops]
    const mine = new Float64Array([mbs, sent > 0 ? -mbs : -Infinity, mbs, sent / bytes, hops]);
    const sum = new Float64Array(5);
    const max = new Float64Array(5);
    await mpi.allreduce(mine, sum, mpi.SUM);
    await mpi.allreduce(mine, max, mpi.MAX);
    if (me !== 0) return undefined;
    const pairs = size % 2 === 0 ? size : size - 1;
    const row = {
      bytes,
      ranks: size,
      mbsMean: round(sum[0]! / pairs),
      mbsMin: round(-max[1]!),
      mbsMax: round(max[2]!),
      hops: round(sum[4]! / sum[3]!),
    };
    return { rows: [row], ...skeletonCheck(ctx) };
  },
};
