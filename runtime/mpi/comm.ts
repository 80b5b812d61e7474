import { balancedDims } from '../../fabric/topology/torus.ts';
import type { Proc } from '../proc.ts';
import { ANY_SOURCE, ANY_TAG, bytesOf, PROC_NULL, type MpiWorld, type SendMode } from './core.ts';
import type { CeResult } from '../../fabric/nic/collective-engine.ts';
import { CE_ALGORITHM, selectAlgorithm, type Algorithm, type Coll, type Collective, type CollTransport } from './coll/index.ts';
import { CollRun } from './coll-run.ts';
import { ceContribution, ceRefusal, ceTree, nodeCombine, nodeGroup, sharesNodes, writeCeResult, type NodeHost } from './node-collectives.ts';
import type { Op, ReduceArray } from './ops.ts';
import type { CollCall, CollLedger } from './agreement.ts';
import { MpiError, Request, waitAll, waitWoken, type Status } from './request.ts';

/** Stands for the send buffer of a collective whose data is already in its receive buffer (MPI_IN_PLACE). */
export const IN_PLACE: unique symbol = Symbol('MPI_IN_PLACE');

/** Per-call options of a collective. */
export interface CollOptions {
  /** Name of the algorithm to run (see `ALGORITHMS`); default: the run's choice, else MPICH's rules. */
  readonly algorithm?: string;
}

/** Largest tag value (MPI_TAG_UB). */
export const TAG_UB = 0x7fffffff;
/** Color of `split` for a rank that joins no new communicator (MPI_UNDEFINED, MPICH's value). */
export const UNDEFINED = -32766;

/** What one rank's communicators share: its attached buffer for buffered sends. */
export class RankState {
  /** Bytes of the buffer attached with `bufferAttach` (0: none). */
  bsendCapacity = 0;
  /** Buffered sends not yet seen complete, with the bytes each holds (bufferDetach waits for them). */
  readonly bsendPending = new Map<Request, number>();

  /**
   * Bytes of the buffer held by buffered sends still in progress; frees those that have
   * completed (as MPICH reclaims space at the next buffered send, not from a callback).
   */
  bsendUsed(): number {
    let used = 0;
    for (const [req, bytes] of this.bsendPending) {
      if (req.done) this.bsendPending.delete(req);
      else used += bytes;
    }
    return used;
  }
}

/** Per-message overhead MPI's buffered sends keep in the attached buffer (MPI_BSEND_OVERHEAD, MPICH). */
export const BSEND_OVERHEAD = 96;

/**
 * An ordered set of world ranks (MPI_Group). Groups are local objects: making one costs nothing
 * and needs no other rank.
 */
export class Group {
  /** World rank of each group rank. */
  readonly ranks: readonly number[];
  constructor(
    ranks: readonly number[],
    /** The caller's world rank, to tell its rank in the group. */
    private readonly me: number,
  ) {
    this.ranks = ranks;
  }

  get size(): number {
    return this.ranks.length;
  }

  /** The caller's rank in the group, or UNDEFINED. */
  get rank(): number {
    const r = this.ranks.indexOf(this.me);
    return r < 0 ? UNDEFINED : r;
  }

  /** Ranks in `other` of this group's `ranks` (UNDEFINED where absent; PROC_NULL stays PROC_NULL). */
  translateRanks(ranks: readonly number[], other: Group): number[] {
    return ranks.map((r, i) => {
      if (r === PROC_NULL) return PROC_NULL;
      if (!Number.isInteger(r) || r < 0 || r >= this.size) throw new MpiError('MPI_ERR_RANK', `translateRanks: ranks[${i}]=${r} is not a rank of the group (0..${this.size - 1})`);
      const k = other.ranks.indexOf(this.ranks[r]!);
      return k < 0 ? UNDEFINED : k;
    });
  }

  /** The group of this group's `ranks`, in that order (MPI_Group_incl). */
  incl(ranks: readonly number[]): Group {
    this.checkDistinct('incl', ranks);
    return new Group(ranks.map((r) => this.ranks[r]!), this.me);
  }

  /** This group without `ranks` (MPI_Group_excl). */
  excl(ranks: readonly number[]): Group {
    this.checkDistinct('excl', ranks);
    const drop = new Set(ranks);
    return new Group(this.ranks.filter((_, i) => !drop.has(i)), this.me);
  }

  /** This group's ranks, then `other`'s not already in it (MPI_Group_union). */
  union(other: Group): Group {
    const have = new Set(this.ranks);
    return new Group([...this.ranks, ...other.ranks.filter((r) => !have.has(r))], this.me);
  }

  /** This group's ranks that are also in `other`, in this group's order. */
  intersection(other: Group): Group {
    const have = new Set(other.ranks);
    return new Group(this.ranks.filter((r) => have.has(r)), this.me);
  }

  /** This group's ranks that are not in `other`. */
  difference(other: Group): Group {
    const have = new Set(other.ranks);
    return new Group(this.ranks.filter((r) => !have.has(r)), this.me);
  }

  /** 'ident' (same ranks, same order), 'similar' (same ranks) or 'unequal' (MPI_Group_compare). */
  compare(other: Group): 'ident' | 'similar' | 'unequal' {
    if (this.size !== other.size) return 'unequal';
    if (this.ranks.every((r, i) => other.ranks[i] === r)) return 'ident';
    const have = new Set(other.ranks);
    return this.ranks.every((r) => have.has(r)) ? 'similar' : 'unequal';
  }

  private checkDistinct(call: string, ranks: readonly number[]): void {
    const seen = new Set<number>();
    ranks.forEach((r, i) => {
      if (!Number.isInteger(r) || r < 0 || r >= this.size) throw new MpiError('MPI_ERR_RANK', `${call}: ranks[${i}]=${r} is not a rank of the group (0..${this.size - 1})`);
      if (seen.has(r)) throw new MpiError('MPI_ERR_RANK', `${call}: rank ${r} appears twice`);
      seen.add(r);
    });
  }
}

/** One of a rank's communicators' shared identity: members, contexts, the caller's rank. */
export interface CommShape {
  /** World rank of each communicator rank. */
  readonly members: Int32Array;
  /** Communicator rank of each world rank (-1: not a member); null for MPI_COMM_WORLD. */
  readonly inv: Int32Array | null;
  /** Context id of point-to-point traffic; collective traffic uses ctx + 1. */
  readonly ctx: number;
  readonly rank: number;
}

/**
 * A communicator as one rank sees it (MPI_Comm): point-to-point calls, communicator management
 * and Cartesian topologies. Ranks, sources and destinations are ranks of this communicator;
 * messages of different communicators never match each other, and the library's collective
 * traffic never matches user messages.
 */
export class Comm {
  /** Communicators made from this one so far: all members make them in the same order. */
  private children = 0;
  private collTransport: CollTransport | null = null;
  /** Collective-engine calls this rank has made on this communicator. */
  private nodeCalls = 0;
  private ledger: CollLedger | null = null;

