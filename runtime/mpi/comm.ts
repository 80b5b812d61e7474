import { balancedDims } from '../../fabric/topology/torus.ts';
import type { Proc } from '../proc.ts';
import { bytesOf, PROC_NULL, type MpiWorld } from './core.ts';
import { CollComm } from './comm-coll.ts';
import { CollBase } from './comm-coll-base.ts';
import { PersistentCollComm } from './comm-persistent-coll.ts';
import { TopoComm } from './comm-topo.ts';
import type { CommShape, RankState } from './comm-base.ts';
import { describe, TAG_UB, UNDEFINED } from './constants.ts';
import { Group } from './group.ts';
import { mpiCalls } from '../calls.ts';
import { CommBase } from './comm-base.ts';
import { RequestComm } from './comm-requests.ts';
import { guardMethods } from './errhandler.ts';
import { InterComm } from './intercomm.ts';
import { MpiError, waitAll, type Request } from './request.ts';
import { CartTopology } from './topology.ts';
import { checkInfo, type Info } from './info.ts';
import { COMM_TYPE_HW_GUIDED, COMM_TYPE_HW_UNGUIDED, COMM_TYPE_RESOURCE_GUIDED, COMM_TYPE_SHARED, HW_RESOURCE_KEY, HW_RESOURCES, hwInstance, UNGUIDED_LEVELS } from './split-type.ts';
import { commHints, infoOf, NO_HINTS } from './comm-info.ts';
import { allocateShared, checkDispUnit, checkSize, makeWindow, type AllocatedWin } from './rma/create.ts';
import { viewBytes, type Win, type WinHost } from './rma/window.ts';

export { CommBase, RankState, type CommShape } from './comm-base.ts';
export { CollComm } from './comm-coll.ts';
export { RequestComm } from './comm-requests.ts';
export { BSEND_OVERHEAD, describe, IN_PLACE, TAG_UB, UNDEFINED, type CollOptions } from './constants.ts';
export { Group } from './group.ts';
export { InterComm } from './intercomm.ts';

export { COMM_TYPE_HW_GUIDED, COMM_TYPE_HW_UNGUIDED, COMM_TYPE_RESOURCE_GUIDED, COMM_TYPE_SHARED } from './split-type.ts';

/**
 * A communicator as one rank sees it (MPI_Comm): point-to-point calls, communicator management
 * and Cartesian topologies. Ranks, sources and destinations are ranks of this communicator;
 * messages of different communicators never match each other, and the library's collective
 * traffic never matches user messages.
 */
export class Comm extends TopoComm<Comm> {
  private name = '';
  /** The info hints in effect (comm-info.ts): a dup keeps them, dupWithInfo and setInfo replace them. */
  private hints: ReadonlyMap<string, string> = NO_HINTS;
  /** createGroup calls per (group, tag) so far: its members make them in the same order. */
  private groupCalls: Map<string, number> | null = null;

  // ---------------------------------------------------------------- communicators

  /** A copy with the same ranks and new contexts (MPI_Comm_dup; collective). */
  async dup(): Promise<Comm> {
    const comm = this.copy('dup', this.hints);
    await this.barrier();
    return comm;
  }

  /** A dup whose info hints are those of `info`, not this communicator's (MPI_Comm_dup_with_info; collective). */
  async dupWithInfo(info: Info | null): Promise<Comm> {
    const comm = this.copy('dupWithInfo', commHints('dupWithInfo', info));
    await this.barrier();
    return comm;
  }

  /** The copy of dup and its forms: a new context agreed as `call`, carrying `hints`. */
  private copy(call: string, hints: ReadonlyMap<string, string>): Comm {
    const key = this.childKey('dup');
    this.agree({ call });
    const comm = this.copyWith(this.world.registry.contextFor(key));
    comm.hints = hints;
    return comm;
  }

  /** Sets the communicator's info hints to those of `info` that MPI defines (MPI_Comm_set_info; collective). */
  setInfo(info: Info | null): void {
    this.live('setInfo');
    const hints = commHints('setInfo', info);
    this.agree({ call: 'setInfo' });
    this.hints = hints;
  }

  /** A new info object with the hints in effect (MPI_Comm_get_info); the program frees it. */
  getInfo(): Info {
    this.live('getInfo');
    return infoOf(this.hints);
  }

