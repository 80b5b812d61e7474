import { mpiCalls } from '../calls.ts';
import type { Proc } from '../proc.ts';
import * as inter from './coll/inter.ts';
import { InterBase, type CommMaker, type InterGroup } from './intercomm-base.ts';

export type { CommMaker } from './intercomm-base.ts';
import { CommBase, type CommShape, type RankState } from './comm-base.ts';
import type { Comm } from './comm.ts';
import { describe, IN_PLACE, UNDEFINED } from './constants.ts';
import { ranges } from './agreement.ts';
import { Group } from './group.ts';
import type { Datatype } from './datatype.ts';
import * as typed from './datatype-coll.ts';
import { type MpiWorld } from './core.ts';
import { guardMethods } from './errhandler.ts';
import type { Op, ReduceArray } from './ops.ts';
import { MpiError, type Request } from './request.ts';

/**
 * An intercommunicator as one rank sees it (MPI_Comm with two groups): `rank`, `size` and `group`
 * are those of the local group, `remoteSize` and `remoteGroup` those of the other one.
 * Point-to-point calls name ranks of the remote group (destinations, sources and `status.source`),
 * wildcards match any of them, and messages never match another communicator's. Collectives
 * follow MPI's intercommunicator rules (`mpi.ROOT`, `mpi.PROC_NULL`, data from one group to the
 * other) and run as MPICH runs them: collectives of the local group on a context of its own,
 * and messages between the groups, mostly between their rank 0 (see coll/inter.ts). Calls MPI
 * defines on intracommunicators only (topologies, neighbourhood collectives, scan, windows)
 * fail with MPI_ERR_COMM.
 */
export class InterComm extends InterBase {
  private constructor(world: MpiWorld, proc: Proc, state: RankState, shape: CommShape, local: InterGroup, remote: InterGroup, low: boolean, makeComm: CommMaker) {
    super(world, proc, state, shape, local, remote, low, makeComm);
  }

  /**
   * The intercommunicator named `key` between the groups of world ranks `lowMembers` (whose rank 0
   * has the lower world rank) and `highMembers`, for the calling rank, a member of one of them.
   */
  static make(world: MpiWorld, proc: Proc, state: RankState, key: string, lowMembers: ArrayLike<number>, highMembers: ArrayLike<number>, makeComm: CommMaker): InterComm {
    const lo = world.registry.commFor(`${key}/low`, lowMembers);
    const hi = world.registry.commFor(`${key}/high`, highMembers);
    const inLow = lo.inv[proc.rank]! >= 0;
    const [local, remote] = inLow ? [lo, hi] : [hi, lo];
    const shape: CommShape = { members: remote.members, inv: remote.inv, ctx: world.registry.contextFor(key), rank: local.inv[proc.rank]! };
    return new InterComm(world, proc, state, shape, local, remote, inLow, makeComm);
  }

  /** True: this is an intercommunicator (MPI_Comm_test_inter). */
  override testInter(): boolean {
    this.live('testInter');
    return true;
  }

  // ---------------------------------------------------------------- communicators

  /** A copy with the same groups and new contexts (MPI_Comm_dup; collective over both groups). */
  async dup(): Promise<InterComm> {
    const comm = this.copy('dup');
    await this.barrier();
    return comm;
  }

  /** The copy of dup and idup: the same groups on a new context, agreed as `call`. */
  private copy(call: string): InterComm {
    const key = this.childKey('dup');
    this.agree({ call });
    const [lo, hi] = this.low ? [this.local, this.remote] : [this.remote, this.local];
    return this.inherit(InterComm.make(this.world, this.proc, this.state, key, lo.members, hi.members, this.makeComm));
  }

  /**
   * Nonblocking dup (MPI_Comm_idup; collective over both groups): the copy at once and a request
   * (an ibarrier over both groups); the copy may be used once the request has completed.
   */
  idup(): { comm: InterComm; request: Request } {
    this.live('idup');
    const comm = this.copy('idup');
    return { comm, request: this.ibarrier() };
  }

