import type { Proc } from '../proc.ts';
import { ranges, type CollCall, type CollLedger, type CrossError } from './agreement.ts';
import { CE_ALGORITHM, selectAlgorithm, SELECTORS, type Coll, type CollectiveFns, type Collective, type CollTransport } from './coll/index.ts';
import * as inter from './coll/inter.ts';
import { CollRun, watchRounds } from './coll-run.ts';
import { CommBase, type CommShape, type RankState } from './comm-base.ts';
import { checkOp, collBuf, sameShape, sameType, tagged } from './comm-coll.ts';
import type { Comm } from './comm.ts';
import { describe, IN_PLACE } from './constants.ts';
import { ANY_SOURCE, PROC_NULL, ROOT, type MpiWorld } from './core.ts';
import { Datatype } from './datatype.ts';
import { Group } from './group.ts';
import type { Op, ReduceArray } from './ops.ts';
import { MpiError, type Request } from './request.ts';

/** One group of an intercommunicator: its members (world ranks), their inverse, and the context of its own collectives. */
export interface InterGroup {
  readonly members: Int32Array;
  readonly inv: Int32Array;
  readonly ctx: number;
}

/** Makes the intracommunicator of a shape (the result of intercommMerge). */
export type CommMaker = (shape: CommShape) => Comm;

/** A rooted collective's arguments as the other ranks check them: root, and the element type and count of its significant buffer (null: none). */
interface Rooted {
  readonly root: number;
  readonly type: string | null;
  readonly n: number;
  /** At the root of gatherv and scatterv: the count of each remote rank. */
  readonly counts?: Int32Array;
}

const NOTHING = new Uint8Array(0);

/**
 * What an intercommunicator's calls stand on: its two groups, the contexts and transports of
 * its collectives, their arguments' checks against MPI's root rules and how they run. `InterComm`
 * adds the calls.
 */
export abstract class InterBase extends CommBase {
  /** Communicators made from this one so far: all ranks of both groups make them in the same order. */
  protected children = 0;
  /** Collective calls this rank has made on this intercommunicator. */
  protected collCalls = 0;
  protected ledger: CollLedger | null = null;
  protected bases: { local: CollTransport; remote: CollTransport } | null = null;
  protected labels: [string, string] | null = null;
  protected lastRun: CollRun | null = null;

  /** Number of ranks in the local group (MPI_Comm_size). */
  override get size(): number {
    return this.local.members.length;
  }

  /** The local group (MPI_Comm_group). */
  override get group(): Group {
    return new Group(Array.from(this.local.members), this.proc.rank);
  }

  /** Number of ranks in the remote group (MPI_Comm_remote_size). */
  get remoteSize(): number {
    return this.remote.members.length;
  }

  /** The remote group (MPI_Comm_remote_group). */
  get remoteGroup(): Group {
    return new Group(Array.from(this.remote.members), this.proc.rank);
  }

  /** World rank of rank `r` of the remote group (the ranks point-to-point calls name). */
  override worldRank(r: number): number {
    if (!Number.isInteger(r) || r < 0 || r >= this.remote.members.length) throw new MpiError('MPI_ERR_RANK', `worldRank: r=${String(r)} is not a rank of the remote group (0..${this.remote.members.length - 1})`);
    return this.remote.members[r]!;
  }


  protected constructor(
    world: MpiWorld,
    proc: Proc,
    state: RankState,
    shape: CommShape,
    /** The local group. */
    protected readonly local: InterGroup,
    /** The remote group (its members are `shape.members`). */
    protected readonly remote: InterGroup,
    /** Whether the local group is the low one: its rank 0 has the lower world rank (MPICH's `is_low_group`). */
    protected readonly low: boolean,
    protected readonly makeComm: CommMaker,
  ) {
    super(world, proc, state, shape);
  }

  // ---------------------------------------------------------------- the collectives' arguments