  /**
   * Splits the communicator by `color` (MPI_Comm_split; collective): ranks with the same color
   * form a new communicator, ordered by `key` then by rank here. Color UNDEFINED gives null.
   */
  async split(color: number, key = 0): Promise<Comm | null> {
    if (!Number.isInteger(color) || (color < 0 && color !== UNDEFINED)) throw new MpiError('MPI_ERR_ARG', `split: color=${color} must be a non-negative integer or mpi.UNDEFINED`);
    if (!Number.isInteger(key)) throw new MpiError('MPI_ERR_ARG', `split: key=${key} must be an integer`);
    const base = this.childKey('split');
    this.agree({ call: 'split' });
    // every rank's (color, key)
    const all = new Int32Array(2 * this.size);
    await this.allgather(Int32Array.of(color, key), all);
    if (color === UNDEFINED) return null;
    const order: number[] = [];
    for (let r = 0; r < this.size; r++) if (all[2 * r] === color) order.push(r);
    order.sort((a, b) => all[2 * a + 1]! - all[2 * b + 1]! || a - b);
    return this.sub(order.map((r) => this.shape.members[r]!), `${base}:${color}`);
  }

  /**
   * A communicator of the ranks of `group` (MPI_Comm_create; collective over this one); null for
   * ranks outside it. As MPI 2.2 allows, ranks may pass different, disjoint groups (odd ranks the
   * odd group, even ranks the even one): each group becomes a communicator of its own. The members
   * of one group must pass the same group (MPI_ERR_GROUP names both versions otherwise).
   */
  async create(group: Group): Promise<Comm | null> {
    if (!(group instanceof Group)) throw new MpiError('MPI_ERR_GROUP', `create: expected a Group, got ${describe(group)}`);
    const inv = this.shape.inv;
    group.ranks.forEach((w) => {
      if (!(inv ? inv[w]! >= 0 : w < this.size)) throw new MpiError('MPI_ERR_GROUP', `create: world rank ${w} of the group is not in this communicator`);
    });
    const base = this.childKey('create');
    this.agree({ call: 'create' });
    await this.barrier();
    if (!group.ranks.includes(this.proc.rank)) return null;
    // disjoint groups have distinct least members: one communicator per group
    const key = `${base}:${Math.min(...group.ranks)}`;
    const first = this.world.registry.memo(`${key}:group`, () => ({ ranks: group.ranks.slice(), by: this.rank }));
    if (first.ranks.length !== group.ranks.length || first.ranks.some((w, i) => w !== group.ranks[i])) {
      throw new MpiError('MPI_ERR_GROUP', `create: rank ${this.rank} passes the group of world ranks [${group.ranks.join(', ')}], but rank ${first.by}, a member too, passed [${first.ranks.join(', ')}]`);
    }
    return this.sub(group.ranks, key);
  }

  /**
   * A Cartesian communicator (MPI_Cart_create; collective): ranks are laid out row-major (the last
   * dimension varies fastest) on `dims`; ranks beyond the grid get null. `reorder` is accepted
   * and ignored (ranks keep their order).
   */
  async cartCreate(dims: readonly number[], periods: readonly boolean[], reorder = false): Promise<CartComm | null> {
    void reorder;
    if (!Array.isArray(dims) || dims.some((d) => !Number.isInteger(d) || d < 1)) throw new MpiError('MPI_ERR_DIMS', `cartCreate: dims=${JSON.stringify(dims)} must be positive integers`);
    if (!Array.isArray(periods) || periods.length !== dims.length) throw new MpiError('MPI_ERR_ARG', `cartCreate: periods must have one entry per dimension (${dims.length}), got ${JSON.stringify(periods)}`);
    const n = dims.reduce((a, b) => a * b, 1);
    if (n > this.size) throw new MpiError('MPI_ERR_DIMS', `cartCreate: the grid ${dims.join('x')} has ${n} ranks, more than the communicator's ${this.size}`);
    const key = this.childKey('cart');
    this.agree({ call: 'cartCreate', counts: dims, countsName: 'dims' });
    await this.barrier();
    if (this.rank >= n) return null;
    const members = this.shape.members.slice(0, n);
    return this.inherit(new CartComm(this.world, this.proc, this.state, this.shapeOf(members, key), dims, periods.map(Boolean)));
  }