  /**
   * Compares with another communicator (MPI_Comm_compare): 'ident' for the same intercommunicator,
   * 'congruent' when both groups have the same members in the same order, 'similar' when they
   * have the same members, else 'unequal' (always for an intracommunicator).
   */
  compare(other: Comm | InterComm): 'ident' | 'congruent' | 'similar' | 'unequal' {
    this.live('compare');
    if (!(other instanceof CommBase)) throw new MpiError('MPI_ERR_COMM', `compare: expected a communicator, got ${describe(other)}`);
    if (!(other instanceof InterComm)) return 'unequal';
    if (other.shape.ctx === this.shape.ctx) return 'ident';
    const l = this.group.compare(other.group);
    const r = this.remoteGroup.compare(other.remoteGroup);
    if (l === 'ident' && r === 'ident') return 'congruent';
    return l !== 'unequal' && r !== 'unequal' ? 'similar' : 'unequal';
  }

  /** Names the intercommunicator (MPI_Comm_set_name; local). */
  setName(name: string): void {
    this.live('setName');
    if (typeof name !== 'string') throw new MpiError('MPI_ERR_ARG', `setName: name must be a string, got ${describe(name)}`);
    this.name = name;
  }

  /** The intercommunicator's name (MPI_Comm_get_name): what setName gave, '' if none. */
  getName(): string {
    this.live('getName');
    return this.name;
  }
  private name = '';

  /** Frees the intercommunicator (MPI_Comm_free; collective): any later call on it fails with MPI_ERR_COMM. */
  async free(): Promise<void> {
    this.agree({ call: 'free' });
    this.freed = true;
  }

  /**
   * Frees the intercommunicator once the communication on it is over (MPI_Comm_disconnect;
   * collective over both groups): as `Comm.disconnect`, it waits for the operations started on it
   * that are still in progress, then for every rank of both groups.
   */
  async disconnect(): Promise<void> {
    this.agree({ call: 'disconnect' });
    await this.drain('disconnect');
    await this.barrier();
    this.freed = true;
  }

  /**
   * The intracommunicator of both groups (MPI_Intercomm_merge; collective over both): the group
   * that passes `high` false comes first; when both pass the same value, the low group (the one
   * whose rank 0 has the lower world rank) comes first, as in MPICH. Every rank of a group passes
   * the same `high`. The leaders swap their values and each broadcasts the other's in its group.
   */
  async intercommMerge(high: boolean): Promise<Comm> {
    const call = 'intercommMerge';
    this.live(call);
    if (typeof high !== 'boolean') throw new MpiError('MPI_ERR_ARG', `${call}: high must be true or false, got ${describe(high)}`);
    const key = this.childKey('merge');
    this.agree({
      call,
      data: high,
      cross: this.pairs<boolean>((a, b, ai, bi) => (this.sameGroup(ai, bi) && a !== b ? ['MPI_ERR_ARG', `${this.who(ai)} passes high=${a} but ${this.who(bi)} passes high=${b}: the ranks of one group pass the same value`] : null)),
    });
    const theirs = new Int32Array(1);
    await this.finish(this.collStart(call, inter.interExchange(this.transports, Int32Array.of(high ? 1 : 0), theirs), 'intercommMerge', true));
    const localFirst = high === (theirs[0] === 1) ? this.low : !high;
    const [first, second] = localFirst ? [this.local, this.remote] : [this.remote, this.local];
    const c = this.world.registry.commFor(key, [...first.members, ...second.members]);
    const merged = this.inherit(this.makeComm({ ...c, rank: c.inv[this.proc.rank]! }));
    // the new communicator's context is agreed over all its ranks (MPICH: an allreduce on it)
    await merged.barrier();
    return merged;
  }