  constructor(
    protected readonly world: MpiWorld,
    protected readonly proc: Proc,
    protected readonly state: RankState,
    protected readonly shape: CommShape,
  ) {}

  /** This rank in the communicator. */
  get rank(): number {
    return this.shape.rank;
  }

  /** Number of ranks in the communicator. */
  get size(): number {
    return this.shape.members.length;
  }

  /** The communicator's group (MPI_Comm_group). */
  get group(): Group {
    return new Group(Array.from(this.shape.members), this.proc.rank);
  }

  /** World rank of communicator rank `r`. */
  worldRank(r: number): number {
    return this.shape.members[r]!;
  }

  // ---------------------------------------------------------------- point-to-point

  /** Blocking standard-mode send. */
  async send(buf: ArrayBufferView, dest: number, tag: number): Promise<void> {
    await this.blocking(this.startSend('send', buf, dest, tag, 'standard'));
  }

  /** Nonblocking send; the buffer must not change until the request completes. */
  isend(buf: ArrayBufferView, dest: number, tag: number): Request {
    return this.startSend('isend', buf, dest, tag, 'standard');
  }

  /** Synchronous send: returns once a matching receive has started (MPI_Ssend). */
  async ssend(buf: ArrayBufferView, dest: number, tag: number): Promise<void> {
    await this.blocking(this.startSend('ssend', buf, dest, tag, 'sync'));
  }

  /** Nonblocking synchronous send (MPI_Issend). */
  issend(buf: ArrayBufferView, dest: number, tag: number): Request {
    return this.startSend('issend', buf, dest, tag, 'sync');
  }

  /** Ready send: the matching receive must already be posted (MPI_Rsend; sent as a standard send). */
  async rsend(buf: ArrayBufferView, dest: number, tag: number): Promise<void> {
    await this.blocking(this.startSend('rsend', buf, dest, tag, 'standard'));
  }

  /** Nonblocking ready send (MPI_Irsend). */
  irsend(buf: ArrayBufferView, dest: number, tag: number): Request {
    return this.startSend('irsend', buf, dest, tag, 'standard');
  }

  /**
   * Buffered send (MPI_Bsend): copies the message into the buffer attached with `bufferAttach`
   * and returns; the copy is sent from there. Fails with MPI_ERR_BUFFER when the buffer lacks
   * room (each message also takes BSEND_OVERHEAD bytes).
   */
  async bsend(buf: ArrayBufferView, dest: number, tag: number): Promise<void> {
    await this.blocking(this.ibsend(buf, dest, tag));
  }

  /** Nonblocking buffered send (MPI_Ibsend): complete once the message is copied. */
  ibsend(buf: ArrayBufferView, dest: number, tag: number): Request {
    const bytes = this.checkBuf('ibsend', buf);
    this.checkRank('ibsend', 'dest', dest, false);
    this.checkTag('ibsend', tag, false);
    const what = `ibsend(dest=${dest}, tag=${tag}, ${bytes.length} bytes)`;
    const st = this.state;
    const need = bytes.length + BSEND_OVERHEAD;
    const used = st.bsendUsed();
    if (used + need > st.bsendCapacity) {
      throw new MpiError('MPI_ERR_BUFFER', `${what}: the attached buffer has ${st.bsendCapacity - used} of ${st.bsendCapacity} bytes free, the message needs ${need} (its bytes + BSEND_OVERHEAD); attach a larger one with bufferAttach`);
    }
    const copy = this.proc.isSkeleton(bytes) ? bytes : bytes.slice();
    this.proc.charge(Math.ceil(bytes.length / this.world.params.copyBytesPerPs));
    // the copy is sent in the background: no one waits on it until bufferDetach, and its space
    // is freed when the next buffered send finds it complete
    const inner = this.world.isend(this.proc.rank, copy, this.dest(dest), tag, this.shape.ctx, what);
    st.bsendPending.set(inner, need);
    // complete already, but polling it is still an MPI call that progresses the rank's other requests
    const req = new Request(this.proc, this.world.params.testOverheadPs, what, this.world.progressOf(this.proc.rank));
    req.complete({ source: dest, tag, count: 0, bytes: bytes.length });
    return req;
  }

  /** Blocking receive; returns the status (source, tag, count in elements of `buf`). */
  async recv(buf: ArrayBufferView, source: number, tag: number): Promise<Status> {
    return this.blocking(this.startRecv('recv', buf, source, tag));
  }

  /** Nonblocking receive. */
  irecv(buf: ArrayBufferView, source: number, tag: number): Request {
    return this.startRecv('irecv', buf, source, tag);
  }

  /** Sends and receives at once (MPI_Sendrecv); returns the receive's status. */
  async sendrecv(sendBuf: ArrayBufferView, dest: number, sendTag: number, recvBuf: ArrayBufferView, source: number, recvTag: number): Promise<Status> {
    const r = this.startRecv('sendrecv', recvBuf, source, recvTag);
    const s = this.startSend('sendrecv', sendBuf, dest, sendTag, 'standard');
    const [status] = await this.waitAll([r, s]);
    return status!;
  }

  /** Sends `buf` and receives into it (MPI_Sendrecv_replace). */
  async sendrecvReplace(buf: ArrayBufferView, dest: number, sendTag: number, source: number, recvTag: number): Promise<Status> {
    const copy = this.copyOf(this.checkBuf('sendrecvReplace', buf));
    const s = this.startSend('sendrecvReplace', copy, dest, sendTag, 'standard');
    const r = this.startRecv('sendrecvReplace', buf, source, recvTag);
    const [, status] = await this.waitAll([s, r]);
    return status!;
  }

  /**
   * Status of a message that a receive (source, tag) would match now, or null (MPI_Iprobe).
   * `count` is in elements of `elemBytes` bytes (default 1).
   */
  async iprobe(source: number, tag: number, elemBytes = 1): Promise<Status | null> {
    this.checkRank('iprobe', 'source', source, true);
    this.checkTag('iprobe', tag, true);
    await this.proc.cpu(this.world.params.testOverheadPs, `iprobe(source=${fmtSource(source)}, tag=${fmtTag(tag)})`);
    return this.world.iprobe(this.proc.rank, this.src(source), tag, this.shape.ctx, elemBytes, this.shape.inv);
  }

  /** Blocks until a message that a receive (source, tag) would match has arrived; returns its status (MPI_Probe). */
  async probe(source: number, tag: number, elemBytes = 1): Promise<Status> {
    this.checkRank('probe', 'source', source, true);
    this.checkTag('probe', tag, true);
    const what = `probe(source=${fmtSource(source)}, tag=${fmtTag(tag)})`;
    for (;;) {
      const s = this.world.iprobe(this.proc.rank, this.src(source), tag, this.shape.ctx, elemBytes, this.shape.inv);
      if (s) {
        await this.proc.cpu(this.world.params.testOverheadPs, what);
        return s;
      }
      await this.world.awaitArrival(this.proc.rank, what);
    }
  }

  /** Waits for one request. */
  wait(req: Request): Promise<Status> {
    return req.wait();
  }