  /**
   * An intercommunicator between this communicator's group and another, disjoint one
   * (MPI_Intercomm_create; collective over both groups). Every rank of a group passes the same
   * `localLeader` (its leader's rank here) and `tag`; at the leader, `peerComm` is an
   * intracommunicator holding both leaders and `remoteLeader` the other leader's rank in it
   * (elsewhere they are not used). The leaders swap their groups over `peerComm` with messages of
   * tag `tag` (so no other message of that tag should be pending there), then each broadcasts the
   * other group in its own, as MPICH does.
   */
  async intercommCreate(localLeader: number, peerComm: Comm | null, remoteLeader: number, tag: number): Promise<InterComm> {
    const call = 'intercommCreate';
    this.live(call);
    if (!Number.isInteger(localLeader) || localLeader < 0 || localLeader >= this.size) throw new MpiError('MPI_ERR_RANK', `${call}: localLeader=${localLeader} is not a rank of the local communicator (0..${this.size - 1})`);
    if (!Number.isInteger(tag) || tag < 0 || tag > TAG_UB) throw new MpiError('MPI_ERR_TAG', `${call}: tag=${tag} must be an integer from 0 to ${TAG_UB}`);
    const leader = this.rank === localLeader;
    if (leader) {
      if (!(peerComm instanceof Comm)) throw new MpiError('MPI_ERR_COMM', `${call}: peerComm must be an intracommunicator holding both leaders, got ${describe(peerComm)}`);
      peerComm.live(call);
      if (!Number.isInteger(remoteLeader) || remoteLeader < 0 || remoteLeader >= peerComm.size) throw new MpiError('MPI_ERR_RANK', `${call}: remoteLeader=${remoteLeader} is not a rank of peerComm (0..${peerComm.size - 1})`);
      if (peerComm.shape.members[remoteLeader] === this.proc.rank) throw new MpiError('MPI_ERR_RANK', `${call}: remoteLeader=${remoteLeader} is this rank, the local leader: the two leaders must be different processes`);
    }
    this.agree({
      call,
      data: [localLeader, tag],
      cross: (mine, me, other, them) => {
        const [a, b] = [mine as number[], other as number[]];
        if (a[0] !== b[0]) return ['MPI_ERR_RANK', `rank ${me} passes localLeader=${a[0]} but rank ${them} passes ${b[0]}`];
        return a[1] === b[1] ? null : ['MPI_ERR_TAG', `rank ${me} passes tag=${a[1]} but rank ${them} passes ${b[1]}`];
      },
    });
    // the local group agrees on a context (MPICH: an allreduce over it), then learns the remote group from its leader
    await this.barrier();
    const info = new Int32Array(1);
    let remote: Int32Array | null = leader ? await this.swapGroups(peerComm!, remoteLeader, tag) : null;
    if (remote) info[0] = remote.length;
    await this.bcast(info, localLeader);
    remote ??= new Int32Array(info[0]!);
    await this.bcast(remote, localLeader);
    const local = this.shape.members;
    const lowHere = local[0]! < remote[0]!;
    const [low, high] = lowHere ? [local, remote] : [remote, local];
    const id = `${tag}:${low.join(',')}|${high.join(',')}`;
    const n = this.state.intercomms.get(id) ?? 0;
    this.state.intercomms.set(id, n + 1);
    const { world, proc, state } = this;
    return this.inherit(InterComm.make(world, proc, state, `intercomm/${id}/${n}`, low, high, (shape) => new Comm(world, proc, state, shape)));
  }