  /**
   * Splits both groups by `color` (MPI_Comm_split on an intercommunicator; collective over both
   * groups): the ranks of a group with one color, ordered by `key` then by rank, become the local
   * group of a new intercommunicator whose remote group is the other group's ranks of that color,
   * ordered the same way. A color that only one group has gives null there, as does UNDEFINED.
   * As in MPICH, each group learns its own (color, key) pairs by an allgather among its ranks and
   * the other group's by an allgather over the intercommunicator.
   */
  async split(color: number, key = 0): Promise<InterComm | null> {
    const call = 'split';
    this.live(call);
    if (!Number.isInteger(color) || (color < 0 && color !== UNDEFINED)) throw new MpiError('MPI_ERR_ARG', `${call}: color=${color} must be a non-negative integer or mpi.UNDEFINED`);
    if (!Number.isInteger(key)) throw new MpiError('MPI_ERR_ARG', `${call}: key=${key} must be an integer`);
    const base = this.childKey('split');
    this.agree({ call });
    const mine = Int32Array.of(color, key);
    const theirs = new Int32Array(2 * this.remoteSize);
    await this.allgather(mine, theirs);
    const ours = new Int32Array(2 * this.size);
    const c = this.world.registry.commFor(`${base}/local/${this.low ? 'low' : 'high'}`, this.local.members);
    await this.makeComm({ ...c, rank: this.rank }).allgather(mine, ours);
    if (color === UNDEFINED) return null;
    const local = byColor(ours, this.local.members, color);
    const remote = byColor(theirs, this.remote.members, color);
    if (remote.length === 0) return null;
    return this.between(`${base}:${color}`, local, remote);
  }

  /**
   * An intercommunicator of subgroups of both groups (MPI_Comm_create on an intercommunicator;
   * collective over both groups): every rank passes a group of ranks of its local group (the same
   * group at every rank of one group, MPI_ERR_GROUP otherwise) and the result joins the two
   * groups, each in its group's order. Ranks outside their group get null; so does every rank when
   * either group is empty. The leaders swap their groups and each broadcasts the other's, as in MPICH.
   */
  async create(group: Group): Promise<InterComm | null> {
    const call = 'create';
    this.live(call);
    if (!(group instanceof Group)) throw new MpiError('MPI_ERR_GROUP', `${call}: expected a Group, got ${describe(group)}`);
    for (const w of group.ranks) {
      if (!(this.local.inv[w]! >= 0)) throw new MpiError('MPI_ERR_GROUP', `${call}: world rank ${w} of the group is not in the local group of the intercommunicator (world ranks ${ranges(Array.from(this.local.members))})`);
    }
    const base = this.childKey('create');
    const ranks = group.ranks.slice();
    this.agree({
      call,
      data: ranks,
      cross: this.pairs<number[]>((a, b, ai, bi) => (this.sameGroup(ai, bi) && (a.length !== b.length || a.some((w, i) => w !== b[i])) ? ['MPI_ERR_GROUP', `${this.who(ai)} passes the group of world ranks [${a.join(', ')}] but ${this.who(bi)} passes [${b.join(', ')}]: the ranks of one group pass the same group`] : null)),
    });
    const mine = new Int32Array(this.size).fill(-1);
    mine.set(ranks);
    const theirs = new Int32Array(this.remoteSize);
    await this.finish(this.collStart(call, inter.interExchange(this.transports, mine, theirs), 'create', true));
    const remote = Array.from(theirs).filter((w) => w >= 0);
    if (ranks.length === 0 || remote.length === 0 || !ranks.includes(this.proc.rank)) return null;
    return this.between(base, ranks, remote);
  }

  /** The intercommunicator named `key` of this rank's `local` group and the `remote` one (world ranks, in order), with this one's error handler. */
  private between(key: string, local: readonly number[], remote: readonly number[]): InterComm {
    const [lo, hi] = local[0]! < remote[0]! ? [local, remote] : [remote, local];
    return this.inherit(InterComm.make(this.world, this.proc, this.state, key, lo, hi, this.makeComm));
  }

  // ---------------------------------------------------------------- collectives