  /** Waits for every request; returns their statuses in order. */
  waitAll(reqs: readonly Request[]): Promise<Status[]> {
    return waitAll(this.proc, reqs, () => {
      const pending = reqs.filter((r) => !r.done);
      return `waitAll(${pending.length} of ${reqs.length} pending: ${pending.map((r) => r.what).join(', ')})`;
    });
  }

  /**
   * Waits until one of `reqs` completes; returns its index and status (MPI_Waitany). With no
   * active request (an empty list), returns index UNDEFINED at once.
   */
  async waitAny(reqs: readonly (Request | null)[]): Promise<{ index: number; status: Status | null }> {
    const active = reqs.filter((r): r is Request => r !== null);
    if (active.length === 0) return { index: UNDEFINED, status: null };
    for (;;) {
      const i = reqs.findIndex((r) => r !== null && r.done);
      if (i >= 0) return { index: i, status: await reqs[i]!.wait() };
      await waitWoken(this.proc, active, () => `waitAny(${active.map((r) => r.what).join(', ')})`);
    }
  }

  /** Waits until at least one of `reqs` completes; returns the indices and statuses of all that have (MPI_Waitsome). */
  async waitSome(reqs: readonly (Request | null)[]): Promise<{ index: number; status: Status }[]> {
    const active = reqs.filter((r): r is Request => r !== null);
    if (active.length === 0) return [];
    while (!active.some((r) => r.done)) await waitWoken(this.proc, active, () => `waitSome(${active.map((r) => r.what).join(', ')})`);
    const out: { index: number; status: Status }[] = [];
    for (let i = 0; i < reqs.length; i++) if (reqs[i]?.done) out.push({ index: i, status: await reqs[i]!.wait() });
    return out;
  }

  /** Polls one request once (costs a poll's CPU time). */
  test(req: Request): Promise<boolean> {
    return req.test();
  }

  /** True if every request has completed (one poll's CPU time; MPI_Testall). */
  async testAll(reqs: readonly Request[]): Promise<boolean> {
    if (reqs.length === 0) return true;
    await reqs[0]!.test();
    if (!reqs.every((r) => r.done)) return false;
    for (const r of reqs) await r.wait();
    return true;
  }

  /** Index of a completed request, or -1 (one poll; MPI_Testany). */
  async testAny(reqs: readonly Request[]): Promise<number> {
    if (reqs.length === 0) return UNDEFINED;
    await reqs[0]!.test();
    const i = reqs.findIndex((r) => r.done);
    if (i >= 0) await reqs[i]!.wait();
    return i;
  }

  /** Indices of the completed requests (one poll; MPI_Testsome). */
  async testSome(reqs: readonly Request[]): Promise<number[]> {
    if (reqs.length === 0) return [];
    await reqs[0]!.test();
    const out: number[] = [];
    for (let i = 0; i < reqs.length; i++) {
      if (reqs[i]!.done) {
        await reqs[i]!.wait();
        out.push(i);
      }
    }
    return out;
  }

  /**
   * Tries to cancel a pending request (MPI_Cancel). A receive not yet matched is cancelled; a
   * send is cancelled if its message waits unmatched at the receiver. Wait on the request
   * afterwards either way; `status.cancelled` tells which happened. Returns the same answer.
   */
  cancel(req: Request): boolean {
    if (!(req instanceof Request)) throw new MpiError('MPI_ERR_REQUEST', `cancel: expected a request, got ${describe(req)}`);
    return req.cancel();
  }

  /** Attaches a buffer of `bytes` bytes for buffered sends (MPI_Buffer_attach; one per process). */
  bufferAttach(bytes: number): void {
    if (!Number.isInteger(bytes) || bytes < 0) throw new MpiError('MPI_ERR_BUFFER', `bufferAttach: bytes=${bytes} must be a non-negative integer`);
    if (this.state.bsendCapacity > 0) throw new MpiError('MPI_ERR_BUFFER', 'bufferAttach: a buffer is already attached; detach it first');
    this.state.bsendCapacity = bytes;
  }

  /** Waits until every buffered send has left the attached buffer, then detaches it; returns its size. */
  async bufferDetach(): Promise<number> {
    const st = this.state;
    await this.waitAll([...st.bsendPending.keys()]);
    st.bsendPending.clear();
    const n = st.bsendCapacity;
    st.bsendCapacity = 0;
    return n;
  }

  // ---------------------------------------------------------------- communicators

  /** A copy with the same ranks and new contexts (MPI_Comm_dup; collective). */
  async dup(): Promise<Comm> {
    const key = this.childKey('dup');
    this.agree({ call: 'dup' });
    await this.barrier();
    return new Comm(this.world, this.proc, this.state, { ...this.shape, ctx: this.world.contextFor(key) });
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
    const first = this.world.memo(`${key}:group`, () => ({ ranks: group.ranks.slice(), by: this.rank }));
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
    if (!Array.isArray(dims) || dims.length === 0 || dims.some((d) => !Number.isInteger(d) || d < 1)) throw new MpiError('MPI_ERR_DIMS', `cartCreate: dims=${JSON.stringify(dims)} must be positive integers`);
    if (!Array.isArray(periods) || periods.length !== dims.length) throw new MpiError('MPI_ERR_ARG', `cartCreate: periods must have one entry per dimension (${dims.length}), got ${JSON.stringify(periods)}`);
    const n = dims.reduce((a, b) => a * b, 1);
    if (n > this.size) throw new MpiError('MPI_ERR_DIMS', `cartCreate: the grid ${dims.join('x')} has ${n} ranks, more than the communicator's ${this.size}`);
    const key = this.childKey('cart');
    this.agree({ call: 'cartCreate', counts: dims, countsName: 'dims' });
    await this.barrier();
    if (this.rank >= n) return null;
    const members = this.shape.members.slice(0, n);
    return new CartComm(this.world, this.proc, this.state, this.shapeOf(members, key), dims, periods.map(Boolean));
  }

  /** Key naming this rank's next communicator made from this one (the same on every member). */
  protected childKey(what: string): string {
    return `${this.shape.ctx}/${this.children++}/${what}`;
  }

  /** The shape of a communicator of `members` (world ranks) with the context named `key`. */
  protected shapeOf(members: ArrayLike<number>, key: string): CommShape {
    const c = this.world.commFor(key, members);
    return { ...c, rank: c.inv[this.proc.rank]! };
  }

  protected sub(members: readonly number[], key: string): Comm {
    return new Comm(this.world, this.proc, this.state, this.shapeOf(members, key));
  }

  /** Sends on the communicator's collective context (never matches user messages). */
  protected collIsend(buf: Uint8Array, dest: number, tag: number, what: string): Request {
    return this.world.isend(this.proc.rank, buf, this.shape.members[dest]!, tag, this.shape.ctx + 1, what);
  }

  /** Receives on the communicator's collective context. */
  protected collIrecv(buf: Uint8Array, source: number, tag: number, what: string): Request {
    return this.world.irecv(this.proc.rank, buf, 1, this.shape.members[source]!, tag, this.shape.ctx + 1, what, this.shape.inv);
  }