  /**
   * The leader's part of intercommCreate: sends this group's size and members to the remote leader
   * (rank `remoteLeader` of `peerComm`) and receives its group's, in two exchanges of tag `tag`.
   */
  private async swapGroups(peerComm: Comm, remoteLeader: number, tag: number): Promise<Int32Array> {
    const call = 'intercommCreate';
    const { world, proc } = this;
    const me = proc.rank;
    const peer = peerComm.shape.members[remoteLeader]!;
    const what = `${call}(remote leader ${remoteLeader}, tag=${tag})`;
    const active = world.registry.memo('intercomm-active', () => new Map<number, number>());
    active.set(me, (active.get(me) ?? 0) + 1);
    try {
      this.checkLeaderTags(active, me, peer, tag);
      const swap = async (mine: Int32Array, theirs: Int32Array): Promise<void> => {
        const r = world.irecv(me, bytesOf(theirs), 4, peer, tag, peerComm.shape.ctx, what, peerComm.shape.inv);
        const s = world.isend(me, bytesOf(mine), peer, tag, peerComm.shape.ctx, what);
        await waitAll(proc, [r, s], () => what);
      };
      const size = new Int32Array(1);
      await swap(Int32Array.of(this.size), size);
      const remote = new Int32Array(size[0]!);
      await swap(this.shape.members, remote);
      return remote;
    } finally {
      active.set(me, active.get(me)! - 1);
    }
  }

  /**
   * Both leaders must pass one tag: MPI would hang on a mismatch, phit names it when it is sure,
   * that is when each leader is in this one intercommCreate only (`active`: each world rank's
   * leader parts in progress). The first leader to arrive leaves its tag for the other.
   */
  private checkLeaderTags(active: Map<number, number>, me: number, peer: number, tag: number): void {
    const pending = this.world.registry.memo('intercomm-leaders', () => new Map<string, { rank: number; tag: number }>());
    const pair = `${Math.min(me, peer)}-${Math.max(me, peer)}`;
    const first = pending.get(pair);
    if (first && first.rank !== me) {
      if (first.tag === tag) pending.delete(pair);
      else if (active.get(me) === 1 && active.get(peer) === 1) {
        throw new MpiError('MPI_ERR_TAG', `intercommCreate: this leader (world rank ${me}) passes tag=${tag} but the remote leader (world rank ${peer}) passed tag=${first.tag}`);
      }
    } else if (!first && active.get(me) === 1) {
      pending.set(pair, { rank: me, tag });
    }
  }

  // ---------------------------------------------------------------- communicator calls

  /**
   * How this communicator relates to `other` (MPI_Comm_compare; local): 'ident' (the same
   * communicator), 'congruent' (the same ranks in the same order), 'similar' (the same ranks in
   * another order) or 'unequal'.
   */
  compare(other: Comm | InterComm): 'ident' | 'congruent' | 'similar' | 'unequal' {
    this.live('compare');
    if (!(other instanceof CommBase)) throw new MpiError('MPI_ERR_COMM', `compare: expected a communicator, got ${describe(other)}`);
    if (!(other instanceof Comm)) return 'unequal'; // an intercommunicator
    if (other.shape.ctx === this.shape.ctx) return 'ident';
    const g = this.group.compare(other.group);
    return g === 'ident' ? 'congruent' : g;
  }

  /** Frees the communicator (MPI_Comm_free; collective): any later call on it fails with MPI_ERR_COMM. */
  async free(): Promise<void> {
    this.live('free');
    if (this.predefined()) throw new MpiError('MPI_ERR_COMM', `free: ${this.getName()} cannot be freed`);
    this.agree({ call: 'free' });
    this.freed = true;
  }

  /**
   * Frees the communicator once the communication on it is over (MPI_Comm_disconnect; collective):
   * it waits for the operations started on it that are still in progress (a request freed with
   * requestFree, a buffered send's copy, a started persistent operation; inactive persistent
   * requests are none), then for every rank to get there; any later call on it fails with
   * MPI_ERR_COMM. MPI_COMM_WORLD and MPI_COMM_SELF cannot be disconnected.
   */
  async disconnect(): Promise<void> {
    this.live('disconnect');
    if (this.predefined()) throw new MpiError('MPI_ERR_COMM', `disconnect: ${this.getName()} cannot be disconnected`);
    this.agree({ call: 'disconnect' });
    await this.drain('disconnect');
    await this.barrier();
    this.freed = true;
  }