  protected barrierIn(call: string, blocking: boolean): Request {
    this.agree({ call });
    return this.collStart(call, inter.interBarrier(this.transports), 'barrier', blocking);
  }

  protected bcastIn(call: string, a: unknown[], blocking = true): Request {
    const [buf, root] = this.shortForm<[ReduceArray | null, number]>(call, a, 2);
    this.checkRoot(call, root);
    const b = root === PROC_NULL ? null : this.buf(call, 'buf', buf);
    this.agreeRooted(call, { root, type: typeOf(b), n: b?.length ?? 0 }, 'elements in buf');
    return this.collStart(call, inter.interBcast(this.transports, b ?? NOTHING, root), 'bcast', blocking);
  }

  protected reduceIn(call: string, a: unknown[], blocking = true): Request {
    const [sendBuf, recvBuf, op, root] = this.shortForm<[ReduceArray | null, ReduceArray | null, Op, number]>(call, a, 4);
    this.checkRoot(call, root);
    const send = root >= 0 ? this.buf(call, 'sendBuf', sendBuf) : null;
    const recv = root === ROOT ? this.buf(call, 'recvBuf', recvBuf) : null;
    const b = send ?? recv;
    if (b) checkOp(call, op, b);
    this.agreeRooted(call, { root, type: typeOf(b), n: b?.length ?? 0 }, 'elements', op);
    return this.collStart(call, inter.interReduce(this.transports, send, recv, op, root), 'reduce', blocking);
  }

  protected allreduceIn(call: string, a: unknown[], blocking = true): Request {
    const [sendBuf, recvBuf, op] = this.shortForm<[ReduceArray, ReduceArray, Op]>(call, a, 3);
    const send = this.buf(call, 'sendBuf', sendBuf);
    const recv = this.buf(call, 'recvBuf', recvBuf);
    sameShape(call, send, recv);
    checkOp(call, op, send);
    this.agree({ call, op, type: send.constructor.name, count: send.length, countName: 'elements in sendBuf' });
    return this.collStart(call, inter.interAllreduce(this.transports, send, recv, op), 'allreduce', blocking);
  }

  protected allgatherIn(call: string, a: unknown[], blocking = true): Request {
    const [sendBuf, recvBuf] = this.shortForm<[ReduceArray, ReduceArray]>(call, a, 2);
    const send = this.buf(call, 'sendBuf', sendBuf);
    const recv = this.buf(call, 'recvBuf', recvBuf);
    sameType(call, send, recv);
    const m = this.remoteSize;
    if (recv.length % m !== 0) throw new MpiError('MPI_ERR_COUNT', `${call}: recvBuf has ${recv.length} elements, not a multiple of the remote group's ${m} ranks`);
    this.agree({
      call,
      type: send.constructor.name,
      data: { send: send.length, per: recv.length / m },
      cross: this.pairs<{ send: number; per: number }>((x, y, xi, yi) => {
        if (this.sameGroup(xi, yi)) return null;
        if (x.per !== y.send) return `${this.who(yi)} sends ${y.send} elements but ${this.who(xi)} receives ${x.per} from each remote rank`;
        if (y.per !== x.send) return `${this.who(xi)} sends ${x.send} elements but ${this.who(yi)} receives ${y.per} from each remote rank`;
        return null;
      }),
    });
    return this.collStart(call, inter.interAllgather(this.transports, send, recv), 'allgather', blocking);
  }

  protected allgathervIn(call: string, a: unknown[], blocking = true): Request {
    const [sendBuf, recvBuf, counts, displs] = this.shortForm<[ReduceArray, ReduceArray, ArrayLike<number>, ArrayLike<number>]>(call, a, 4);
    const send = this.buf(call, 'sendBuf', sendBuf);
    const recv = this.buf(call, 'recvBuf', recvBuf);
    sameType(call, send, recv);
    blocksOf(call, 'counts', 'displs', counts, displs, this.remoteSize, recv.length);
    this.agree({ call, type: send.constructor.name, data: { send: send.length, counts: Int32Array.from(counts) }, cross: this.pairsOfCounts('counts') });
    return this.collStart(call, inter.interAllgatherv(this.transports, send, recv, counts, displs), 'allgatherv', blocking);
  }

