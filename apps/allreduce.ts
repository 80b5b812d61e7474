import { ALGORITHMS, MpiError, type Comm, type Op } from '../runtime/mpi/mpi.ts';
import type { RankContext } from '../runtime/rank.ts';
import { checkSizeRange, round, sizeSweep, skeletonCheck, type App, type AppResult, type ParamValues, type Row } from './app.ts';
import { COLL_TIMING, itersFor, timeCalls } from './osu-util.ts';

/** The name that asks for the NIC's collective engine (the communicator runs it). */
const CE = 'collectiveEngine';

/** Value rank `r` contributes at element `j`: a rank part and an element part, small integers so every sum is exact. */
function contribution(r: number, j: number): number {
  return r + elementPart(j);
}

function elementPart(j: number): number {
  return ((j * 37) % 1000) - 500;
}

/** The reduction of `contribution(r, j)` over ranks 0..n-1 under `op`. */
function expected(op: string, n: number, j: number): number {
  const e = elementPart(j);
  if (op === 'sum') return (n * (n - 1)) / 2 + n * e;
  return op === 'min' ? e : n - 1 + e;
}

/**
 * Allreduce latency against size (as OSU's osu_allreduce and IMB's Allreduce): vectors of int32
 * or double elements from `minBytes` to `maxBytes`, doubling, reduced with `op` by the named
 * algorithm (`auto`: the library's choice, by the run's selector (`--coll-selector`, MPICH's rules by default), or the NIC's collective engine
 * for a one-item reduction on a machine that has one when `mpi.collectiveEngine=yes`). After `warmup` untimed calls, each rank
 * times `iterations` calls, back to back between barriers (`timing=loop`) or each alone with a
 * barrier after it (`timing=sync`, as IMB and OSU time them); latency is the largest over the
 * ranks of the mean time per call (IMB's t_max), avgUs their average (IMB's t_avg, OSU's average
 * latency). Every element of every result is checked against the closed form (not in a
 * skeleton run, whose vectors come from `ctx.alloc` and carry sizes only). `ranks=k`
 * runs on a communicator of the first k ranks (the others wait), so one run can show latency
 * against communicator size. Seed 002, K17: on the SC5832 a large integer MIN allreduce takes
 * about as long on every power-of-two communicator and longer on the others. The `algorithm`
 * column says what ran: in `auto` the run-wide choice (`--coll allreduce=...`) if any, else the
 * automatic pick (`smp+...` for the SMP-aware form, named by its node leaders' algorithm).
 */
export const allreduce: App = {
  name: 'allreduce',
  summary: 'MPI_Allreduce latency vs vector size (int32 or double, sum/min/max), any algorithm or the collective engine; results checked',
  minRanks: 1,
  params: {
    minBytes: { type: 'bytes', default: 8, min: 1, help: 'smallest vector' },
    maxBytes: { type: 'bytes', default: 1024 * 1024, min: 1, help: 'largest vector (sizes double from minBytes)' },
    algorithm: { type: 'choice', default: 'auto', choices: ['auto', ...Object.keys(ALGORITHMS.allreduce), CE], help: 'allreduce algorithm; auto: the library\'s choice per size' },
    op: { type: 'choice', default: 'sum', choices: ['sum', 'min', 'max'], help: 'reduction' },
    type: { type: 'choice', default: 'double', choices: ['double', 'int32'], help: 'element type' },
    iterations: { type: 'int', default: 10, min: 1, help: 'timed calls per size (fewer above 64 KiB each, at least 2)' },
    warmup: { type: 'int', default: 1, min: 0, help: 'untimed calls before each size' },
    ranks: { type: 'int', default: 0, min: 0, help: 'run on the first k ranks only (0: all)' },
    timing: { type: 'choice', default: 'loop', choices: [...COLL_TIMING], help: 'loop: the calls back to back between barriers; sync: each call timed alone, a barrier after it (IMB -sync 1, OSU)' },
  },
  check: (p) => checkSizeRange('allreduce', p),
  main: runAllreduce,
};

async function runAllreduce(ctx: RankContext, p: ParamValues): Promise<AppResult | undefined> {
  checkSizeRange('allreduce', p);
  const { mpi } = ctx;
  const k = (p.ranks as number) || mpi.size;
  if (k > mpi.size) throw new RangeError(`parameter ranks=${k} of app allreduce: more than the ${mpi.size} ranks of the run`);
  const comm = k === mpi.size ? mpi : await mpi.split(mpi.rank < k ? 0 : mpi.UNDEFINED, mpi.rank);
  if (!comm) {
    await mpi.barrier();
    return undefined;
  }
  const opName = p.op as string;
  const op: Op = opName === 'sum' ? mpi.SUM : opName === 'min' ? mpi.MIN : mpi.MAX;
  const isInt = p.type === 'int32';
  const elemBytes = isInt ? 4 : 8;
  const requested = p.algorithm as string;
  // auto uses the engine where the library would: one item, with mpi.collectiveEngine=yes
  const hasCe = requested === 'auto' && ctx.machine.nic.collectiveEngine ? await probeCe(comm, mpi.SUM) : false;
  const rows: Row[] = [];
  let lastCount = -1;
  for (const asked of sizeSweep(p.minBytes as number, p.maxBytes as number)) {
    const count = Math.max(1, Math.floor(asked / elemBytes));
    if (count === lastCount) continue;
    lastCount = count;
    const bytes = count * elemBytes;
    const send = isInt ? ctx.alloc(Int32Array, count) : ctx.alloc(Float64Array, count);
    const recv = isInt ? ctx.alloc(Int32Array, count) : ctx.alloc(Float64Array, count);
    const real = !ctx.skeleton;
    if (real) for (let j = 0; j < count; j++) send[j] = contribution(comm.rank, j);
    const opts = requested === 'auto' ? undefined : { algorithm: requested };
    const used = requested !== 'auto' ? requested : hasCe && count === 1 ? CE : comm.algorithmFor('allreduce', bytes, op, count);
    const iters = itersFor(p.iterations as number, bytes, 2);
    for (let w = 0; w < (p.warmup as number); w++) await comm.allreduce(send, recv, op, opts);
    if (real) recv.fill(0);
    const mean = await timeCalls(ctx, comm, iters, p.timing as string, () => comm.allreduce(send, recv, op, opts));
    for (let j = 0; real && j < count; j++) {
      const want = expected(opName, comm.size, j);
      if (recv[j] !== want) throw new Error(`allreduce: rank ${comm.rank}: element ${j} of the ${bytes}-byte ${opName} (${used}) is ${recv[j]}, expected ${want}`);
    }
    const worst = new Float64Array(1);
    const sum = new Float64Array(1);
    await comm.allreduce(Float64Array.of(mean), worst, mpi.MAX);
    await comm.allreduce(Float64Array.of(mean), sum, mpi.SUM);
    if (comm.rank === 0) rows.push({ bytes, ranks: comm.size, algorithm: used, latencyUs: round(worst[0]!), avgUs: round(sum[0]! / comm.size) });
  }
  if (comm !== mpi) await mpi.barrier();
  return mpi.rank === 0 ? { rows, op: opName, type: p.type, ...skeletonCheck(ctx) } : undefined;
}

/** Whether `comm`'s allreduce can run on the collective engine (one untimed one-item reduction). */
async function probeCe(comm: Comm, sum: Op): Promise<boolean> {
  try {
    await comm.allreduce(Float64Array.of(1), new Float64Array(1), sum, { algorithm: CE });
    return true;
  } catch (e) {
    if (e instanceof MpiError) return false;
    throw e;
  }
}