  /**
   * Splits by hardware (MPI_Comm_split_type; collective), ordered by `key` then by rank here;
   * UNDEFINED gives null. COMM_TYPE_SHARED: the ranks of each node. COMM_TYPE_HW_GUIDED and
   * COMM_TYPE_RESOURCE_GUIDED: the ranks on each instance of the resource `info`'s
   * `mpi_hw_resource_type` names (split-type.ts lists the values and what they are on phit's
   * machines; every rank passes the same, MPI_ERR_INFO naming two that differ); null for everyone
   * without the key or with a value phit does not model. COMM_TYPE_HW_UNGUIDED: the widest level
   * (router, node, socket, core) that splits the ranks into strict subsets, whose name the call
   * sets in `info`; null if none does. The new communicator takes `info`'s hints, as dupWithInfo.
   */
  async splitType(type: number, key = 0, info?: Info | null): Promise<Comm | null> {
    const call = 'splitType';
    if (![COMM_TYPE_SHARED, COMM_TYPE_HW_GUIDED, COMM_TYPE_HW_UNGUIDED, COMM_TYPE_RESOURCE_GUIDED, UNDEFINED].includes(type)) {
      throw new MpiError('MPI_ERR_ARG', `${call}: type=${type} must be mpi.COMM_TYPE_SHARED, mpi.COMM_TYPE_HW_GUIDED, mpi.COMM_TYPE_HW_UNGUIDED, mpi.COMM_TYPE_RESOURCE_GUIDED or mpi.UNDEFINED`);
    }
    const hints = commHints(call, info);
    const guided = type === COMM_TYPE_HW_GUIDED || type === COMM_TYPE_RESOURCE_GUIDED;
    const value = guided ? (info?.get(HW_RESOURCE_KEY) ?? '') : null;
    this.agree({
      call,
      data: value,
      cross: (mine, me, other, them) => (mine !== null && other !== null && mine !== other ? ['MPI_ERR_INFO', `rank ${me} passes ${HW_RESOURCE_KEY}='${String(mine)}' but rank ${them} passes '${String(other)}'`] : null),
    });
    let comm: Comm | null;
    if (type === COMM_TYPE_HW_UNGUIDED) {
      // as MPICH: the ranks that take part first, then the widest level that splits them
      const part = (await this.split(0, key))!;
      const members = Array.from(part.shape.members);
      const level = UNGUIDED_LEVELS.find(([l]) => {
        const n = new Map<number, number>();
        for (const w of members) n.set(hwInstance(this.world, this.proc, w, l), (n.get(hwInstance(this.world, this.proc, w, l)) ?? 0) + 1);
        return Math.max(...n.values()) < members.length;
      });
      comm = level ? await part.split(hwInstance(this.world, this.proc, this.proc.rank, level[0]), key) : null;
      await part.free();
      if (comm && info) info.set(HW_RESOURCE_KEY, level![1]);
    } else {
      const level = type === COMM_TYPE_SHARED ? 'node' : value !== null ? HW_RESOURCES[value] : undefined;
      comm = await this.split(type === UNDEFINED || level === undefined ? UNDEFINED : hwInstance(this.world, this.proc, this.proc.rank, level), key);
    }
    if (comm) comm.hints = hints;
    return comm;
  }

  /**
   * Nonblocking dup (MPI_Comm_idup): the copy at once and a request; the copy may be used once
   * the request has completed.
   */
  idup(): { comm: Comm; request: Request } {
    const comm = this.copy('idup', this.hints);
    return { comm, request: this.ibarrier() };
  }

  /** Nonblocking dupWithInfo (MPI_Comm_idup_with_info): the copy, with `info`'s hints, and a request. */
  idupWithInfo(info: Info | null): { comm: Comm; request: Request } {
    const comm = this.copy('idupWithInfo', commHints('idupWithInfo', info));
    return { comm, request: this.ibarrier() };
  }

  /** Names the communicator (MPI_Comm_set_name; local). */
  setName(name: string): void {
    this.live('setName');
    if (typeof name !== 'string') throw new MpiError('MPI_ERR_ARG', `setName: name must be a string, got ${describe(name)}`);
    this.name = name;
  }

  /** The communicator's name (MPI_Comm_get_name): MPI_COMM_WORLD, MPI_COMM_SELF, or what setName gave ('' if none). */
  getName(): string {
    this.live('getName');
    return this.name || (this.shape.ctx === 0 ? 'MPI_COMM_WORLD' : '');
  }