  // ---------------------------------------------------------------- collectives

  /**
   * The algorithms of phit's collective library run over this: the communicator's ranks, its
   * collective context, and the rank's processor model for combining and copying.
   */
  protected get transport(): CollTransport {
    if (!this.collTransport) {
      const cpu = this.proc.machine.config.cpu;
      this.collTransport = {
        rank: this.rank,
        size: this.size,
        isend: (buf, dest, tag, what) => this.collIsend(buf, dest, tag, what),
        irecv: (buf, source, tag, what) => this.collIrecv(buf, source, tag, what),
        flopsPerPs: cpu.flopsPerPs,
        copyBytesPerPs: this.world.params.copyBytesPerPs,
        skeleton: this.proc.skeleton,
      };
    }
    return this.collTransport;
  }

  /**
   * Runs a collective algorithm for this rank and waits for it: the library drives the algorithm
   * from the completions it waits for, and the rank's thread suspends once, for the whole call.
   */
  collective(alg: Coll, what: string): Promise<Status> {
    const P = this.world.params;
    const run = new CollRun(this.proc, alg, what, this.world.progressOf(this.proc.rank), P.collectiveOverheadPs, P.collectiveStepPs);
    return run.start().wait(() => run.describe());
  }

  /** The algorithm to run: the call's option, else the run's choice, else the automatic one. */
  private algorithm<C extends Collective>(coll: C, bytes: number, op: Op | undefined, opts: CollOptions | undefined): Algorithm<C> {
    const alg = selectAlgorithm(coll, this.size, bytes, op, opts?.algorithm ?? this.world.algorithms[coll]);
    this.world.observer?.algorithm(this.proc.rank, alg.name);
    return alg;
  }

  /** Blocks until every rank of the communicator has called barrier. */
  async barrier(opts?: CollOptions): Promise<void> {
    this.agree({ call: 'barrier', algorithm: opts?.algorithm });
    if (this.useCe('barrier', opts)) await this.ceReduce('barrier', null, null, undefined);
    else if (this.useNodeAware(opts)) await this.smpReduce('barrier', null, null, undefined);
    else await this.collective(this.algorithm('barrier', 0, undefined, opts).fn(this.transport), 'barrier');
  }

  /** Copies the root's `buf` into every rank's `buf` (MPI_Bcast). */
  async bcast(buf: ReduceArray, root: number, opts?: CollOptions): Promise<void> {
    const b = this.collBuf('bcast', 'buf', buf);
    this.checkRoot('bcast', root);
    this.agree({ call: 'bcast', root, ...this.dataSignature(b, 'elements in buf'), algorithm: opts?.algorithm });
    await this.collective(this.algorithm('bcast', b.byteLength, undefined, opts).fn(this.transport, b, root), 'bcast');
  }

  /** Combines every rank's `sendBuf` with `op` into the root's `recvBuf` (MPI_Reduce; `recvBuf` matters at the root only). */
  async reduce(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray | null, op: Op, root: number, opts?: CollOptions): Promise<void> {
    this.checkRoot('reduce', root);
    const atRoot = this.rank === root;
    if (atRoot && !recvBuf) throw new MpiError('MPI_ERR_BUFFER', 'reduce: the root needs a recvBuf');
    if (sendBuf === IN_PLACE && !atRoot) throw new MpiError('MPI_ERR_BUFFER', 'reduce: only the root may pass mpi.IN_PLACE');
    const send = sendBuf === IN_PLACE ? this.copyOf(this.collBuf('reduce', 'recvBuf', recvBuf)) : this.collBuf('reduce', 'sendBuf', sendBuf);
    const recv = atRoot ? this.collBuf('reduce', 'recvBuf', recvBuf) : null;
    if (recv) this.sameShape('reduce', send, recv);
    this.checkOp('reduce', op, send);
    this.agree({ call: 'reduce', root, op, ...this.dataSignature(send, 'elements in sendBuf'), algorithm: opts?.algorithm });
    await this.collective(this.algorithm('reduce', send.byteLength, op, opts).fn(this.transport, send, recv, op, root), 'reduce');
  }

  /** Combines every rank's `sendBuf` with `op` into every rank's `recvBuf` (MPI_Allreduce). */
  async allreduce(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, op: Op, opts?: CollOptions): Promise<void> {
    const recv = this.collBuf('allreduce', 'recvBuf', recvBuf);
    const send = sendBuf === IN_PLACE ? this.copyOf(recv) : this.collBuf('allreduce', 'sendBuf', sendBuf);
    this.sameShape('allreduce', send, recv);
    this.checkOp('allreduce', op, send);
    this.agree({ call: 'allreduce', op, ...this.dataSignature(send, 'elements in sendBuf'), algorithm: opts?.algorithm });
    if (this.useCe('allreduce', opts, op, send)) await this.ceReduce('allreduce', send, recv, op);
    else if (this.useNodeAware(opts, op)) await this.smpReduce('allreduce', send, recv, op);
    else await this.collective(this.algorithm('allreduce', send.byteLength, op, opts).fn(this.transport, send, recv, op), 'allreduce');
  }

  /** Every rank's `sendBuf`, in rank order, into every rank's `recvBuf` (MPI_Allgather; recvBuf holds size x sendBuf). */
  async allgather(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, opts?: CollOptions): Promise<void> {
    const recv = this.collBuf('allgather', 'recvBuf', recvBuf);
    if (recv.length % this.size !== 0) throw new MpiError('MPI_ERR_COUNT', `allgather: recvBuf has ${recv.length} elements, not a multiple of the ${this.size} ranks`);
    const k = recv.length / this.size;
    const send = sendBuf === IN_PLACE ? this.copyOf(recv, this.rank * k, this.rank * k + k) : this.collBuf('allgather', 'sendBuf', sendBuf);
    this.sameType('allgather', send, recv);
    if (send.length !== k) throw new MpiError('MPI_ERR_COUNT', `allgather: recvBuf (${recv.length} elements) must hold ${this.size} x sendBuf (${send.length})`);
    this.agree({ call: 'allgather', ...this.dataSignature(send, 'elements per rank'), algorithm: opts?.algorithm });
    await this.collective(this.algorithm('allgather', recv.byteLength, undefined, opts).fn(this.transport, send, recv), 'allgather');
  }

