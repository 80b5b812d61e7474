import type { CeResult } from '../../fabric/nic/collective-engine.ts';
import type { SkeletonStore } from '../../fabric/skeleton.ts';
import { ALGORITHMS, CE_ALGORITHM, query, selectAlgorithm, SELECTORS, type Algorithm, type Coll, type Collective, type CollTransport, type SelectionContext } from './coll/index.ts';
import { CollRun, watchRounds } from './coll-run.ts';
import { RequestComm } from './comm-requests.ts';
import { describe, isReduceArray, type CollOptions } from './constants.ts';
import { ceContribution, ceRefusal, ceTree, nodeCombine, nodeGroup, sharesNodes, writeCeResult, type NodeHost } from './node-collectives.ts';
import type { Op, ReduceArray } from './ops.ts';
import { CollLedger, type CollCall } from './agreement.ts';
import { MpiError, Request, type Status } from './request.ts';

/**
 * What a communicator's collectives stand on: the schedule driver (launch, finish), the
 * transport with per-call tags, the choice of algorithm, the node-aware (SMP) forms and the
 * collective engine, and the checks every rank's arguments get against the others'. `CollComm`
 * adds the collective calls.
 */
export class CollBase extends RequestComm {
  private collTransport: CollTransport | null = null;
  /** Collective-engine calls this rank has made on this communicator. */
  private nodeCalls = 0;
  private ledger: CollLedger | null = null;
  /** Collective calls this rank has made on this communicator (all members make them in the same order). */
  private collCalls = 0;
  private lastRun: CollRun | null = null;
  /** While a persistent collective starts: the call number and ledger its init reserved. */
  private pinned: PinnedCall | null = null;

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
        isend: (buf, dest, tag, what, once) => this.collIsend(buf, dest, tag, what, once),
        irecv: (buf, source, tag, what, once) => this.collIrecv(buf, source, tag, what, once),
        flopsPerPs: cpu.flopsPerPs,
        copyBytesPerPs: this.world.params.copyBytesPerPs,
        packBlockPs: this.world.params.packBlockPs,
        skeleton: this.proc.skeleton,
        nodes: nodeGroup(this.nodeHost).leaderOf,
      };
    }
    return tagged(this.collTransport, this.pinned ? this.pinned.call : this.collCalls);
  }

  /**
   * Reserves a collective call for a persistent collective at its init (MPI 4.0 §6.13: persistent
   * collectives match in the order of their init calls): `c` (the init) takes this rank's next
   * call number and is checked against the other ranks' inits; each start then runs on that number
   * (`startPinned`), in whatever order a rank starts its requests.
   */
  protected reserveCall(c: CollCall): PinnedCall {
    this.agree(c);
    const call = this.collCalls;
    const ledger = this.size > 1 ? this.world.registry.memo(`pcoll:${this.shape.ctx}:${call}`, () => new CollLedger(this.shape.members, `the ${c.call} request ${call} of the communicator of context ${this.shape.ctx}`)) : null;
    return { call, ledger };
  }

  /** Runs `start` (one start of a persistent collective) on the call `pin` reserved: its arguments are checked against the other ranks' starts of the same request. */
  protected startPinned<T>(pin: PinnedCall, start: () => T): T {
    this.pinned = pin;
    try {
      return start();
    } finally {
      this.pinned = null;
    }
  }

  /**
   * Runs a collective algorithm for this rank and waits for it: the library drives the algorithm
   * from the completions it waits for, and the rank's thread suspends once, for the whole call.
   */
  collective(alg: Coll, what: string): Promise<Status> {
    if (alg === null || typeof alg !== 'object' || typeof (alg as { next?: unknown }).next !== 'function') {
      throw new MpiError('MPI_ERR_ARG', `collective: alg must be a running collective algorithm (the generator a function of coll/ returns), got ${describe(alg)}`);
    }
    if (typeof what !== 'string') throw new MpiError('MPI_ERR_ARG', `collective: what must be a string naming the call, got ${describe(what)}`);
    return this.finish(this.launch(alg, what, true));
  }

  /**
   * Starts a collective algorithm for this rank and returns its request: a blocking call then
   * waits on it (`finish`); a nonblocking one hands it to the program, and the schedule moves on
   * inside the rank's MPI calls (see CollRun).
   */
  protected launch(alg: Coll, what: string, blocking: boolean): Request {
    const P = this.world.params;
    const run = new CollRun(this.proc, alg, what, this.world.progressOf(this.proc.rank), P.collectiveOverheadPs, P.collectiveStepPs, blocking, P.testOverheadPs);
    watchRounds(run, this.world.observer, this.proc.rank);
    this.lastRun = run;
    return blocking ? run.start() : this.track(run.start());
  }

  /** Waits for the collective `launch` just started, naming what it waits for if it never ends. */
  protected finish(req: Request): Promise<Status> {
    const run = this.lastRun!;
    this.lastRun = null;
    return req.wait(() => run.describe());
  }

  /** The algorithm to run: the call's option, else the run's choice, else the run's selector's (`mpi.collSelector`). */
  protected algorithm<C extends Collective>(coll: C, bytes: number, op: Op | undefined, opts: CollOptions | undefined, count?: number): Algorithm<C> {
    const alg = selectAlgorithm(coll, this.size, bytes, op, opts?.algorithm ?? this.world.algorithms[coll], this.selection, count);
    this.world.observer?.algorithm(this.proc.rank, alg.name);
    return alg;
  }

  /**
   * The algorithm a call of `coll` over `bytes` (as chooseAlgorithm counts them; `count` the
   * elements of a reduction, which Open MPI's allreduce rule compares with the ranks) runs when the
   * call names none: the run's choice (`--coll`), else for allreduce and barrier the SMP-aware
   * form (`smp+` the node leaders' algorithm) when it applies, else the run's selector's pick.
   * The collective engine, which only some machines and calls take, is not considered.
   */
  algorithmFor(coll: Collective, bytes: number, op?: Op, count?: number): string {
    if (!Object.hasOwn(ALGORITHMS, coll)) throw new MpiError('MPI_ERR_ARG', `algorithmFor: coll=${String(coll)} is not a collective; valid: ${Object.keys(ALGORITHMS).join(', ')}`);
    const named = this.world.algorithms[coll];
    if (named !== undefined) return typeof named === 'string' ? named : named.name;
    const sel = this.selection;
    const commutative = op?.commutative ?? true;
    if ((coll === 'allreduce' || coll === 'barrier') && this.useNodeAware(undefined, coll === 'allreduce' ? (op ?? { commutative } as Op) : undefined, bytes)) {
      return `smp+${sel.selector!.choose({ ...query(coll, sel.nodes!, bytes, commutative), ...(count !== undefined ? { count } : {}) })}`;
    }
    return sel.selector!.choose({ ...query(coll, this.size, bytes, commutative, sel.nodes, sel.ppn), ...(count !== undefined ? { count } : {}) });
  }

  /** The run's selector and how this communicator's ranks sit on nodes (made once). */
  private get selection(): SelectionContext {
    if (!this.selectionCache) {
      const g = nodeGroup(this.nodeHost);
      this.selectionCache = { selector: SELECTORS[this.world.params.collSelector], nodes: g.leaders.length, ppn: g.ppn };
    }
    return this.selectionCache;
  }
  private selectionCache: SelectionContext | null = null;

  // ---------------------------------------------------------------- the Aries collective engine

  /**
   * Whether this allreduce or barrier runs on the NIC's collective engine: asked for by name
   * (`collectiveEngine`), or, with `mpi.collectiveEngine=yes` (Cray MPT's MPICH_USE_DMAPP_COLL;
   * off by default, as there), chosen automatically when the machine has one, no algorithm is
   * named and the reduction is one item of a type and op the engine supports (seed 001: 32- and
   * 64-bit integers and floats, logical, bitwise, min/max with location; product and user ops go
   * to the CPU).
   */
  protected useCe(coll: 'allreduce' | 'barrier', opts: CollOptions | undefined, op?: Op, buf?: ReduceArray): boolean {
    const requested = opts?.algorithm ?? this.world.algorithms[coll];
    // the refusal's text is built only when the engine could be used
    if (requested !== CE_ALGORITHM && (requested !== undefined || !this.world.params.collectiveEngine || this.size <= 1)) return false;
    const why = this.proc.nic.ce === null ? `${this.proc.machine.config.name} has no collective engine` : coll === 'allreduce' ? ceRefusal(op!, buf!) : '';
    if (requested === CE_ALGORITHM) {
      if (why) throw new MpiError('MPI_ERR_ARG', `${coll}: algorithm '${CE_ALGORITHM}': ${why}`);
      return true;
    }
    return why === '';
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
  protected async ceReduce(coll: string, send: ReduceArray | null, recv: ReduceArray | null, op: Op | undefined): Promise<void> {
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
          // a member died: the tree timed out waiting for it (collective-engine.ts)
          if (r.failed) done.fail(new MpiError('MPI_ERR_OTHER', `${what}: ${this.world.failures.ceFailure(this.shape.members, r.deadNode!)}`));
          else done.complete(DONE);
        }),
      );
      await done.wait(() => `${what}: waiting for the network reduction`);
      if (recv && op && !proc.isSkeleton(recv)) writeCeResult(recv, result!, op);
      return recv;
    });
  }

  /**
   * Whether this allreduce (of `bytes`) or barrier runs node-aware (`mpi.nodeAwareCollectives`,
   * MPICH's SMP collectives): on unless an algorithm is named, when the run's selector takes that
   * path (MPICH's and Cray MPT's; MVAPICH2 has its own two-level forms, Open MPI none), when some
   * node holds two or more of the communicator's ranks, and for allreduce only with a commutative
   * op (as MPICH).
   */
  protected useNodeAware(opts: CollOptions | undefined, op?: Op, bytes = 0): boolean {
    if (!this.world.params.nodeAwareCollectives || this.size < 2) return false;
    const coll = op ? 'allreduce' : 'barrier';
    if ((opts?.algorithm ?? this.world.algorithms[coll]) !== undefined) return false;
    if (!SELECTORS[this.world.params.collSelector].smpPath(coll, bytes)) return false;
    if (op && !op.commutative) return false;
    return sharesNodes(nodeGroup(this.nodeHost));
  }

  /**
   * The SMP-aware allreduce (a barrier when `op` is undefined): the node's ranks combine on the
   * board, the leaders run the library's algorithm among themselves, and the result goes back up.
   */
  protected async smpReduce(coll: 'allreduce' | 'barrier', send: ReduceArray | null, recv: ReduceArray | null, op: Op | undefined): Promise<void> {
    const g = nodeGroup(this.nodeHost);
    const n = g.leaders.length;
    const alg = selectAlgorithm(coll, n, send ? send.byteLength : 0, op, undefined, { selector: SELECTORS[this.world.params.collSelector], ...(send ? { count: send.length } : {}) });
    this.world.observer?.algorithm(this.proc.rank, `smp+${alg.name}`);
    const what = `${coll} (node-aware, ${alg.name} over ${n} node leaders)`;
    await nodeCombine(this.nodeHost, what, send, recv, op, async (acc) => {
      if (n === 1) {
        if (recv && acc && !this.proc.isSkeleton(recv)) recv.set(acc as never);
        return recv;
      }
      const t = this.transport;
      const leaders: CollTransport = { ...t, rank: g.leaders.indexOf(this.rank), size: n, nodes: undefined, isend: (b, d, tag, w, once) => t.isend(b, g.leaders[d]!, tag, w, once), irecv: (b, s, tag, w, once) => t.irecv(b, g.leaders[s]!, tag, w, once) };
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
    this.live(c.call);
    if (this.pinned) {
      this.pinned.ledger?.enter(this.rank, c);
      return;
    }
    this.collCalls++;
    if (this.size > 1) (this.ledger ??= this.world.registry.ledgerFor(this.shape.ctx, this.shape.members)).enter(this.rank, c);
  }

  /** The element type and count of a buffer every rank must pass alike. */
  protected dataSignature(buf: ReduceArray, countName: string): { type: string; count: number; countName: string } {
    return { type: buf.constructor.name, count: buf.length, countName };
  }

  protected checkRoot(call: string, root: number): void {
    if (!Number.isInteger(root) || root < 0 || root >= this.size) throw new MpiError('MPI_ERR_ROOT', `${call}: root=${root} is not a rank of the communicator (0..${this.size - 1})`);
  }

  protected checkCounts(call: string, name: string, counts: ArrayLike<number> | null): void {
    if (!counts || typeof counts.length !== 'number' || counts.length !== this.size) throw new MpiError('MPI_ERR_COUNT', `${call}: ${name} must have one entry per rank (${this.size})`);
    for (let r = 0; r < this.size; r++) {
      const c = counts[r]!;
      if (!Number.isInteger(c) || c < 0) throw new MpiError('MPI_ERR_COUNT', `${call}: ${name}[${r}]=${c} must be a non-negative integer`);
    }
  }

  /** Counts and displacements of one block per rank, every block inside a buffer of `length` elements. */
  protected checkBlocks(call: string, countsName: string, displsName: string, counts: ArrayLike<number> | null, displs: ArrayLike<number> | null, length: number): void {
    this.checkCounts(call, countsName, counts);
    this.checkCounts(call, displsName, displs);
    for (let r = 0; r < this.size; r++) {
      if (displs![r]! + counts![r]! > length) throw new MpiError('MPI_ERR_COUNT', `${call}: block ${r} (${displsName}[${r}]=${displs![r]}, ${countsName}[${r}]=${counts![r]}) runs past the buffer's ${length} elements`);
    }
  }
}

/** A collective call number a persistent collective's init reserved, and the ledger its starts are checked in. */
export interface PinnedCall {
  readonly call: number;
  readonly ledger: CollLedger | null;
}

/** Tags one collective call's algorithm may use (util.ts TAG: bases up to 0x1e0, phases 0..15). */
const TAGS_PER_CALL = 0x200;
/** Calls whose tags differ before they repeat (tags stay below TAG_UB). */
const CALL_TAGS = 0x3fffff;
const DONE: Status = { source: -1, tag: -1, count: 0, bytes: 0 };
/** How often a rank looks again at a virtual CE another communicator holds (ps). */
const CE_POLL_PS = 50_000;

/** alltoallv: what rank i sends to rank j is what rank j expects from rank i, both ways. */
export function pairedCounts(mine: unknown, me: number, other: unknown, them: number): string | null {
  const a = mine as { send: Int32Array; recv: Int32Array };
  const b = other as { send: Int32Array; recv: Int32Array };
  if (a.send[them] !== b.recv[me]) return `rank ${me} sends ${a.send[them]} elements to rank ${them}, which expects ${b.recv[me]} (recvCounts[${me}])`;
  if (b.send[me] !== a.recv[them]) return `rank ${them} sends ${b.send[me]} elements to rank ${me}, which expects ${a.recv[them]} (recvCounts[${them}])`;
  return null;
}

/** gatherv/scatterv: a rank's buffer holds what the root's counts give it. */
export function rootCounts(root: number, buf: string): (mine: unknown, me: number, other: unknown, them: number) => string | null {
  return (mine, me, other, them) => {
    if (me !== root && them !== root) return null;
    const [counts, r, n] = me === root ? [mine as Int32Array, them, other as number] : [other as Int32Array, me, mine as number];
    return counts[r] === n ? null : `rank ${r}'s ${buf} has ${n} elements but the root's counts[${r}] is ${counts[r]}`;
  };
}

/**
 * `t` for a communicator's collective call number `calls`: the call's messages carry that number
 * in their tags, so collectives that overlap (a nonblocking one still running when the next
 * starts) never take each other's.
 */
export function tagged(t: CollTransport, calls: number): CollTransport {
  return new CallTransport(t, (calls % CALL_TAGS) * TAGS_PER_CALL);
}

/** A transport whose messages' tags are offset by a call's number (one class: its calls stay monomorphic). */
class CallTransport implements CollTransport {
  readonly rank: number;
  readonly size: number;
  readonly flopsPerPs: number;
  readonly copyBytesPerPs: number;
  readonly packBlockPs: number | undefined;
  readonly skeleton: SkeletonStore | null;
  readonly nodes: ArrayLike<number> | undefined;

  constructor(
    private readonly base: CollTransport,
    private readonly off: number,
  ) {
    this.rank = base.rank;
    this.size = base.size;
    this.flopsPerPs = base.flopsPerPs;
    this.copyBytesPerPs = base.copyBytesPerPs;
    this.packBlockPs = base.packBlockPs;
    this.skeleton = base.skeleton ?? null;
    this.nodes = base.nodes;
  }

  isend(buf: Uint8Array, dest: number, tag: number, what: string, once?: boolean): Request {
    return this.base.isend(buf, dest, tag + this.off, what, once);
  }

  irecv(buf: Uint8Array, source: number, tag: number, what: string, once?: boolean): Request {
    return this.base.irecv(buf, source, tag + this.off, what, once);
  }
}

/** `v` as a numeric typed array (MPI_ERR_BUFFER naming `name` otherwise). */
export function collBuf(call: string, name: string, v: unknown): ReduceArray {
  if (!isReduceArray(v)) throw new MpiError('MPI_ERR_BUFFER', `${call}: ${name} must be a numeric typed array, got ${describe(v)}`);
  return v;
}

/** sendBuf and recvBuf have one element type (MPI_ERR_TYPE otherwise). */
export function sameType(call: string, a: ReduceArray, b: ReduceArray): void {
  if (a.constructor !== b.constructor) throw new MpiError('MPI_ERR_TYPE', `${call}: sendBuf and recvBuf must have the same element type (got ${a.constructor.name} and ${b.constructor.name})`);
}

/** sendBuf and recvBuf have one element type and length. */
export function sameShape(call: string, a: ReduceArray, b: ReduceArray): void {
  sameType(call, a, b);
  if (a.length !== b.length) throw new MpiError('MPI_ERR_COUNT', `${call}: sendBuf and recvBuf must have the same length (got ${a.length} and ${b.length})`);
}

/** `op` is an Op defined on `buf`'s element type (checked on every rank before any message moves). */
export function checkOp(call: string, op: Op, buf: ReduceArray): void {
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