  /**
   * A communicator of the ranks of `group` (MPI_Comm_create_group): collective over the group's
   * ranks only, which must all pass the same group and `tag`; other ranks do not take part.
   */
  async createGroup(group: Group, tag = 0): Promise<Comm> {
    this.live('createGroup');
    if (!(group instanceof Group)) throw new MpiError('MPI_ERR_GROUP', `createGroup: expected a Group, got ${describe(group)}`);
    if (!Number.isInteger(tag) || tag < 0) throw new MpiError('MPI_ERR_TAG', `createGroup: tag=${tag} must be a non-negative integer`);
    const inv = this.shape.inv;
    group.ranks.forEach((w) => {
      if (!(inv ? inv[w]! >= 0 : w < this.size)) throw new MpiError('MPI_ERR_GROUP', `createGroup: world rank ${w} of the group is not in this communicator`);
    });
    if (!group.ranks.includes(this.proc.rank)) throw new MpiError('MPI_ERR_GROUP', `createGroup: only the group's ranks call it, and rank ${this.rank} is not in it`);
    const id = `${tag}:${group.ranks.join(',')}`;
    const calls = (this.groupCalls ??= new Map());
    const n = calls.get(id) ?? 0;
    calls.set(id, n + 1);
    const comm = this.sub(group.ranks, `${this.shape.ctx}/group/${id}/${n}`);
    await comm.barrier();
    return comm;
  }

  /** Whether the communicator is MPI_COMM_WORLD or MPI_COMM_SELF (which cannot be freed). */
  protected predefined(): boolean {
    return this.shape.ctx === 0 || this.isSelf;
  }

  private isSelf = false;

  /** MPI_COMM_SELF of a rank: the rank alone. */
  static self(world: MpiWorld, proc: Proc, state: RankState): Comm {
    const c = world.registry.commFor(`self/${proc.rank}`, [proc.rank]);
    const comm = new Comm(world, proc, state, { ...c, rank: 0 });
    comm.name = 'MPI_COMM_SELF';
    comm.isSelf = true;
    return comm;
  }

  // ---------------------------------------------------------------- one-sided windows (rma/)

  /** A window over `buf` (MPI_Win_create; collective); `dispUnit` defaults to the size of buf's elements; `info`'s hints are accepted and ignored. */
  async winCreate(buf: ArrayBufferView, dispUnit?: number, info?: Info | null): Promise<Win> {
    checkInfo('winCreate', info);
    const mem = viewBytes('winCreate', buf);
    const unit = dispUnit ?? ('BYTES_PER_ELEMENT' in buf ? (buf as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT : 1);
    checkDispUnit('winCreate', unit);
    return makeWindow(await this.winHost('winCreate'), 'create', mem, unit, 4096);
  }

  /** A window over `bytes` of memory the library allocates (MPI_Win_allocate; collective): `{ win, buf }`. */
  async winAllocate(bytes: number, dispUnit = 1, info?: Info | null): Promise<AllocatedWin> {
    checkInfo('winAllocate', info);
    checkSize('winAllocate', bytes);
    checkDispUnit('winAllocate', dispUnit);
    const buf = new Uint8Array(bytes);
    const win = await makeWindow(await this.winHost('winAllocate'), 'allocate', buf, dispUnit, this.proc.machine.config.dmapp.heapPageBytes);
    return { win, buf };
  }

  /**
   * A window over memory that the communicator's ranks, all on one node, share (MPI_Win_allocate_shared;
   * collective): `{ win, buf }`; `win.sharedQuery(r)` gives rank r's segment to load and store.
   */
  async winAllocateShared(bytes: number, dispUnit = 1, info?: Info | null): Promise<AllocatedWin> {
    checkInfo('winAllocateShared', info);
    checkSize('winAllocateShared', bytes);
    checkDispUnit('winAllocateShared', dispUnit);
    const node = this.proc.node;
    if (!this.shape.members.every((w) => this.world.procs[w]!.node === node)) {
      throw new MpiError('MPI_ERR_RMA_SHARED', `winAllocateShared: the communicator's ${this.size} ranks are not all on one node (split it by node first)`);
    }
    return allocateShared(await this.winHost('winAllocateShared'), bytes, dispUnit);
  }

  /** A window without memory, to which each rank attaches its own (MPI_Win_create_dynamic; collective). */
  async winCreateDynamic(info?: Info | null): Promise<Win> {
    checkInfo('winCreateDynamic', info);
    return makeWindow(await this.winHost('winCreateDynamic'), 'dynamic', null, 1, 4096);
  }

  /** What a new window is made on: a duplicate of this communicator, for its own collectives. */
  private async winHost(call: string): Promise<WinHost> {
    this.agree({ call });
    const comm = await this.dup();
    return { world: this.world, proc: this.proc, comm, key: `win:${comm.shape.ctx}` };
  }

  /** A copy of this communicator on context `ctx`, with its topology and error handler (dup, idup). */
  protected copyWith(ctx: number): Comm {
    const c = this.inherit(new Comm(this.world, this.proc, this.state, { ...this.shape, ctx }));
    c.topology = this.topology;
    return c;
  }

  protected sub(members: readonly number[], key: string): Comm {
    return this.inherit(new Comm(this.world, this.proc, this.state, this.shapeOf(members, key)));
  }
}

/**
 * A communicator with a Cartesian topology (MPI_Cart_*): row-major rank order, the last
 * dimension varying fastest.
 */
export class CartComm extends Comm {
  /** This rank's coordinates. */
  readonly coords: readonly number[];