  protected alltoallIn(call: string, a: unknown[], blocking = true): Request {
    const [sendBuf, recvBuf] = this.shortForm<[ReduceArray, ReduceArray]>(call, a, 2);
    const send = this.buf(call, 'sendBuf', sendBuf);
    const recv = this.buf(call, 'recvBuf', recvBuf);
    sameType(call, send, recv);
    const m = this.remoteSize;
    for (const [name, b] of [['sendBuf', send], ['recvBuf', recv]] as const) {
      if (b.length % m !== 0) throw new MpiError('MPI_ERR_COUNT', `${call}: ${name} has ${b.length} elements, not ${m} equal blocks (one per remote rank)`);
    }
    const per = (n: number): Int32Array => new Int32Array(m).fill(n / m);
    this.agree({ call, type: send.constructor.name, data: { send: per(send.length), recv: per(recv.length) }, cross: this.pairsOfBlocks() });
    return this.collStart(call, inter.interAlltoall(this.transports, send, recv), 'alltoall', blocking);
  }

  protected alltoallvIn(call: string, a: unknown[], blocking = true): Request {
    const [sendBuf, sendCounts, sendDispls, recvBuf, recvCounts, recvDispls] = this.shortForm<[ReduceArray, ArrayLike<number>, ArrayLike<number>, ReduceArray, ArrayLike<number>, ArrayLike<number>]>(call, a, 6);
    const send = this.buf(call, 'sendBuf', sendBuf);
    const recv = this.buf(call, 'recvBuf', recvBuf);
    sameType(call, send, recv);
    blocksOf(call, 'sendCounts', 'sendDispls', sendCounts, sendDispls, this.remoteSize, send.length);
    blocksOf(call, 'recvCounts', 'recvDispls', recvCounts, recvDispls, this.remoteSize, recv.length);
    this.agree({ call, type: send.constructor.name, data: { send: Int32Array.from(sendCounts), recv: Int32Array.from(recvCounts) }, cross: this.pairsOfBlocks() });
    return this.collStart(call, inter.interAlltoallv(this.transports, send, sendCounts, sendDispls, recv, recvCounts, recvDispls), 'alltoallv', blocking);
  }

  protected gatherIn(call: string, a: unknown[], blocking = true): Request {
    const [sendBuf, recvBuf, root] = this.shortForm<[ReduceArray | null, ReduceArray | null, number]>(call, a, 3);
    this.checkRoot(call, root);
    const send = root >= 0 ? this.buf(call, 'sendBuf', sendBuf) : null;
    const recv = root === ROOT ? this.buf(call, 'recvBuf', recvBuf) : null;
    const m = this.remoteSize;
    if (recv && recv.length % m !== 0) throw new MpiError('MPI_ERR_COUNT', `${call}: the root's recvBuf has ${recv.length} elements, not ${m} equal blocks (one per remote rank)`);
    this.agreeRooted(call, { root, type: typeOf(send ?? recv), n: send ? send.length : recv ? recv.length / m : 0 }, 'elements per rank');
    return this.collStart(call, inter.interGather(this.transports, send, recv, root), 'gather', blocking);
  }

  protected gathervIn(call: string, a: unknown[], blocking = true): Request {
    const [sendBuf, recvBuf, counts, displs, root] = this.shortForm<[ReduceArray | null, ReduceArray | null, ArrayLike<number> | null, ArrayLike<number> | null, number]>(call, a, 5);
    this.checkRoot(call, root);
    const send = root >= 0 ? this.buf(call, 'sendBuf', sendBuf) : null;
    const recv = root === ROOT ? this.buf(call, 'recvBuf', recvBuf) : null;
    if (recv) blocksOf(call, 'counts', 'displs', counts, displs, this.remoteSize, recv.length);
    this.agreeRooted(call, { root, type: typeOf(send ?? recv), n: send?.length ?? 0, counts: recv ? Int32Array.from(counts!) : undefined }, null);
    return this.collStart(call, inter.interGatherv(this.transports, send, recv, counts, displs, root), 'gatherv', blocking);
  }