  /** Returns once every rank of both groups has called it (MPI_Barrier). */
  async barrier(): Promise<void> {
    await this.finish(this.barrierIn('barrier', true));
  }

  /** Nonblocking barrier (MPI_Ibarrier). */
  ibarrier(): Request {
    return this.barrierIn('ibarrier', false);
  }

  /**
   * The root's `buf` into the `buf` of every rank of the other group (MPI_Bcast): `root` is
   * mpi.ROOT at the root, mpi.PROC_NULL at the other ranks of its group (their `buf` is not used
   * and may be null), and the root's rank in the remote group at the ranks of the other group.
   */
  async bcast(buf: ReduceArray | null, root: number, ...more: never[]): Promise<void> {
    await this.finish(this.bcastIn('bcast', [buf, root, ...more]));
  }

  /** Nonblocking bcast (MPI_Ibcast). */
  ibcast(buf: ReduceArray | null, root: number, ...more: never[]): Request {
    return this.bcastIn('ibcast', [buf, root, ...more], false);
  }

  /**
   * The other group's `sendBuf`s combined with `op` into the root's `recvBuf` (MPI_Reduce; roots
   * as in `bcast`): the root passes only `recvBuf`, the ranks of the other group only `sendBuf`.
   */
  async reduce(sendBuf: ReduceArray | null, recvBuf: ReduceArray | null, op: Op, root: number, ...more: never[]): Promise<void> {
    await this.finish(this.reduceIn('reduce', [sendBuf, recvBuf, op, root, ...more]));
  }

  /** Nonblocking reduce (MPI_Ireduce). */
  ireduce(sendBuf: ReduceArray | null, recvBuf: ReduceArray | null, op: Op, root: number, ...more: never[]): Request {
    return this.reduceIn('ireduce', [sendBuf, recvBuf, op, root, ...more], false);
  }

  /** The other group's `sendBuf`s combined with `op` into every rank's `recvBuf` (MPI_Allreduce): each group gets the other's reduction. */
  async allreduce(sendBuf: ReduceArray, recvBuf: ReduceArray, op: Op, ...more: never[]): Promise<void> {
    await this.finish(this.allreduceIn('allreduce', [sendBuf, recvBuf, op, ...more]));
  }

  /** Nonblocking allreduce (MPI_Iallreduce). */
  iallreduce(sendBuf: ReduceArray, recvBuf: ReduceArray, op: Op, ...more: never[]): Request {
    return this.allreduceIn('iallreduce', [sendBuf, recvBuf, op, ...more], false);
  }

  /** Every remote rank's `sendBuf`, in remote rank order, into every rank's `recvBuf` (MPI_Allgather; recvBuf holds remoteSize blocks). */
  async allgather(sendBuf: ReduceArray, recvBuf: ReduceArray, ...more: never[]): Promise<void> {
    await this.finish(this.allgatherIn('allgather', [sendBuf, recvBuf, ...more]));
  }

  /** Nonblocking allgather (MPI_Iallgather). */
  iallgather(sendBuf: ReduceArray, recvBuf: ReduceArray, ...more: never[]): Request {
    return this.allgatherIn('iallgather', [sendBuf, recvBuf, ...more], false);
  }

  /** Remote rank r's `sendBuf` into every rank's `recvBuf` at `displs[r]`, `counts[r]` elements (MPI_Allgatherv; one entry per remote rank). */
  async allgatherv(sendBuf: ReduceArray, recvBuf: ReduceArray, counts: ArrayLike<number>, displs: ArrayLike<number>, ...more: never[]): Promise<void> {
    await this.finish(this.allgathervIn('allgatherv', [sendBuf, recvBuf, counts, displs, ...more]));
  }

  /** Nonblocking allgatherv (MPI_Iallgatherv). */
  iallgatherv(sendBuf: ReduceArray, recvBuf: ReduceArray, counts: ArrayLike<number>, displs: ArrayLike<number>, ...more: never[]): Request {
    return this.allgathervIn('iallgatherv', [sendBuf, recvBuf, counts, displs, ...more], false);
  }