  /** Rank r's `sendBuf` into every rank's recvBuf at `displs[r]`, `counts[r]` elements (MPI_Allgatherv). */
  async allgatherv(sendBuf: ReduceArray, recvBuf: ReduceArray, counts: ArrayLike<number>, displs: ArrayLike<number>, opts?: CollOptions): Promise<void> {
    const send = this.collBuf('allgatherv', 'sendBuf', sendBuf);
    const recv = this.collBuf('allgatherv', 'recvBuf', recvBuf);
    this.sameType('allgatherv', send, recv);
    this.checkBlocks('allgatherv', 'counts', 'displs', counts, displs, recv.length);
    if (send.length !== counts[this.rank]) throw new MpiError('MPI_ERR_COUNT', `allgatherv: sendBuf has ${send.length} elements but counts[${this.rank}] is ${counts[this.rank]}`);
    this.agree({ call: 'allgatherv', type: send.constructor.name, counts, countsName: 'counts', algorithm: opts?.algorithm });
    let total = 0;
    for (let r = 0; r < this.size; r++) total += counts[r]!;
    await this.collective(this.algorithm('allgatherv', total * recv.BYTES_PER_ELEMENT, undefined, opts).fn(this.transport, send, recv, counts, displs), 'allgatherv');
  }

  /** Block j of every rank's `sendBuf` to rank j, into block i of rank j's `recvBuf` (MPI_Alltoall; equal blocks). */
  async alltoall(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, opts?: CollOptions): Promise<void> {
    const recv = this.collBuf('alltoall', 'recvBuf', recvBuf);
    const send = sendBuf === IN_PLACE ? this.copyOf(recv) : this.collBuf('alltoall', 'sendBuf', sendBuf);
    this.sameShape('alltoall', send, recv);
    if (send.length % this.size !== 0) throw new MpiError('MPI_ERR_COUNT', `alltoall: ${send.length} elements do not split into ${this.size} equal blocks`);
    this.agree({ call: 'alltoall', ...this.dataSignature(send, 'elements in sendBuf'), algorithm: opts?.algorithm });
    await this.collective(this.algorithm('alltoall', (send.byteLength / this.size) | 0, undefined, opts).fn(this.transport, send, recv), 'alltoall');
  }

  /** MPI_Alltoallv: `sendCounts[j]` elements from `sendDispls[j]` go to rank j, landing at its `recvDispls[i]`. */
  async alltoallv(sendBuf: ReduceArray, sendCounts: ArrayLike<number>, sendDispls: ArrayLike<number>, recvBuf: ReduceArray, recvCounts: ArrayLike<number>, recvDispls: ArrayLike<number>, opts?: CollOptions): Promise<void> {
    const send = this.collBuf('alltoallv', 'sendBuf', sendBuf);
    const recv = this.collBuf('alltoallv', 'recvBuf', recvBuf);
    this.sameType('alltoallv', send, recv);
    this.checkBlocks('alltoallv', 'sendCounts', 'sendDispls', sendCounts, sendDispls, send.length);
    this.checkBlocks('alltoallv', 'recvCounts', 'recvDispls', recvCounts, recvDispls, recv.length);
    this.agree({ call: 'alltoallv', type: send.constructor.name, algorithm: opts?.algorithm, data: { send: Int32Array.from(sendCounts), recv: Int32Array.from(recvCounts) }, cross: pairedCounts });
    await this.collective(this.algorithm('alltoallv', 0, undefined, opts).fn(this.transport, send, sendCounts, sendDispls, recv, recvCounts, recvDispls), 'alltoallv');
  }

  /** Reduces `sendBuf` with `op` and leaves block r (`recvCounts[r]` elements) at rank r (MPI_Reduce_scatter). */
  async reduceScatter(sendBuf: ReduceArray, recvBuf: ReduceArray, recvCounts: ArrayLike<number>, op: Op, opts?: CollOptions): Promise<void> {
    const send = this.collBuf('reduceScatter', 'sendBuf', sendBuf);
    const recv = this.collBuf('reduceScatter', 'recvBuf', recvBuf);
    this.sameType('reduceScatter', send, recv);
    this.checkCounts('reduceScatter', 'recvCounts', recvCounts);
    let total = 0;
    for (let r = 0; r < this.size; r++) total += recvCounts[r]!;
    if (total !== send.length) throw new MpiError('MPI_ERR_COUNT', `reduceScatter: recvCounts add up to ${total} but sendBuf has ${send.length} elements`);
    if (recv.length < recvCounts[this.rank]!) throw new MpiError('MPI_ERR_COUNT', `reduceScatter: recvBuf has ${recv.length} elements, fewer than recvCounts[${this.rank}] = ${recvCounts[this.rank]}`);
    this.checkOp('reduceScatter', op, send);
    this.agree({ call: 'reduceScatter', op, type: send.constructor.name, counts: recvCounts, countsName: 'recvCounts', algorithm: opts?.algorithm });
    await this.collective(this.algorithm('reduceScatter', send.byteLength, op, opts).fn(this.transport, send, recv, recvCounts, op), 'reduceScatter');
  }

  /** reduceScatter with recvBuf.length elements per rank (MPI_Reduce_scatter_block). */
  async reduceScatterBlock(sendBuf: ReduceArray, recvBuf: ReduceArray, op: Op, opts?: CollOptions): Promise<void> {
    const send = this.collBuf('reduceScatterBlock', 'sendBuf', sendBuf);
    const recv = this.collBuf('reduceScatterBlock', 'recvBuf', recvBuf);
    this.sameType('reduceScatterBlock', send, recv);
    if (send.length !== recv.length * this.size) throw new MpiError('MPI_ERR_COUNT', `reduceScatterBlock: sendBuf must hold ${this.size} x recvBuf (${recv.length}) elements, got ${send.length}`);
    this.checkOp('reduceScatterBlock', op, send);
    this.agree({ call: 'reduceScatterBlock', op, ...this.dataSignature(recv, 'elements in recvBuf'), algorithm: opts?.algorithm });
    await this.collective(this.algorithm('reduceScatterBlock', send.byteLength, op, opts).fn(this.transport, send, recv, op), 'reduceScatterBlock');
  }

  /** Every rank's `sendBuf`, in rank order, into the root's `recvBuf` (MPI_Gather). */
  async gather(sendBuf: ReduceArray, recvBuf: ReduceArray | null, root: number, opts?: CollOptions): Promise<void> {
    this.checkRoot('gather', root);
    const send = this.collBuf('gather', 'sendBuf', sendBuf);
    const recv = this.rank === root ? this.collBuf('gather', 'recvBuf', recvBuf) : null;
    if (recv) {
      this.sameType('gather', send, recv);
      if (recv.length !== send.length * this.size) throw new MpiError('MPI_ERR_COUNT', `gather: the root's recvBuf must hold ${this.size} x sendBuf (${send.length}) elements, got ${recv.length}`);
    }
    this.agree({ call: 'gather', root, ...this.dataSignature(send, 'elements in sendBuf'), algorithm: opts?.algorithm });
    await this.collective(this.algorithm('gather', send.byteLength * this.size, undefined, opts).fn(this.transport, send, recv, root), 'gather');
  }

