/**
 * MPI matching speed (`npm run bench -- --only matching`): the matching queues (match-queue.ts)
 * against the linear scan phit's MPI core did before them (arrays in arrival order, the first
 * match found by `matches`, as MPICH's queues do), on the same operations in one process, plus a
 * deep-queue program through the whole stack. Both implementations must count the same entries
 * searched (the CPU time the model charges), or the benchmark fails.
 *
 * Cases (each receive matched once; matches per second of CPU time):
 * - `deepPosted`: `depth` receives posted (tags 0 .. depth-1), then as many messages arriving in
 *   reverse tag order: each takes the last receive of the posted queue;
 * - `deepUnexpected`: `depth` messages arrive unexpected, then receives are posted in reverse
 *   tag order: each takes the last message of the unexpected queue;
 * - `anySource`: `depth` messages from `depth` different ranks arrive, then ANY_SOURCE receives
 *   by tag in reverse order (the wildcard search of the unexpected queue);
 * - `shallow`: one receive posted, then its message, repeated (the queues never hold more than
 *   one entry: the common case of a latency-bound run).
 */
import { performance } from 'node:perf_hooks';
import { PostedQueue, UnexpectedQueue } from '../runtime/mpi/match-queue.ts';
import { ANY_SOURCE, matches, Msg, type Posted } from '../runtime/mpi/message.ts';
import { simulate } from '../runtime/simulate.ts';

/** A receive's envelope (all `matches` reads of a posted receive). */
type Recv = Pick<Posted, 'source' | 'tag' | 'ctx'>;

/** The two implementations behind one face: queue, take the first match, and the entries searched. */
interface Matcher {
  postRecv(r: Recv): void;
  /** The first posted receive that `m` matches, taken off the queue, or null. */
  arrive(m: Msg): Recv | null;
  pushMessage(m: Msg): void;
  /** The first unexpected message that `r` matches, taken off the queue, or null. */
  takeMessage(r: Recv): Msg | null;
  /** Entries searched by the last arrive / takeMessage. */
  searched: number;
}

/** Removes element `i` of `a`, keeping the order (what phit's core did on a match). */
function removeAt<T>(a: T[], i: number): void {
  if (i === 0) {
    a.shift();
    return;
  }
  const n = a.length - 1;
  for (let j = i; j < n; j++) a[j] = a[j + 1]!;
  a.length = n;
}

/** The linear scan over arrays, as phit's core matched before the queues. */
class LinearMatcher implements Matcher {
  private readonly posted: Recv[] = [];
  private readonly unexpected: Msg[] = [];
  searched = 0;
  postRecv(r: Recv): void {
    this.posted.push(r);
  }
  arrive(m: Msg): Recv | null {
    const q = this.posted;
    let i = 0;
    while (i < q.length && !matches(q[i]!, m)) i++;
    this.searched = i;
    if (i === q.length) return null;
    const p = q[i]!;
    removeAt(q, i);
    return p;
  }
  pushMessage(m: Msg): void {
    this.unexpected.push(m);
  }
  takeMessage(r: Recv): Msg | null {
    const q = this.unexpected;
    let i = 0;
    while (i < q.length && !matches(r, q[i]!)) i++;
    this.searched = i;
    if (i === q.length) return null;
    const a = q[i]!;
    removeAt(q, i);
    return a;
  }
}

/** The matching queues. */
class QueueMatcher implements Matcher {
  private readonly posted: PostedQueue<Recv>;
  private readonly unexpected: UnexpectedQueue<Msg>;
  searched = 0;
  constructor(ranks: number) {
    this.posted = new PostedQueue<Recv>(ranks);
    this.unexpected = new UnexpectedQueue<Msg>(ranks);
  }
  postRecv(r: Recv): void {
    this.posted.push(r);
  }
  arrive(m: Msg): Recv | null {
    const p = this.posted.take(m.src, m.tag, m.ctx);
    this.searched = this.posted.searched;
    return p;
  }
  pushMessage(m: Msg): void {
    this.unexpected.push(m);
  }
  takeMessage(r: Recv): Msg | null {
    const a = this.unexpected.take(r.source, r.tag, r.ctx);
    this.searched = this.unexpected.searched;
    return a;
  }
}

const CASES = ['deepPosted', 'deepUnexpected', 'anySource', 'shallow'] as const;
type Case = (typeof CASES)[number];

/** The envelopes of one case, made once (not timed). */
interface Workload {
  readonly recvs: Recv[];
  readonly msgs: Msg[];
  /** Receives posted before the messages arrive (true), or messages before receives. */
  readonly postFirst: boolean;
  /** Rounds of one receive and one message (shallow) instead of all of one kind first. */
  readonly interleaved: boolean;
  readonly ranks: number;
}

function workload(c: Case, depth: number): Workload {
  const msg = (src: number, tag: number): Msg => new Msg('eager', src, tag, 0, 0, 8, -1, -1, false);
  const recvs: Recv[] = [];
  const msgs: Msg[] = [];
  for (let k = 0; k < depth; k++) {
    const rev = depth - 1 - k;
    if (c === 'deepPosted') {
      recvs.push({ source: 1, tag: k, ctx: 0 });
      msgs.push(msg(1, rev));
    } else if (c === 'deepUnexpected') {
      msgs.push(msg(1, k));
      recvs.push({ source: 1, tag: rev, ctx: 0 });
    } else if (c === 'anySource') {
      msgs.push(msg(k, k));
      recvs.push({ source: ANY_SOURCE, tag: rev, ctx: 0 });
    } else {
      recvs.push({ source: 1, tag: k & 7, ctx: 0 });
      msgs.push(msg(1, k & 7));
    }
  }
  return { recvs, msgs, postFirst: c === 'deepPosted', interleaved: c === 'shallow', ranks: Math.max(2, depth) };
}