  /** Block j of `sendBuf` to remote rank j, whose block from local rank i lands in block i of its `recvBuf` (MPI_Alltoall; remoteSize blocks each). */
  async alltoall(sendBuf: ReduceArray, recvBuf: ReduceArray, ...more: never[]): Promise<void> {
    await this.finish(this.alltoallIn('alltoall', [sendBuf, recvBuf, ...more]));
  }

  /** Nonblocking alltoall (MPI_Ialltoall). */
  ialltoall(sendBuf: ReduceArray, recvBuf: ReduceArray, ...more: never[]): Request {
    return this.alltoallIn('ialltoall', [sendBuf, recvBuf, ...more], false);
  }

  /** MPI_Alltoallv: `sendCounts[j]` elements from `sendDispls[j]` to remote rank j, landing at its `recvDispls[i]` (one entry per remote rank). */
  async alltoallv(sendBuf: ReduceArray, sendCounts: ArrayLike<number>, sendDispls: ArrayLike<number>, recvBuf: ReduceArray, recvCounts: ArrayLike<number>, recvDispls: ArrayLike<number>, ...more: never[]): Promise<void> {
    await this.finish(this.alltoallvIn('alltoallv', [sendBuf, sendCounts, sendDispls, recvBuf, recvCounts, recvDispls, ...more]));
  }

  /** Nonblocking alltoallv (MPI_Ialltoallv). */
  ialltoallv(sendBuf: ReduceArray, sendCounts: ArrayLike<number>, sendDispls: ArrayLike<number>, recvBuf: ReduceArray, recvCounts: ArrayLike<number>, recvDispls: ArrayLike<number>, ...more: never[]): Request {
    return this.alltoallvIn('ialltoallv', [sendBuf, sendCounts, sendDispls, recvBuf, recvCounts, recvDispls, ...more], false);
  }

  /**
   * MPI_Alltoallw: `sendCounts[j]` elements of `sendTypes[j]` from byte `sendDispls[j]` to remote
   * rank j, landing as `recvCounts[i]` elements of `recvTypes[i]` at byte `recvDispls[i]` (one
   * entry per remote rank; no IN_PLACE on an intercommunicator). Non-contiguous blocks are packed
   * and unpacked at the library's packing cost.
   */
  async alltoallw(sendBuf: ArrayBufferView, sendCounts: ArrayLike<number>, sendDispls: ArrayLike<number>, sendTypes: readonly Datatype[], recvBuf: ArrayBufferView, recvCounts: ArrayLike<number>, recvDispls: ArrayLike<number>, recvTypes: readonly Datatype[]): Promise<void> {
    this.live('alltoallw');
    noInPlace('alltoallw', sendBuf);
    return typed.alltoallw(this.byteExchange('alltoallw'), this.packer, [sendBuf, sendCounts, sendDispls, sendTypes, recvBuf, recvCounts, recvDispls, recvTypes]) as Promise<void>;
  }

  /** Nonblocking alltoallw (MPI_Ialltoallw). */
  ialltoallw(sendBuf: ArrayBufferView, sendCounts: ArrayLike<number>, sendDispls: ArrayLike<number>, sendTypes: readonly Datatype[], recvBuf: ArrayBufferView, recvCounts: ArrayLike<number>, recvDispls: ArrayLike<number>, recvTypes: readonly Datatype[]): Request {
    this.live('ialltoallw');
    noInPlace('ialltoallw', sendBuf);
    return typed.alltoallw(this.byteExchange('ialltoallw'), this.packer, [sendBuf, sendCounts, sendDispls, sendTypes, recvBuf, recvCounts, recvDispls, recvTypes], 'nonblocking', 'ialltoallw') as Request;
  }

