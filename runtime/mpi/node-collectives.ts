/**
 * Node-aware collectives: the ranks of a node combine over shared memory on their lowest rank (the
 * node's leader), the leaders alone run the collective across the network, and each leader hands
 * the result back to its node. Two machines of this share the node half:
 * - the SMP-aware allreduce and barrier of MPICH (MPIR_CVAR_ENABLE_SMP_COLLECTIVES and
 *   MPIR_CVAR_ENABLE_SMP_ALLREDUCE, both on by default, the library Cray MPT is built on): the
 *   leaders run the software algorithm among themselves;
 * - the Aries collective engine (seed 001): the leaders join the NIC's reduction tree.
 * The node half is a board in shared memory: a rank stores its item (a copy, seen `mpi.shmLatency`
 * later), the leader combines them, and the result goes up on the board for the node's ranks.
 */
import { buildCeTree, type CeContribution, type CeOp, type CeResult, type CeTree, type CeType } from '../../fabric/nic/collective-engine.ts';
import type { Proc } from '../proc.ts';
import type { MpiWorld } from './core.ts';
import { BAND, BOR, BXOR, LAND, LOR, LXOR, MAX, MAXLOC, MIN, MINLOC, SUM, type Op, type ReduceArray } from './ops.ts';
import { MpiError, Request, type Status } from './request.ts';

const DONE: Status = { source: -1, tag: -1, count: 0, bytes: 0 };

/** A communicator's ranks by node. */
export interface NodeGroup {
  /** Communicator rank of each rank's node leader (its node's lowest rank). */
  readonly leaderOf: Int32Array;
  /** A leader's other ranks on its node, in rank order. */
  readonly locals: ReadonlyMap<number, readonly number[]>;
  /** The leaders in rank order. */
  readonly leaders: readonly number[];
  /** The leaders' nodes, in the same order. */
  readonly nodes: readonly number[];
  /** The most ranks any one node holds. */
  readonly ppn: number;
}

/** What a node-aware collective needs of its communicator. */
export interface NodeHost {
  readonly world: MpiWorld;
  readonly proc: Proc;
  /** This rank's communicator rank. */
  readonly rank: number;
  /** The communicator's context id. */
  readonly ctx: number;
  /** World rank of each communicator rank. */
  readonly members: ArrayLike<number>;
  /** Numbers the communicator's node-aware calls (every rank makes them in the same order). */
  nextNodeCall(): number;
}

/** The communicator's ranks by node (made once per communicator). */
export function nodeGroup(h: NodeHost): NodeGroup {
  return h.world.registry.memo(`node:${h.ctx}`, () => {
    const leaderOfNode = new Map<number, number>();
    const leaderOf = new Int32Array(h.members.length);
    const locals = new Map<number, number[]>();
    const leaders: number[] = [];
    const nodes: number[] = [];
    for (let r = 0; r < h.members.length; r++) {
      const node = h.world.procs[h.members[r]!]!.node;
      let l = leaderOfNode.get(node);
      if (l === undefined) {
        l = r;
        leaderOfNode.set(node, r);
        leaders.push(r);
        nodes.push(node);
        locals.set(r, []);
      } else locals.get(l)!.push(r);
      leaderOf[r] = l;
    }
    let ppn = 1;
    for (const rest of locals.values()) ppn = Math.max(ppn, 1 + rest.length);
    return { leaderOf, locals, leaders, nodes, ppn };
  });
}

/** Whether a node holds two or more of the communicator's ranks (a node-aware algorithm pays off). */
export function sharesNodes(g: NodeGroup): boolean {
  return g.leaders.length < g.leaderOf.length;
}

/** A node's shared-memory board for one call: its ranks' items, then the result. */
interface Board {
  readonly items: (ReduceArray | null)[];
  /** The leader, when it waits for items. */
  waiting: Request | null;
  result: ReduceArray | null;
  /** The node's other ranks, waiting for the result. */
  readonly readers: Request[];
}

/**
 * The leaders' part of a node-aware call: gets the node's combined item (null for a barrier) and
 * returns the result every rank gets (for a barrier: null, once every node has arrived).
 */
export type LeaderPart = (acc: ReduceArray | null) => Promise<ReduceArray | null>;

/**
 * One node-aware reduction (a barrier when `op` is undefined): the node's ranks store their items
 * on the board, the leader combines them, runs `leaderPart` and puts the result on the board.
 */