  protected scatterIn(call: string, a: unknown[], blocking = true): Request {
    const [sendBuf, recvBuf, root] = this.shortForm<[ReduceArray | null, ReduceArray | null, number]>(call, a, 3);
    this.checkRoot(call, root);
    const send = root === ROOT ? this.buf(call, 'sendBuf', sendBuf) : null;
    const recv = root >= 0 ? this.buf(call, 'recvBuf', recvBuf) : null;
    const m = this.remoteSize;
    if (send && send.length % m !== 0) throw new MpiError('MPI_ERR_COUNT', `${call}: the root's sendBuf has ${send.length} elements, not ${m} equal blocks (one per remote rank)`);
    this.agreeRooted(call, { root, type: typeOf(send ?? recv), n: recv ? recv.length : send ? send.length / m : 0 }, 'elements per rank');
    return this.collStart(call, inter.interScatter(this.transports, send, recv, root), 'scatter', blocking);
  }

  protected scattervIn(call: string, a: unknown[], blocking = true): Request {
    const [sendBuf, counts, displs, recvBuf, root] = this.shortForm<[ReduceArray | null, ArrayLike<number> | null, ArrayLike<number> | null, ReduceArray | null, number]>(call, a, 5);
    this.checkRoot(call, root);
    const send = root === ROOT ? this.buf(call, 'sendBuf', sendBuf) : null;
    const recv = root >= 0 ? this.buf(call, 'recvBuf', recvBuf) : null;
    if (send) blocksOf(call, 'counts', 'displs', counts, displs, this.remoteSize, send.length);
    this.agreeRooted(call, { root, type: typeOf(send ?? recv), n: recv?.length ?? 0, counts: send ? Int32Array.from(counts!) : undefined }, null);
    return this.collStart(call, inter.interScatterv(this.transports, send, counts, displs, recv, root), 'scatterv', blocking);
  }

  protected reduceScatterIn(call: string, a: unknown[], blocking = true): Request {
    const [sendBuf, recvBuf, recvCounts, op] = this.shortForm<[ReduceArray, ReduceArray, ArrayLike<number>, Op]>(call, a, 4);
    const send = this.buf(call, 'sendBuf', sendBuf);
    const recv = this.buf(call, 'recvBuf', recvBuf);
    sameType(call, send, recv);
    countsOf(call, 'recvCounts', recvCounts, this.size);
    let total = 0;
    for (let r = 0; r < this.size; r++) total += recvCounts[r]!;
    if (total !== send.length) throw new MpiError('MPI_ERR_COUNT', `${call}: recvCounts add up to ${total} but sendBuf has ${send.length} elements`);
    if (recv.length < recvCounts[this.rank]!) throw new MpiError('MPI_ERR_COUNT', `${call}: recvBuf has ${recv.length} elements, fewer than recvCounts[${this.rank}] = ${recvCounts[this.rank]}`);
    checkOp(call, op, send);
    this.agree({
      call,
      op,
      type: send.constructor.name,
      count: send.length,
      countName: 'elements in sendBuf',
      data: Int32Array.from(recvCounts),
      cross: this.pairs<Int32Array>((x, y, xi, yi) => (this.sameGroup(xi, yi) && x.some((c, i) => c !== y[i]) ? `${this.who(xi)} passes recvCounts [${x.join(', ')}] but ${this.who(yi)} passes [${y.join(', ')}]` : null)),
    });
    return this.collStart(call, inter.interReduceScatter(this.transports, send, recv, recvCounts, op), 'reduceScatter', blocking);
  }