  /** The alltoallv of packed bytes that the w-form runs, one block per remote rank. */
  private byteExchange(call: string): typed.ByteExchange {
    return {
      size: this.remoteSize,
      alltoallv: (s, sc, sd, r, rc, rd) => this.finish(this.alltoallvIn(call, [s, sc, sd, r, rc, rd])),
      ialltoallv: (s, sc, sd, r, rc, rd) => this.alltoallvIn(call, [s, sc, sd, r, rc, rd], false),
    };
  }

  /** Every rank of the other group's `sendBuf`, in its rank order, into the root's `recvBuf` (MPI_Gather; roots as in `bcast`). */
  async gather(sendBuf: ReduceArray | null, recvBuf: ReduceArray | null, root: number, ...more: never[]): Promise<void> {
    await this.finish(this.gatherIn('gather', [sendBuf, recvBuf, root, ...more]));
  }

  /** Nonblocking gather (MPI_Igather). */
  igather(sendBuf: ReduceArray | null, recvBuf: ReduceArray | null, root: number, ...more: never[]): Request {
    return this.gatherIn('igather', [sendBuf, recvBuf, root, ...more], false);
  }

  /** Remote rank r's `sendBuf` into the root's `recvBuf` at `displs[r]` (MPI_Gatherv; counts and displs, one per remote rank, at the root). */
  async gatherv(sendBuf: ReduceArray | null, recvBuf: ReduceArray | null, counts: ArrayLike<number> | null, displs: ArrayLike<number> | null, root: number, ...more: never[]): Promise<void> {
    await this.finish(this.gathervIn('gatherv', [sendBuf, recvBuf, counts, displs, root, ...more]));
  }

  /** Nonblocking gatherv (MPI_Igatherv). */
  igatherv(sendBuf: ReduceArray | null, recvBuf: ReduceArray | null, counts: ArrayLike<number> | null, displs: ArrayLike<number> | null, root: number, ...more: never[]): Request {
    return this.gathervIn('igatherv', [sendBuf, recvBuf, counts, displs, root, ...more], false);
  }

  /** Block r of the root's `sendBuf` into the `recvBuf` of rank r of the other group (MPI_Scatter; roots as in `bcast`). */
  async scatter(sendBuf: ReduceArray | null, recvBuf: ReduceArray | null, root: number, ...more: never[]): Promise<void> {
    await this.finish(this.scatterIn('scatter', [sendBuf, recvBuf, root, ...more]));
  }

  /** Nonblocking scatter (MPI_Iscatter). */
  iscatter(sendBuf: ReduceArray | null, recvBuf: ReduceArray | null, root: number, ...more: never[]): Request {
    return this.scatterIn('iscatter', [sendBuf, recvBuf, root, ...more], false);
  }

  /** `counts[r]` elements from `displs[r]` of the root's `sendBuf` into the `recvBuf` of remote rank r (MPI_Scatterv). */
  async scatterv(sendBuf: ReduceArray | null, counts: ArrayLike<number> | null, displs: ArrayLike<number> | null, recvBuf: ReduceArray | null, root: number, ...more: never[]): Promise<void> {
    await this.finish(this.scattervIn('scatterv', [sendBuf, counts, displs, recvBuf, root, ...more]));
  }

  /** Nonblocking scatterv (MPI_Iscatterv). */
  iscatterv(sendBuf: ReduceArray | null, counts: ArrayLike<number> | null, displs: ArrayLike<number> | null, recvBuf: ReduceArray | null, root: number, ...more: never[]): Request {
    return this.scattervIn('iscatterv', [sendBuf, counts, displs, recvBuf, root, ...more], false);
  }

  /**
   * The other group's `sendBuf`s combined with `op`, block r (`recvCounts[r]` elements, one entry
   * per local rank) to local rank r (MPI_Reduce_scatter): both groups' `recvCounts` add up to the
   * same count, the length of every `sendBuf`.
   */
  async reduceScatter(sendBuf: ReduceArray, recvBuf: ReduceArray, recvCounts: ArrayLike<number>, op: Op, ...more: never[]): Promise<void> {
    await this.finish(this.reduceScatterIn('reduceScatter', [sendBuf, recvBuf, recvCounts, op, ...more]));
  }