  /** Rank r's `sendBuf` into the root's `recvBuf` at `displs[r]` (MPI_Gatherv; counts and displs matter at the root). */
  async gatherv(sendBuf: ReduceArray, recvBuf: ReduceArray | null, counts: ArrayLike<number> | null, displs: ArrayLike<number> | null, root: number, opts?: CollOptions): Promise<void> {
    this.checkRoot('gatherv', root);
    const send = this.collBuf('gatherv', 'sendBuf', sendBuf);
    let recv: ReduceArray | null = null;
    if (this.rank === root) {
      recv = this.collBuf('gatherv', 'recvBuf', recvBuf);
      this.sameType('gatherv', send, recv);
      this.checkBlocks('gatherv', 'counts', 'displs', counts, displs, recv.length);
      if (send.length !== counts![root]) throw new MpiError('MPI_ERR_COUNT', `gatherv: the root's sendBuf has ${send.length} elements but counts[${root}] is ${counts![root]}`);
    }
    this.agree({ call: 'gatherv', root, type: send.constructor.name, algorithm: opts?.algorithm, data: this.rank === root ? Int32Array.from(counts!) : send.length, cross: rootCounts(root, 'sendBuf') });
    await this.collective(this.algorithm('gatherv', 0, undefined, opts).fn(this.transport, send, recv, counts, displs, root), 'gatherv');
  }

  /** Block r of the root's `sendBuf` into rank r's `recvBuf` (MPI_Scatter). */
  async scatter(sendBuf: ReduceArray | null, recvBuf: ReduceArray, root: number, opts?: CollOptions): Promise<void> {
    this.checkRoot('scatter', root);
    const recv = this.collBuf('scatter', 'recvBuf', recvBuf);
    const send = this.rank === root ? this.collBuf('scatter', 'sendBuf', sendBuf) : null;
    if (send) {
      this.sameType('scatter', send, recv);
      if (send.length !== recv.length * this.size) throw new MpiError('MPI_ERR_COUNT', `scatter: the root's sendBuf must hold ${this.size} x recvBuf (${recv.length}) elements, got ${send.length}`);
    }
    this.agree({ call: 'scatter', root, ...this.dataSignature(recv, 'elements in recvBuf'), algorithm: opts?.algorithm });
    await this.collective(this.algorithm('scatter', recv.byteLength * this.size, undefined, opts).fn(this.transport, send, recv, root), 'scatter');
  }

  /** `counts[r]` elements from `displs[r]` of the root's `sendBuf` into rank r's `recvBuf` (MPI_Scatterv). */
  async scatterv(sendBuf: ReduceArray | null, counts: ArrayLike<number> | null, displs: ArrayLike<number> | null, recvBuf: ReduceArray, root: number, opts?: CollOptions): Promise<void> {
    this.checkRoot('scatterv', root);
    const recv = this.collBuf('scatterv', 'recvBuf', recvBuf);
    let send: ReduceArray | null = null;
    if (this.rank === root) {
      send = this.collBuf('scatterv', 'sendBuf', sendBuf);
      this.sameType('scatterv', send, recv);
      this.checkBlocks('scatterv', 'counts', 'displs', counts, displs, send.length);
      if (recv.length < counts![root]!) throw new MpiError('MPI_ERR_COUNT', `scatterv: the root's recvBuf has ${recv.length} elements, fewer than counts[${root}] = ${counts![root]}`);
    }
    this.agree({ call: 'scatterv', root, type: recv.constructor.name, algorithm: opts?.algorithm, data: this.rank === root ? Int32Array.from(counts!) : recv.length, cross: rootCounts(root, 'recvBuf') });
    await this.collective(this.algorithm('scatterv', 0, undefined, opts).fn(this.transport, send, counts, displs, recv, root), 'scatterv');
  }

  /** Inclusive prefix reduction: rank r gets sendBuf of ranks 0..r combined (MPI_Scan). */
  async scan(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, op: Op, opts?: CollOptions): Promise<void> {
    const recv = this.collBuf('scan', 'recvBuf', recvBuf);
    const send = sendBuf === IN_PLACE ? this.copyOf(recv) : this.collBuf('scan', 'sendBuf', sendBuf);
    this.sameShape('scan', send, recv);
    this.checkOp('scan', op, send);
    this.agree({ call: 'scan', op, ...this.dataSignature(send, 'elements in sendBuf'), algorithm: opts?.algorithm });
    await this.collective(this.algorithm('scan', send.byteLength, op, opts).fn(this.transport, send, recv, op), 'scan');
  }

  /** Exclusive prefix reduction: rank r gets ranks 0..r-1 combined; rank 0's recvBuf is left as it is (MPI_Exscan). */
  async exscan(sendBuf: ReduceArray | typeof IN_PLACE, recvBuf: ReduceArray, op: Op, opts?: CollOptions): Promise<void> {
    const recv = this.collBuf('exscan', 'recvBuf', recvBuf);
    const send = sendBuf === IN_PLACE ? this.copyOf(recv) : this.collBuf('exscan', 'sendBuf', sendBuf);
    this.sameShape('exscan', send, recv);
    this.checkOp('exscan', op, send);
    this.agree({ call: 'exscan', op, ...this.dataSignature(send, 'elements in sendBuf'), algorithm: opts?.algorithm });
    await this.collective(this.algorithm('exscan', send.byteLength, op, opts).fn(this.transport, send, recv, op), 'exscan');
  }

  // ---------------------------------------------------------------- the Aries collective engine

  /**
   * Whether this allreduce or barrier runs on the NIC's collective engine: asked for by name
   * (`collectiveEngine`), or, with `mpi.collectiveEngine=yes` (Cray MPT's MPICH_USE_DMAPP_COLL;
   * off by default, as there), chosen automatically when the machine has one, no algorithm is
   * named and the reduction is one item of a type and op the engine supports (seed 001: 32- and
   * 64-bit integers and floats, logical, bitwise, min/max with location; product and user ops go
   * to the CPU).
   */
  private useCe(coll: 'allreduce' | 'barrier', opts: CollOptions | undefined, op?: Op, buf?: ReduceArray): boolean {
    const requested = opts?.algorithm ?? this.world.algorithms[coll];
    const why = this.proc.nic.ce === null ? `${this.proc.machine.config.name} has no collective engine` : coll === 'allreduce' ? ceRefusal(op!, buf!) : '';
    if (requested === CE_ALGORITHM) {
      if (why) throw new MpiError('MPI_ERR_ARG', `${coll}: algorithm '${CE_ALGORITHM}': ${why}`);
      return true;
    }
    return requested === undefined && this.world.params.collectiveEngine && why === '' && this.size > 1;
  }

  /** This communicator as node-aware collectives see it. */
  private get nodeHost(): NodeHost {
    if (!this.nodeHostCache) {
      this.nodeHostCache = {
        world: this.world,
        proc: this.proc,
        rank: this.rank,
        ctx: this.shape.ctx,
        members: this.shape.members,
        nextNodeCall: () => this.nodeCalls++,
      };
    }
    return this.nodeHostCache;
  }
  private nodeHostCache: NodeHost | null = null;