  protected reduceScatterBlockIn(call: string, a: unknown[], blocking = true): Request {
    const [sendBuf, recvBuf, op] = this.shortForm<[ReduceArray, ReduceArray, Op]>(call, a, 3);
    const send = this.buf(call, 'sendBuf', sendBuf);
    const recv = this.buf(call, 'recvBuf', recvBuf);
    sameType(call, send, recv);
    if (send.length !== recv.length * this.size) throw new MpiError('MPI_ERR_COUNT', `${call}: sendBuf must hold ${this.size} x recvBuf (${recv.length}) elements, got ${send.length}`);
    checkOp(call, op, send);
    this.agree({ call, op, type: send.constructor.name, count: send.length, countName: 'elements in sendBuf' });
    return this.collStart(call, inter.interReduceScatterBlock(this.transports, send, recv, op), 'reduceScatterBlock', blocking);
  }

  // ---------------------------------------------------------------- running them

  /** The local group and the remote one as the algorithms of coll/inter.ts see them, for the current call. */
  protected get transports(): inter.InterTransport {
    const b = (this.bases ??= this.makeBases());
    return { local: tagged(b.local, this.collCalls), remote: tagged(b.remote, this.collCalls), low: this.low, pick: (coll, bytes, op) => this.pick(coll, bytes, op) };
  }

  protected makeBases(): { local: CollTransport; remote: CollTransport } {
    const { world, proc, local } = this;
    const me = proc.rank;
    const cpu = proc.machine.config.cpu;
    const common = { rank: this.rank, flopsPerPs: cpu.flopsPerPs, copyBytesPerPs: world.params.copyBytesPerPs, skeleton: proc.skeleton };
    return {
      local: {
        ...common,
        size: this.size,
        isend: (buf, dest, tag, what) => world.isend(me, buf, local.members[dest]!, tag, local.ctx + 1, what),
        irecv: (buf, source, tag, what) => world.irecv(me, buf, 1, local.members[source]!, tag, local.ctx + 1, what, local.inv),
      },
      remote: {
        ...common,
        size: this.remoteSize,
        isend: (buf, dest, tag, what) => this.collIsend(buf, dest, tag, what),
        irecv: (buf, source, tag, what) => this.collIrecv(buf, source, tag, what),
      },
    };
  }

  /** The algorithm of a phase on the local group: the run's choice for the collective, else its selector's rules (flat, one rank per node). */
  protected pick<C extends Collective>(coll: C, bytes: number, op?: Op): CollectiveFns[C] {
    const named = this.world.algorithms[coll];
    return selectAlgorithm(coll, this.size, bytes, op, named === CE_ALGORITHM ? undefined : named, { selector: SELECTORS[this.world.params.collSelector] }).fn;
  }

  /** Starts a collective's schedule; returns its request (see CollRun). */
  protected collStart(call: string, alg: Coll, coll: keyof typeof inter.INTER_ALGORITHMS, blocking: boolean): Request {
    this.world.observer?.algorithm(this.proc.rank, `intercomm ${inter.INTER_ALGORITHMS[coll]}`);
    const P = this.world.params;
    const run = new CollRun(this.proc, alg, call, this.world.progressOf(this.proc.rank), P.collectiveOverheadPs, P.collectiveStepPs, blocking, P.testOverheadPs);
    watchRounds(run, this.world.observer, this.proc.rank);
    this.lastRun = run;
    return blocking ? run.start() : this.track(run.start());
  }

  /** Waits for the blocking collective `collStart` just started, naming what it waits for if it never ends. */
  protected async finish(req: Request): Promise<void> {
    const run = this.lastRun!;
    this.lastRun = null;
    await req.wait(() => run.describe());
  }

  // ---------------------------------------------------------------- checks