  constructor(
    world: MpiWorld,
    proc: Proc,
    state: RankState,
    shape: CommShape,
    readonly dims: readonly number[],
    readonly periods: readonly boolean[],
  ) {
    super(world, proc, state, shape);
    this.topology = new CartTopology(dims, periods);
    this.coords = this.cartCoords(shape.rank);
  }

  protected override copyWith(ctx: number): CartComm {
    return this.inherit(new CartComm(this.world, this.proc, this.state, { ...this.shape, ctx }, this.dims, this.periods));
  }

  /** Coordinates of rank `rank` (MPI_Cart_coords). */
  cartCoords(rank: number): number[] {
    if (!Number.isInteger(rank) || rank < 0 || rank >= this.size) throw new MpiError('MPI_ERR_RANK', `cartCoords: rank=${rank} is not a rank of the grid (0..${this.size - 1})`);
    const c = new Array<number>(this.dims.length);
    let r = rank;
    for (let d = this.dims.length - 1; d >= 0; d--) {
      c[d] = r % this.dims[d]!;
      r = Math.floor(r / this.dims[d]!);
    }
    return c;
  }

  /** Rank at `coords` (MPI_Cart_rank): periodic dimensions wrap, others must be in range. */
  cartRank(coords: readonly number[]): number {
    if (!Array.isArray(coords) || coords.length !== this.dims.length) throw new MpiError('MPI_ERR_ARG', `cartRank: coords must have ${this.dims.length} entries, got ${JSON.stringify(coords)}`);
    let r = 0;
    for (let d = 0; d < this.dims.length; d++) {
      const n = this.dims[d]!;
      let c = coords[d]!;
      if (!Number.isInteger(c)) throw new MpiError('MPI_ERR_ARG', `cartRank: coords[${d}]=${c} is not an integer`);
      if (this.periods[d]) c = ((c % n) + n) % n;
      else if (c < 0 || c >= n) throw new MpiError('MPI_ERR_ARG', `cartRank: coords[${d}]=${c} is outside the non-periodic dimension 0..${n - 1}`);
      r = r * n + c;
    }
    return r;
  }

  /**
   * Neighbours along `direction` at distance `disp` (MPI_Cart_shift): `dest` is the rank `disp`
   * ahead, `source` the one `disp` behind; PROC_NULL off the edge of a non-periodic dimension.
   */
  cartShift(direction: number, disp: number): { source: number; dest: number } {
    if (!Number.isInteger(direction) || direction < 0 || direction >= this.dims.length) throw new MpiError('MPI_ERR_DIMS', `cartShift: direction=${direction} must be 0..${this.dims.length - 1}`);
    if (!Number.isInteger(disp)) throw new MpiError('MPI_ERR_ARG', `cartShift: disp=${disp} must be an integer`);
    const at = (delta: number): number => {
      const c = [...this.coords];
      c[direction]! += delta;
      const n = this.dims[direction]!;
      if (!this.periods[direction] && (c[direction]! < 0 || c[direction]! >= n)) return PROC_NULL;
      return this.cartRank(c);
    };
    return { source: at(-disp), dest: at(disp) };
  }

