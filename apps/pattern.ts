import { Prng } from '../fabric/engine/prng.ts';
import { destinations, PATTERNS, type Pattern } from '../fabric/traffic.ts';
import { round, skeletonCheck, type App } from './app.ts';

/**
 * Bulk messages in a synthetic traffic pattern (the patterns of `phit traffic`, between ranks
 * instead of nodes): in every round each rank sends one message of `bytes` to the rank the pattern
 * names (tornado, bit complement, transpose: the adversarial ones of a torus; uniform: a new
 * seeded draw each round, the same on every rank; worstcase: every rank of group i to a random
 * rank of group i+1, `group` ranks a group) and receives whatever the pattern sends it. Where
 * `phit traffic` offers a load of one-packet messages, this carries whole MPI messages (eager or
 * rendezvous, and flows at the flow fidelity level). A rank's bandwidth is the bytes it sent over
 * the time from the common start to the end of its last round; the row gives the mean, least and
 * largest over the ranks that send.
 */
export const pattern: App = {
  name: 'pattern',
  summary: 'per-rank MPI bandwidth (MB/s) while every rank sends bulk messages in a traffic pattern',
  merit: { key: 'mbsMean', higherIsBetter: true },
  minRanks: 2,
  params: {
    pattern: { type: 'choice', choices: PATTERNS.filter((p) => p !== 'hotspot'), default: 'tornado', help: 'who each rank sends to' },
    bytes: { type: 'bytes', default: 256 * 1024, min: 1, help: 'message size' },
    rounds: { type: 'int', default: 2, min: 1, help: 'timed rounds' },
    warmup: { type: 'int', default: 0, min: 0, help: 'untimed rounds first' },
    seed: { type: 'int', default: 1, min: 0, help: 'seed of the uniform and worstcase draws' },
    group: { type: 'int', default: 0, min: 0, help: 'worstcase: ranks of one group (0: none, the pattern refuses)' },
  },
  async main(ctx, p) {
    const { mpi } = ctx;
    const bytes = p.bytes as number;
    const rounds = p.rounds as number;
    const warmup = p.warmup as number;
    const size = mpi.size;
    const me = mpi.rank;
    const group = p.group as number;
    const dest = destinations(p.pattern as Pattern, size, group > 0 ? { nodesPerGroup: group } : {});
    const rng = new Prng(p.seed as number);
    const to = new Int32Array(size);
    const out = ctx.alloc(Uint8Array, bytes);
    const real = !ctx.skeleton;
    let sent = 0;
    const inbox: Uint8Array[] = [];
    const exchange = async (r: number, timed: boolean): Promise<void> => {
      // every rank draws every rank's destination in the same order, so each knows its senders
      for (let s = 0; s < size; s++) to[s] = dest(s, rng);
      const reqs = [];
      let k = 0;
      for (let s = 0; s < size; s++) {
        if (to[s] !== me || s === me) continue;
        if (inbox.length === k) inbox.push(ctx.alloc(Uint8Array, bytes));
        reqs.push(mpi.irecv(inbox[k++]!, s, r));
      }
      const d = to[me]!;
      if (d >= 0 && d !== me) {
        if (real) {
          out[0] = r & 255;
          out[bytes - 1] = me & 255;
        }
        reqs.push(mpi.isend(out, d, r));
        if (timed) sent += bytes;
      }
      const st = await mpi.waitAll(reqs);
      if (!real) return;
      for (let i = 0; i < k; i++) {
        const src = st[i]?.source ?? -1;
        const b = inbox[i]!;
        if (b[bytes - 1] !== (src & 255) || (bytes > 1 && b[0] !== (r & 255))) throw new Error(`pattern: rank ${me} got a wrong message from rank ${src} in round ${r}`);
      }
    };
    for (let r = 0; r < warmup; r++) await exchange(r, false);
    await mpi.barrier();
    const t0 = ctx.now();
    for (let r = warmup; r < warmup + rounds; r++) await exchange(r, true);
    const span = ctx.now() - t0;
    const mbs = span > 0 ? sent / span : 0;
    // [sum of MB/s, -least, largest, senders]
    const sender = sent > 0;
    const mine = new Float64Array([mbs, sender ? -mbs : -Infinity, sender ? mbs : -Infinity, sender ? 1 : 0]);
    const sum = new Float64Array(4);
    const max = new Float64Array(4);
    await mpi.allreduce(mine, sum, mpi.SUM);
    await mpi.allreduce(mine, max, mpi.MAX);
    if (me !== 0) return undefined;
    const row = {
      pattern: p.pattern as string,
      bytes,
      ranks: size,
      mbsMean: round(sum[0]! / Math.max(1, sum[3]!)),
      mbsMin: round(-max[1]!),
      mbsMax: round(max[2]!),
    };
    return { rows: [row], ...skeletonCheck(ctx) };
  },
};