  /**
   * Records this rank's entry into a collective and checks it against the other ranks' of both
   * groups (the call, and what `c` asks to compare); MpiError naming both ranks when they differ.
   */
  protected agree(c: CollCall): void {
    this.live(c.call);
    this.collCalls++;
    if (!this.ledger) {
      const [lo, hi] = this.low ? [this.local, this.remote] : [this.remote, this.local];
      const all = new Int32Array(lo.members.length + hi.members.length);
      all.set(lo.members);
      all.set(hi.members, lo.members.length);
      const [a, b] = this.groupLabels();
      const names = { who: (i: number) => this.who(i), ranks: (list: readonly number[]) => this.someRanks(list) };
      this.ledger = this.world.registry.ledgerFor(this.shape.ctx, all, `the intercommunicator of context ${this.shape.ctx} (groups ${a} and ${b})`, names);
    }
    this.ledger.enter(this.low ? this.rank : this.remoteSize + this.rank, c);
  }

  /**
   * A rooted collective's agreement: MPI's root conventions, then element type and count among
   * the ranks whose buffers matter (`countName` null: the v forms, whose root's counts are checked instead).
   */
  protected agreeRooted(call: string, mine: Rooted, countName: string | null, op?: Op): void {
    this.agree({
      call,
      op,
      data: mine,
      cross: this.pairs<Rooted>((x, y, xi, yi) => {
        const clash = this.rootClash(x.root, y.root, xi, yi);
        if (clash) return clash;
        if (x.type === null || y.type === null) return null;
        if (x.type !== y.type) return ['MPI_ERR_TYPE', `${this.who(xi)} passes ${x.type} data but ${this.who(yi)} passes ${y.type} data`];
        // the root of gatherv or scatterv against a rank of the other group
        const [root, ri, other, oi] = x.counts ? [x, xi, y, yi] : [y, yi, x, xi];
        if (root.counts) {
          if (this.sameGroup(ri, oi)) return null;
          const r = this.localRankOf(oi);
          return root.counts[r] === other.n ? null : `${this.who(oi)} has ${other.n} elements but the root's counts[${r}] is ${root.counts[r]}`;
        }
        return countName === null || x.n === y.n ? null : `${this.who(xi)} passes ${x.n} ${countName} but ${this.who(yi)} passes ${y.n}`;
      }),
    });
  }

  /**
   * What is wrong with two ranks' root arguments, MPI's way (MPI 4.1 §6.2.2): in the root's group
   * the root passes ROOT and the others PROC_NULL; every rank of the other group passes the root's
   * rank in its group.
   */
  protected rootClash(a: number, b: number, ai: number, bi: number): CrossError | null {
    const err = (why: string): CrossError => ['MPI_ERR_ROOT', why];
    const same = this.sameGroup(ai, bi);
    if (same) {
      if (a === ROOT && b === ROOT) return err(`${this.who(ai)} and ${this.who(bi)} both pass root=mpi.ROOT: one rank of the root's group passes it, the others mpi.PROC_NULL`);
      if (a >= 0 && b >= 0) return a === b ? null : err(`${this.who(ai)} passes root=${a} but ${this.who(bi)} passes root=${b}`);
      if (a >= 0 || b >= 0) return err(`${this.who(ai)} passes root=${fmtRoot(a)} but ${this.who(bi)} passes root=${fmtRoot(b)}: the ranks of the root's group pass mpi.ROOT or mpi.PROC_NULL, those of the other group the root's rank`);
      return null;
    }
    if (a >= 0 && b >= 0) return err(`${this.who(ai)} passes root=${a} and ${this.who(bi)} root=${b}: each names a root in the other's group, so neither group holds it`);
    if (a < 0 && b < 0) return err(`${this.who(ai)} passes root=${fmtRoot(a)} and ${this.who(bi)} root=${fmtRoot(b)}: only the root's group passes mpi.ROOT or mpi.PROC_NULL`);
    const [named, by, holds, hi] = a >= 0 ? [a, ai, b, bi] : [b, bi, a, ai];
    const r = this.localRankOf(hi);
    if (holds === ROOT && named !== r) return err(`${this.who(by)} passes root=${named} but the root is ${this.who(hi)}, which passes mpi.ROOT`);
    if (holds === PROC_NULL && named === r) return err(`${this.who(by)} passes root=${named} but that rank passes mpi.PROC_NULL, not mpi.ROOT`);
    return null;
  }