  /**
   * Sub-grids keeping the dimensions where `remainDims` is true (MPI_Cart_sub; collective): the
   * ranks that share their coordinates in the dropped dimensions form one new CartComm.
   */
  async cartSub(remainDims: readonly boolean[]): Promise<CartComm> {
    if (!Array.isArray(remainDims) || remainDims.length !== this.dims.length) throw new MpiError('MPI_ERR_ARG', `cartSub: remainDims must have ${this.dims.length} entries, got ${JSON.stringify(remainDims)}`);
    const key = this.childKey('cartSub');
    this.agree({ call: 'cartSub', counts: remainDims.map(Number), countsName: 'remainDims' });
    await this.barrier();
    const keep = (d: number): boolean => Boolean(remainDims[d]);
    // the sub-grid's ranks in row-major order of the kept dimensions, the others fixed at mine
    const members: number[] = [];
    const c = [...this.coords];
    const walk = (d: number): void => {
      if (d === this.dims.length) {
        members.push(this.worldRank(this.cartRank(c)));
        return;
      }
      if (!keep(d)) return walk(d + 1);
      for (let x = 0; x < this.dims[d]!; x++) {
        c[d] = x;
        walk(d + 1);
      }
      c[d] = this.coords[d]!;
    };
    walk(0);
    const color = this.coords.map((x, d) => (keep(d) ? '*' : String(x))).join(',');
    const dims = this.dims.filter((_, d) => keep(d));
    const periods = this.periods.filter((_, d) => keep(d));
    return this.inherit(new CartComm(this.world, this.proc, this.state, this.shapeOf(members, `${key}:${color}`), dims, periods));
  }
}

/**
 * Balanced dimensions for `nnodes` ranks (MPI_Dims_create): entries of `dims` that are 0 are
 * filled, as close to each other as possible and in non-increasing order; non-zero entries stay.
 */
export function dimsCreate(nnodes: number, dims: readonly number[]): number[] {
  if (!Number.isInteger(nnodes) || nnodes < 1) throw new MpiError('MPI_ERR_ARG', `dimsCreate: nnodes=${nnodes} must be a positive integer`);
  if (!Array.isArray(dims) || dims.some((d) => !Number.isInteger(d) || d < 0)) throw new MpiError('MPI_ERR_DIMS', `dimsCreate: dims=${JSON.stringify(dims)} must be non-negative integers`);
  const fixed = dims.filter((d) => d > 0).reduce((a, b) => a * b, 1);
  if (nnodes % fixed !== 0) throw new MpiError('MPI_ERR_DIMS', `dimsCreate: the fixed dimensions (product ${fixed}) do not divide nnodes=${nnodes}`);
  const free = dims.filter((d) => d === 0).length;
  if (free === 0) {
    if (fixed !== nnodes) throw new MpiError('MPI_ERR_DIMS', `dimsCreate: dims=${JSON.stringify(dims)} give ${fixed} ranks, not ${nnodes}`);
    return [...dims];
  }
  const fill = balancedDims(nnodes / fixed, free);
  let k = 0;
  return dims.map((d) => (d > 0 ? d : fill[k++]!));
}

/** The public calls of a communicator that the error handler guards: the traced ones and these. */
const UNTRACED_CALLS = ['testInter', 'compare', 'setName', 'getName', 'topoTest', 'cartMap', 'graphMap', 'graphdimsGet', 'graphGet', 'graphNeighborsCount', 'graphNeighbors', 'distGraphNeighborsCount', 'distGraphNeighbors', 'cartCoords', 'cartRank', 'cartShift', 'setErrhandler', 'callErrhandler'];
const GUARDED = [...Object.keys(mpiCalls(1)), ...UNTRACED_CALLS];
for (const proto of [CommBase.prototype, RequestComm.prototype, CollBase.prototype, CollComm.prototype, PersistentCollComm.prototype, TopoComm.prototype, Comm.prototype, CartComm.prototype]) guardMethods(proto, GUARDED);