  /** Nonblocking reduceScatter (MPI_Ireduce_scatter). */
  ireduceScatter(sendBuf: ReduceArray, recvBuf: ReduceArray, recvCounts: ArrayLike<number>, op: Op, ...more: never[]): Request {
    return this.reduceScatterIn('ireduceScatter', [sendBuf, recvBuf, recvCounts, op, ...more], false);
  }

  /** reduceScatter with `recvBuf.length` elements per local rank (MPI_Reduce_scatter_block): `sendBuf` holds size x recvBuf. */
  async reduceScatterBlock(sendBuf: ReduceArray, recvBuf: ReduceArray, op: Op, ...more: never[]): Promise<void> {
    await this.finish(this.reduceScatterBlockIn('reduceScatterBlock', [sendBuf, recvBuf, op, ...more]));
  }

  /** Nonblocking reduceScatterBlock (MPI_Ireduce_scatter_block). */
  ireduceScatterBlock(sendBuf: ReduceArray, recvBuf: ReduceArray, op: Op, ...more: never[]): Request {
    return this.reduceScatterBlockIn('ireduceScatterBlock', [sendBuf, recvBuf, op, ...more], false);
  }
}

/** Calls MPI defines on intracommunicators only: on an intercommunicator they fail with MPI_ERR_COMM. */
const INTRA_ONLY = [
  'intercommCreate',
  'createGroup',
  'cartCreate',
  'cartMap',
  'graphCreate',
  'graphMap',
  'distGraphCreate',
  'distGraphCreateAdjacent',
  'neighborAllgather',
  'neighborAllgatherv',
  'neighborAlltoall',
  'neighborAlltoallv',
  'ineighborAllgather',
  'ineighborAllgatherv',
  'ineighborAlltoall',
  'ineighborAlltoallv',
  'scan',
  'iscan',
  'exscan',
  'iexscan',
  'winCreate',
  'winAllocate',
  'winAllocateShared',
  'winCreateDynamic',
] as const;

/** Calls MPI allows on intercommunicators that phit does not implement there: MPI_ERR_COMM too, saying so. */
const NOT_ON_INTER = ['splitType', 'topoTest'] as const;

/** The world ranks of `members` whose (color, key) pair in `pairs` has `color`, ordered by key, then by rank. */
function byColor(pairs: Int32Array, members: Int32Array, color: number): number[] {
  const order: number[] = [];
  for (let r = 0; r < members.length; r++) if (pairs[2 * r] === color) order.push(r);
  order.sort((a, b) => pairs[2 * a + 1]! - pairs[2 * b + 1]! || a - b);
  return order.map((r) => members[r]!);
}

/** MPI_ERR_ARG for IN_PLACE, which MPI does not allow on an intercommunicator's alltoallw. */
function noInPlace(call: string, sendBuf: unknown): void {
  if (sendBuf === IN_PLACE) throw new MpiError('MPI_ERR_ARG', `${call}: IN_PLACE is not allowed on an intercommunicator`);
}

const proto = InterComm.prototype as unknown as Record<string, unknown>;
for (const name of INTRA_ONLY) {
  proto[name] = function (this: InterComm): never {
    throw new MpiError('MPI_ERR_COMM', `${name}: the communicator is an intercommunicator; ${name} takes an intracommunicator (merge the groups with intercommMerge first)`);
  };
}
for (const name of NOT_ON_INTER) {
  proto[name] = function (this: InterComm): never {
    throw new MpiError('MPI_ERR_COMM', `${name}: phit does not implement ${name} on intercommunicators (merge the groups with intercommMerge first)`);
  };
}

guardMethods(InterComm.prototype, [...new Set([...Object.keys(mpiCalls(1)), ...INTRA_ONLY, ...NOT_ON_INTER, 'testInter'])]);