  /**
   * One reduction (or a barrier, `op` undefined) through the collective engine: the ranks of a
   * node combine on its lowest rank over shared memory, that rank joins the node's contribution
   * to the engine's tree, and it hands the result back to the node's other ranks.
   */
  private async ceReduce(coll: string, send: ReduceArray | null, recv: ReduceArray | null, op: Op | undefined): Promise<void> {
    this.world.observer?.algorithm(this.proc.rank, CE_ALGORITHM);
    const what = `${coll} (collective engine)`;
    const proc = this.proc;
    await nodeCombine(this.nodeHost, what, send, recv, op, async (acc) => {
      const { tree, engine } = ceTree(this.nodeHost);
      const ce = proc.nic.ce!;
      // the join is a store at the rank's own time; one collective at a time per virtual CE
      await proc.cpu(0, what);
      while (ce.busy(engine)) await proc.cpu(CE_POLL_PS, `${what}: engine ${engine} busy`);
      let result: CeResult | null = null;
      const done = new Request(proc, 0, what, this.world.progressOf(proc.rank));
      proc.charge(
        ce.join(tree, engine, ceContribution(op, acc), (r) => {
          result = r;
          done.complete(DONE);
        }),
      );
      await done.wait(() => `${what}: waiting for the network reduction`);
      if (recv && op && !proc.isSkeleton(recv)) writeCeResult(recv, result!, op);
      return recv;
    });
  }

  /**
   * Whether this allreduce or barrier runs node-aware (`mpi.nodeAwareCollectives`, MPICH's SMP
   * collectives): on unless an algorithm is named, when some node holds two or more of the
   * communicator's ranks, and for allreduce only with a commutative op (as MPICH).
   */
  private useNodeAware(opts: CollOptions | undefined, op?: Op): boolean {
    if (!this.world.params.nodeAwareCollectives || this.size < 2) return false;
    if ((opts?.algorithm ?? this.world.algorithms[op ? 'allreduce' : 'barrier']) !== undefined) return false;
    if (op && !op.commutative) return false;
    return sharesNodes(nodeGroup(this.nodeHost));
  }

  /**
   * The SMP-aware allreduce (a barrier when `op` is undefined): the node's ranks combine on the
   * board, the leaders run the library's algorithm among themselves, and the result goes back up.
   */
  private async smpReduce(coll: 'allreduce' | 'barrier', send: ReduceArray | null, recv: ReduceArray | null, op: Op | undefined): Promise<void> {
    const g = nodeGroup(this.nodeHost);
    const n = g.leaders.length;
    const alg = selectAlgorithm(coll, n, send ? send.byteLength : 0, op);
    this.world.observer?.algorithm(this.proc.rank, `smp+${alg.name}`);
    const what = `${coll} (node-aware, ${alg.name} over ${n} node leaders)`;
    await nodeCombine(this.nodeHost, what, send, recv, op, async (acc) => {
      if (n === 1) {
        if (recv && acc && !this.proc.isSkeleton(recv)) recv.set(acc as never);
        return recv;
      }
      const t = this.transport;
      const leaders: CollTransport = { ...t, rank: g.leaders.indexOf(this.rank), size: n, isend: (b, d, tag, w) => t.isend(b, g.leaders[d]!, tag, w), irecv: (b, s, tag, w) => t.irecv(b, g.leaders[s]!, tag, w) };
      if (coll === 'barrier') await this.collective((alg as Algorithm<'barrier'>).fn(leaders), what);
      else await this.collective((alg as Algorithm<'allreduce'>).fn(leaders, acc!, recv!, op!), what);
      return recv;
    });
  }

  /**
   * Records this rank's entry into a collective and checks it against the other ranks' (same
   * call, root, op, type and counts); throws MpiError naming both ranks when they differ.
   */
  protected agree(c: CollCall): void {
    if (this.size > 1) (this.ledger ??= this.world.ledgerFor(this.shape.ctx, this.shape.members)).enter(this.rank, c);
  }

  /** A copy of elements [from, to) of `buf` (an IN_PLACE send buffer): for a skeleton buffer, another of that length, uncopied. */
  private copyOf<T extends ReduceArray | Uint8Array>(buf: T, from = 0, to = buf.length): T {
    const skeleton = this.proc.skeleton;
    if (skeleton?.holds(buf)) return skeleton.allocLike(buf, to - from);
    return buf.slice(from, to) as T;
  }

  /** The element type and count of a buffer every rank must pass alike. */
  private dataSignature(buf: ReduceArray, countName: string): { type: string; count: number; countName: string } {
    return { type: buf.constructor.name, count: buf.length, countName };
  }

  private collBuf(call: string, name: string, v: unknown): ReduceArray {
    if (!isReduceArray(v)) throw new MpiError('MPI_ERR_BUFFER', `${call}: ${name} must be a numeric typed array, got ${describe(v)}`);
    return v;
  }

  private sameType(call: string, a: ReduceArray, b: ReduceArray): void {
    if (a.constructor !== b.constructor) throw new MpiError('MPI_ERR_TYPE', `${call}: sendBuf and recvBuf must have the same element type (got ${a.constructor.name} and ${b.constructor.name})`);
  }

  private sameShape(call: string, a: ReduceArray, b: ReduceArray): void {
    this.sameType(call, a, b);
    if (a.length !== b.length) throw new MpiError('MPI_ERR_COUNT', `${call}: sendBuf and recvBuf must have the same length (got ${a.length} and ${b.length})`);
  }

  private checkRoot(call: string, root: number): void {
    if (!Number.isInteger(root) || root < 0 || root >= this.size) throw new MpiError('MPI_ERR_ROOT', `${call}: root=${root} is not a rank of the communicator (0..${this.size - 1})`);
  }

  /** `op` is an Op defined on `buf`'s element type (checked on every rank before any message moves). */
  private checkOp(call: string, op: Op, buf: ReduceArray): void {
    if (!op || typeof op.apply !== 'function' || typeof op.commutative !== 'boolean') throw new MpiError('MPI_ERR_OP', `${call}: op must be an MPI op (mpi.SUM, mpi.MAX, ..., or mpi.opCreate(...)), got ${describe(op)}`);
    const none = buf.subarray(0, 0) as ReduceArray;
    try {
      op.apply(none, none);
    } catch (e) {
      if (e instanceof MpiError) throw new MpiError(e.errorClass, `${call}: ${e.message.slice(e.errorClass.length + 2)}`);
      throw e;
    }
    if (buf.length % op.unit !== 0) throw new MpiError('MPI_ERR_COUNT', `${call}: ${op.name} works on items of ${op.unit} elements; ${buf.length} elements are not whole items`);
  }

  private checkCounts(call: string, name: string, counts: ArrayLike<number> | null): void {
    if (!counts || typeof counts.length !== 'number' || counts.length !== this.size) throw new MpiError('MPI_ERR_COUNT', `${call}: ${name} must have one entry per rank (${this.size})`);
    for (let r = 0; r < this.size; r++) {
      const c = counts[r]!;
      if (!Number.isInteger(c) || c < 0) throw new MpiError('MPI_ERR_COUNT', `${call}: ${name}[${r}]=${c} must be a non-negative integer`);
    }
  }