  /** allgatherv: the counts each rank gives for the other group match what its ranks send. */
  protected pairsOfCounts(name: string): CollCall['cross'] {
    return this.pairs<{ send: number; counts: Int32Array }>((x, y, xi, yi) => {
      if (this.sameGroup(xi, yi)) return null;
      const [rx, ry] = [this.localRankOf(xi), this.localRankOf(yi)];
      if (x.counts[ry] !== y.send) return `${this.who(yi)} sends ${y.send} elements but ${this.who(xi)} expects ${x.counts[ry]} (${name}[${ry}])`;
      if (y.counts[rx] !== x.send) return `${this.who(xi)} sends ${x.send} elements but ${this.who(yi)} expects ${y.counts[rx]} (${name}[${rx}])`;
      return null;
    });
  }

  /** alltoall(v): what each rank sends to a remote rank is what that rank expects from it, both ways. */
  protected pairsOfBlocks(): CollCall['cross'] {
    return this.pairs<{ send: Int32Array; recv: Int32Array }>((x, y, xi, yi) => {
      if (this.sameGroup(xi, yi)) return null;
      const [rx, ry] = [this.localRankOf(xi), this.localRankOf(yi)];
      if (x.send[ry] !== y.recv[rx]) return `${this.who(xi)} sends ${x.send[ry]} elements to ${this.who(yi)}, which expects ${y.recv[rx]}`;
      if (y.send[rx] !== x.recv[ry]) return `${this.who(yi)} sends ${y.send[rx]} elements to ${this.who(xi)}, which expects ${x.recv[ry]}`;
      return null;
    });
  }

  /** A ledger check of every pair of ranks' data, with their indexes in the ledger (the low group's ranks first). */
  protected pairs<T>(check: (x: T, y: T, xi: number, yi: number) => CrossError | null): CollCall['cross'] {
    return (mine, me, other, them) => check(mine as T, other as T, me, them);
  }

  protected get lowSize(): number {
    return this.low ? this.size : this.remoteSize;
  }

  protected sameGroup(ai: number, bi: number): boolean {
    return ai < this.lowSize === bi < this.lowSize;
  }

  protected localRankOf(i: number): number {
    return i < this.lowSize ? i : i - this.lowSize;
  }

  /** `rank 2 of group [3-7]`: a rank of the ledger (the low group's ranks first), named in its group. */
  protected who(i: number): string {
    const [a, b] = this.groupLabels();
    return i < this.lowSize ? `rank ${i} of group ${a}` : `rank ${i - this.lowSize} of group ${b}`;
  }

  /** `ranks 0-2 of group [0-2] and rank 4 of group [3-7]`: ranks of the ledger (increasing), named in their groups. */
  protected someRanks(list: readonly number[]): string {
    const labels = this.groupLabels();
    const parts: string[] = [];
    for (const [g, ranks] of [list.filter((i) => i < this.lowSize), list.filter((i) => i >= this.lowSize).map((i) => i - this.lowSize)].entries()) {
      if (ranks.length > 0) parts.push(`${ranks.length === 1 ? 'rank' : 'ranks'} ${ranges(ranks)} of group ${labels[g]}`);
    }
    return parts.join(' and ');
  }

  /** The low and high groups as `[0-2]` and `[3-7]` (their world ranks). */
  protected groupLabels(): [string, string] {
    if (!this.labels) {
      const [lo, hi] = this.low ? [this.local, this.remote] : [this.remote, this.local];
      this.labels = [`[${ranges(Array.from(lo.members))}]`, `[${ranges(Array.from(hi.members))}]`];
    }
    return this.labels;
  }