export async function nodeCombine(h: NodeHost, what: string, send: ReduceArray | null, recv: ReduceArray | null, op: Op | undefined, leaderPart: LeaderPart): Promise<void> {
  const g = nodeGroup(h);
  const me = h.rank;
  const leader = g.leaderOf[me]!;
  const locals = g.locals.get(leader)!;
  const P = h.world.params;
  const proc = h.proc;
  if (P.collectiveOverheadPs > 0) proc.charge(P.collectiveOverheadPs);
  const key = `node:${h.ctx}:${leader}:${h.nextNodeCall()}`;
  const board = h.world.registry.memo(key, (): Board => ({ items: [], waiting: null, result: null, readers: [] }));
  const copyPs = (b: ReduceArray | null): number => (b ? Math.ceil(b.byteLength / P.copyBytesPerPs) : 0);
  if (me !== leader) {
    // store the item on the node's board; the leader sees it shmLatency later
    const at = proc.charge(copyPs(send)) + P.shmLatencyPs;
    // a skeleton buffer goes on the board as it is: sizes only, no copy
    const item = send ? (proc.isSkeleton(send) ? send : (send.slice() as ReduceArray)) : null;
    h.world.runAt(proc, at, () => {
      board.items.push(item);
      if (board.items.length === locals.length) board.waiting?.complete(DONE);
    });
    const r = new Request(proc, 0, what, h.world.progressOf(proc.rank));
    board.readers.push(r);
    await r.wait(() => `${what}: waiting for the result from rank ${leader}`);
    if (recv && board.result && !proc.isSkeleton(recv)) recv.set(board.result as never);
    return;
  }
  if (board.items.length < locals.length) {
    board.waiting = new Request(proc, 0, what, h.world.progressOf(proc.rank));
    await board.waiting.wait(() => `${what}: waiting for ${locals.length - board.items.length} ranks of this node`);
  }
  // every rank of the node holds the board now
  h.world.registry.forget(key);
  let acc: ReduceArray | null = null;
  if (send && op) {
    acc = proc.isSkeleton(send) ? send : (send.slice() as ReduceArray);
    if (locals.length > 0) {
      if (!proc.isSkeleton(send)) for (const x of board.items) op.apply(acc, x!);
      await proc.cpu(Math.ceil((locals.length * acc.byteLength) / P.copyBytesPerPs + (locals.length * acc.length) / proc.machine.config.cpu.flopsPerPs), `${what}: combining this node's items`);
    }
  }
  let result: ReduceArray | null;
  try {
    result = await leaderPart(acc);
  } catch (e) {
    // the network part failed (a dead node): the node's ranks get the same error
    if (e instanceof MpiError) {
      const err = e;
      h.world.runAt(proc, proc.time() + P.shmLatencyPs, () => board.readers.forEach((r) => r.fail(err)));
    }
    throw e;
  }
  if (recv && result && recv !== result && !proc.isSkeleton(recv)) recv.set(result as never);
  // the result goes up on the board; the node's ranks see it shmLatency later
  board.result = recv && !proc.isSkeleton(recv) ? (recv.slice() as ReduceArray) : null;
  h.world.runAt(proc, proc.charge(copyPs(recv)) + P.shmLatencyPs, () => {
    for (const r of board.readers) r.complete(DONE);
  });
}

// ---------------------------------------------------------------- the Aries collective engine

/** The communicator's engine tree over its nodes and its virtual CE (made once per communicator). */
export function ceTree(h: NodeHost): { readonly tree: CeTree; readonly engine: number } {
  return h.world.registry.memo(`ce:${h.ctx}`, () => {
    const g = nodeGroup(h);
    const nic = h.proc.nic;
    return { tree: buildCeTree([...g.nodes], h.proc.machine.config.nic.ceRadix), engine: (h.ctx >> 1) % nic.ce!.engines };
  });
}

/** The engine's name for each MPI op it runs (no PROD, no user ops: seed 001 footnote 7). */
const CE_OPS = new Map<Op, CeOp>([
  [SUM, 'sum'],
  [MIN, 'min'],
  [MAX, 'max'],
  [MINLOC, 'minloc'],
  [MAXLOC, 'maxloc'],
  [BAND, 'band'],
  [BOR, 'bor'],
  [BXOR, 'bxor'],
  [LAND, 'land'],
  [LOR, 'lor'],
  [LXOR, 'lxor'],
]);

/** The engine's operand type for a buffer, or null. */
function ceType(buf: ReduceArray): CeType | null {
  if (buf instanceof Int32Array) return 'int32';
  if (buf instanceof Uint32Array) return 'uint32';
  if (buf instanceof BigInt64Array) return 'int64';
  if (buf instanceof BigUint64Array) return 'uint64';
  if (buf instanceof Float32Array) return 'float32';
  if (buf instanceof Float64Array) return 'float64';
  return null;
}

/** Why the engine cannot run this allreduce ('' if it can). */
export function ceRefusal(op: Op, buf: ReduceArray): string {
  if (!CE_OPS.has(op)) return `${op.name} is not an operation of the collective engine (no product or user-defined ops)`;
  if (!ceType(buf)) return `${buf.constructor.name} is not a 32- or 64-bit operand type`;
  if (buf.length !== op.unit) return `the engine reduces one item (${op.unit} element${op.unit > 1 ? 's' : ''}), not ${buf.length}`;
  return '';
}

/** This node's contribution: a barrier, or the combined item of its ranks. */
export function ceContribution(op: Op | undefined, acc: ReduceArray | null): CeContribution {
  if (!op || !acc) return { op: 'barrier' };
  const id = op.unit === 2 ? Number(acc[1]!) : undefined;
  return { op: CE_OPS.get(op)!, type: ceType(acc)!, value: acc[0]!, ...(id !== undefined ? { id } : {}) };
}

/** Writes the engine's result into the receive buffer (value, and location for MINLOC/MAXLOC). */
export function writeCeResult(recv: ReduceArray, r: CeResult, op: Op): void {
  const big = recv instanceof BigInt64Array || recv instanceof BigUint64Array;
  (recv as unknown as (number | bigint)[])[0] = big ? BigInt(r.value!) : Number(r.value!);
  if (op.unit === 2) (recv as unknown as (number | bigint)[])[1] = big ? BigInt(r.id!) : r.id!;
}