/** Runs a workload once; returns matches made and the total of entries searched. */
function runOnce(w: Workload, m: Matcher): { matched: number; searched: number } {
  let matched = 0;
  let searched = 0;
  const n = w.recvs.length;
  if (w.interleaved) {
    for (let k = 0; k < n; k++) {
      m.postRecv(w.recvs[k]!);
      if (m.arrive(w.msgs[k]!) !== null) matched++;
      searched += m.searched;
    }
  } else if (w.postFirst) {
    for (let k = 0; k < n; k++) m.postRecv(w.recvs[k]!);
    for (let k = 0; k < n; k++) {
      if (m.arrive(w.msgs[k]!) !== null) matched++;
      searched += m.searched;
    }
  } else {
    for (let k = 0; k < n; k++) m.pushMessage(w.msgs[k]!);
    for (let k = 0; k < n; k++) {
      if (m.takeMessage(w.recvs[k]!) !== null) matched++;
      searched += m.searched;
    }
  }
  if (matched !== n) throw new Error(`bench: matching: ${matched} of ${n} receives matched`);
  return { matched, searched };
}

/** Matches per CPU second of one implementation on one case: the median of `repeats` timed runs of at least `minMatches` matches each. */
function rate(w: Workload, make: () => Matcher, repeats: number, minMatches: number): { perSec: number; searched: number } {
  const rounds = Math.max(1, Math.ceil(minMatches / w.recvs.length));
  // warm-up (compiles the code paths)
  let searched = runOnce(w, make()).searched;
  const rates: number[] = [];
  for (let r = 0; r < repeats; r++) {
    const c0 = process.cpuUsage();
    let matched = 0;
    for (let k = 0; k < rounds; k++) {
      const x = runOnce(w, make());
      matched += x.matched;
      searched = x.searched;
    }
    const cpu = process.cpuUsage(c0);
    rates.push(matched / Math.max(1e-6, (cpu.user + cpu.system) / 1e6));
  }
  rates.sort((a, b) => a - b);
  return { perSec: rates[(repeats - 1) >> 1]!, searched };
}

/** Options of the matching benchmark. */
export interface MatchingBenchOptions {
  /** Entries in the deep queues (default 4,096). */
  readonly depth?: number;
  /** Timed runs per case and implementation; the median is reported (default 3). */
  readonly repeats?: number;
  /** Receives of the whole-stack program (default 4,096). */
  readonly stackDepth?: number;
}

/** Matches per CPU second of one case: the linear scan's, the queues', and the entries searched (the same for both). */
export interface MatchingCaseResult {
  readonly linearPerSec: number;
  readonly queuesPerSec: number;
  readonly speedup: number;
  readonly searched: number;
}

/** Result of the matching benchmark. */
export interface MatchingBenchResult {
  readonly depth: number;
  readonly cases: Readonly<Record<Case, MatchingCaseResult>>;
  /** The whole-stack program: rank 0 posts `receives` receives, rank 1 sends their messages in reverse order. */
  readonly stack: { readonly receives: number; readonly cpuSeconds: number; readonly seconds: number; readonly simulatedUs: number };
}

/** Runs every case on both implementations, and the whole-stack program. */
export async function benchMatching(o: MatchingBenchOptions = {}): Promise<MatchingBenchResult> {
  const depth = o.depth ?? 4096;
  const repeats = o.repeats ?? 3;
  const cases = {} as Record<Case, MatchingCaseResult>;
  for (const c of CASES) {
    const w = workload(c, c === 'shallow' ? 4096 : depth);
    // the linear scan is quadratic: a few rounds of it take as long as many of the queues'
    const lin = rate(w, () => new LinearMatcher(), repeats, c === 'shallow' ? 2_000_000 : depth);
    const q = rate(w, () => new QueueMatcher(w.ranks), repeats, c === 'shallow' ? 2_000_000 : 200_000);
    if (lin.searched !== q.searched) throw new Error(`bench: matching ${c}: the queues searched ${q.searched} entries, the linear scan ${lin.searched}`);
    cases[c] = { linearPerSec: lin.perSec, queuesPerSec: q.perSec, speedup: q.perSec / lin.perSec, searched: q.searched };
  }
  return { depth, cases, stack: await deepStack(o.stackDepth ?? 4096) };
}

/**
 * The whole stack with a deep posted queue: on xe6, rank 0 posts `n` receives (tags 0 .. n-1)
 * from rank 1 on another node, which then sends them in reverse tag order; CPU and wall time.
 */
export async function deepStack(n: number): Promise<{ receives: number; cpuSeconds: number; seconds: number; simulatedUs: number }> {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const r = await simulate({
    machine: 'xe6',
    nodes: 2,
    program: async (ctx) => {
      const { mpi } = ctx;
      const buf = new Uint8Array(8);
      if (mpi.rank === 0) {
        const reqs = [];
        for (let k = 0; k < n; k++) reqs.push(mpi.irecv(buf, 1, k));
        await mpi.barrier();
        await mpi.waitAll(reqs);
      } else {
        await mpi.barrier();
        const reqs = [];
        for (let k = n - 1; k >= 0; k--) reqs.push(mpi.isend(buf, 0, k));
        await mpi.waitAll(reqs);
      }
    },
  });
  const cpu = process.cpuUsage(c0);
  return { receives: n, cpuSeconds: (cpu.user + cpu.system) / 1e6, seconds: (performance.now() - t0) / 1e3, simulatedUs: r.simulatedTimeUs };
}