  /** Counts and displacements of one block per rank, every block inside a buffer of `length` elements. */
  private checkBlocks(call: string, countsName: string, displsName: string, counts: ArrayLike<number> | null, displs: ArrayLike<number> | null, length: number): void {
    this.checkCounts(call, countsName, counts);
    this.checkCounts(call, displsName, displs);
    for (let r = 0; r < this.size; r++) {
      if (displs![r]! + counts![r]! > length) throw new MpiError('MPI_ERR_COUNT', `${call}: block ${r} (${displsName}[${r}]=${displs![r]}, ${countsName}[${r}]=${counts![r]}) runs past the buffer's ${length} elements`);
    }
  }

  // ---------------------------------------------------------------- argument checks

  protected checkBuf(call: string, buf: ArrayBufferView): Uint8Array {
    if (!ArrayBuffer.isView(buf)) throw new MpiError('MPI_ERR_BUFFER', `${call}: buf must be a typed array or DataView, got ${describe(buf)}`);
    return bytesOf(buf);
  }

  protected checkRank(call: string, name: string, v: number, wildcard: boolean): void {
    const ok = Number.isInteger(v) && ((v >= 0 && v < this.size) || v === PROC_NULL || (wildcard && v === ANY_SOURCE));
    if (!ok) {
      throw new MpiError('MPI_ERR_RANK', `${call}: ${name}=${v} is not a rank of the communicator (0..${this.size - 1}${wildcard ? ', mpi.ANY_SOURCE' : ''} or mpi.PROC_NULL)`);
    }
  }

  protected checkTag(call: string, v: number, wildcard: boolean): void {
    const ok = Number.isInteger(v) && ((v >= 0 && v <= TAG_UB) || (wildcard && v === ANY_TAG));
    if (!ok) throw new MpiError('MPI_ERR_TAG', `${call}: tag=${v} must be an integer from 0 to ${TAG_UB}${wildcard ? ' or mpi.ANY_TAG' : ''}`);
  }

  /** World rank of destination `r` (PROC_NULL stays). */
  private dest(r: number): number {
    return r === PROC_NULL ? PROC_NULL : this.shape.members[r]!;
  }

  /** World rank of source `r` (wildcards and PROC_NULL stay). */
  private src(r: number): number {
    return r === PROC_NULL || r === ANY_SOURCE ? r : this.shape.members[r]!;
  }

  /** A blocking call: waits on the request it started, naming the call. */
  private blocking(req: Request): Promise<Status> {
    return req.wait(() => req.what);
  }

  private startSend(call: string, buf: ArrayBufferView, dest: number, tag: number, mode: SendMode): Request {
    const bytes = this.checkBuf(call, buf);
    this.checkRank(call, 'dest', dest, false);
    this.checkTag(call, tag, false);
    return this.world.isend(this.proc.rank, bytes, this.dest(dest), tag, this.shape.ctx, `${call}(dest=${dest}, tag=${tag}, ${bytes.length} bytes)`, mode);
  }

  private startRecv(call: string, buf: ArrayBufferView, source: number, tag: number): Request {
    const bytes = this.checkBuf(call, buf);
    this.checkRank(call, 'source', source, true);
    this.checkTag(call, tag, true);
    const elem = 'BYTES_PER_ELEMENT' in buf ? (buf as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT : 1;
    return this.world.irecv(this.proc.rank, bytes, elem, this.src(source), tag, this.shape.ctx, `${call}(source=${fmtSource(source)}, tag=${fmtTag(tag)})`, this.shape.inv);
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
    this.coords = this.cartCoords(shape.rank);
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
    return new CartComm(this.world, this.proc, this.state, this.shapeOf(members, `${key}:${color}`), dims.length > 0 ? dims : [1], periods.length > 0 ? periods : [false]);
  }
}

/**
 * Balanced dimensions for `nnodes` ranks (MPI_Dims_create): entries of `dims` that are 0 are
 * filled, as close to each other as possible and in non-increasing order; non-zero entries stay.
 */
export function dimsCreate(nnodes: number, dims: readonly number[]): number[] {
  if (!Number.isInteger(nnodes) || nnodes < 1) throw new MpiError('MPI_ERR_ARG', `dimsCreate: nnodes=${nnodes} must be a positive integer`);
  if (!Array.isArray(dims) || dims.length === 0 || dims.some((d) => !Number.isInteger(d) || d < 0)) throw new MpiError('MPI_ERR_DIMS', `dimsCreate: dims=${JSON.stringify(dims)} must be non-negative integers`);
  const fixed = dims.filter((d) => d > 0).reduce((a, b) => a * b, 1);
  if (nnodes % fixed !== 0) throw new MpiError('MPI_ERR_DIMS', `dimsCreate: the fixed dimensions (product ${fixed}) do not divide nnodes=${nnodes}`);
  const free = dims.filter((d) => d === 0).length;
  if (free === 0) {
    if (fixed !== nnodes) throw new MpiError('MPI_ERR_DIMS', `dimsCreate: dims ${dims.join('x')} give ${fixed} ranks, not ${nnodes}`);
    return [...dims];
  }
  const fill = balancedDims(nnodes / fixed, free);
  let k = 0;
  return dims.map((d) => (d > 0 ? d : fill[k++]!));
}

function fmtSource(s: number): string {
  return s === ANY_SOURCE ? 'ANY_SOURCE' : String(s);
}

function fmtTag(t: number): string {
  return t === ANY_TAG ? 'ANY_TAG' : String(t);
}

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'object') return (v as object).constructor?.name ?? 'object';
  return typeof v;
}

function isReduceArray(v: unknown): v is ReduceArray {
  return ArrayBuffer.isView(v) && !(v instanceof DataView);
}

const DONE: Status = { source: -1, tag: -1, count: 0, bytes: 0 };
/** How often a rank looks again at a virtual CE another communicator holds (ps). */
const CE_POLL_PS = 50_000;

/** alltoallv: what rank i sends to rank j is what rank j expects from rank i, both ways. */
function pairedCounts(mine: unknown, me: number, other: unknown, them: number): string | null {
  const a = mine as { send: Int32Array; recv: Int32Array };
  const b = other as { send: Int32Array; recv: Int32Array };
  if (a.send[them] !== b.recv[me]) return `rank ${me} sends ${a.send[them]} elements to rank ${them}, which expects ${b.recv[me]} (recvCounts[${me}])`;
  if (b.send[me] !== a.recv[them]) return `rank ${them} sends ${b.send[me]} elements to rank ${me}, which expects ${a.recv[them]} (recvCounts[${them}])`;
  return null;
}

/** gatherv/scatterv: a rank's buffer holds what the root's counts give it. */
function rootCounts(root: number, buf: string): (mine: unknown, me: number, other: unknown, them: number) => string | null {
  return (mine, me, other, them) => {
    if (me !== root && them !== root) return null;
    const [counts, r, n] = me === root ? [mine as Int32Array, them, other as number] : [other as Int32Array, me, mine as number];
    return counts[r] === n ? null : `rank ${r}'s ${buf} has ${n} elements but the root's counts[${r}] is ${counts[r]}`;
  };
}