  /** A root argument: mpi.ROOT, mpi.PROC_NULL, or a rank of the remote group. */
  protected checkRoot(call: string, root: number): void {
    const m = this.remoteSize;
    if (root === ROOT || root === PROC_NULL || (Number.isInteger(root) && root >= 0 && root < m)) return;
    throw new MpiError('MPI_ERR_ROOT', `${call}: root=${root} must be mpi.ROOT (this rank is the root), mpi.PROC_NULL (another rank of its group is) or the root's rank in the remote group (0..${m - 1})`);
  }

  /** A collective's buffer: a numeric typed array (MPI_IN_PLACE has no meaning on an intercommunicator). */
  protected buf(call: string, name: string, v: unknown): ReduceArray {
    if (v === IN_PLACE) throw new MpiError('MPI_ERR_BUFFER', `${call}: ${name} may not be mpi.IN_PLACE on an intercommunicator`);
    return collBuf(call, name, v);
  }

  /** The arguments of a collective's short form: the (buffer, count, datatype) forms and per-call options are not taken on an intercommunicator. */
  protected shortForm<T extends unknown[]>(call: string, a: unknown[], n: number): T {
    if (a.length > n || a.some((v) => v instanceof Datatype)) {
      throw new MpiError('MPI_ERR_ARG', `${call}: on an intercommunicator only the short form (typed arrays, no options) is available; got ${a.length} arguments, expected ${n}`);
    }
    return a as T;
  }

  /** Ranks of point-to-point calls are ranks of the remote group. */
  protected override checkRank(call: string, name: string, v: number, wildcard: boolean): void {
    this.live(call);
    const m = this.remoteSize;
    const ok = Number.isInteger(v) && ((v >= 0 && v < m) || v === PROC_NULL || (wildcard && v === ANY_SOURCE));
    if (!ok) throw new MpiError('MPI_ERR_RANK', `${call}: ${name}=${v} is not a rank of the remote group (0..${m - 1}${wildcard ? ', mpi.ANY_SOURCE' : ''} or mpi.PROC_NULL)`);
  }

  /** Key naming the next communicator made from this one (the same on every rank of both groups). */
  protected childKey(what: string): string {
    return `${this.shape.ctx}/${this.children++}/${what}`;
  }
}

function typeOf(b: ReduceArray | null): string | null {
  return b ? b.constructor.name : null;
}

function fmtRoot(r: number): string {
  return r === ROOT ? 'mpi.ROOT' : r === PROC_NULL ? 'mpi.PROC_NULL' : String(r);
}

/** `n` non-negative integer counts. */
function countsOf(call: string, name: string, a: ArrayLike<number> | null, n: number): void {
  if (!a || typeof a.length !== 'number' || a.length !== n) throw new MpiError('MPI_ERR_COUNT', `${call}: ${name} must have ${n} entries, got ${describe(a)}`);
  for (let i = 0; i < n; i++) if (!Number.isInteger(a[i]) || a[i]! < 0) throw new MpiError('MPI_ERR_COUNT', `${call}: ${name}[${i}]=${a[i]} must be a non-negative integer`);
}

/** Counts and displacements of `n` blocks (one per remote rank), each inside a buffer of `length` elements. */
function blocksOf(call: string, countsName: string, displsName: string, counts: ArrayLike<number> | null, displs: ArrayLike<number> | null, n: number, length: number): void {
  countsOf(call, countsName, counts, n);
  countsOf(call, displsName, displs, n);
  for (let i = 0; i < n; i++) {
    if (displs![i]! + counts![i]! > length) throw new MpiError('MPI_ERR_COUNT', `${call}: block ${i} (${displsName}[${i}]=${displs![i]}, ${countsName}[${i}]=${counts![i]}) runs past the buffer's ${length} elements`);
  }
}

