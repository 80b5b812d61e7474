/**
 * The Aries collective engine (seed 001 "Reductions and Barriers"): reduction trees among the
 * NICs of a job, partial results combined by the NICs on the way up, the result scattered back
 * down and written to host memory at every endpoint, with no host involvement in between.
 */
import type { Engine, EventHandler } from '../engine/engine.ts';
import type { PacketPool } from '../packet.ts';
import type { CeTree } from './ce-tree.ts';
import type { NicParams } from './nic.ts';

export { buildCeTree, type CeTree } from './ce-tree.ts';

/** Reduction operations of the CE (no product: seed 001 footnote 7 runs it on the CPU). */
export type CeOp = 'sum' | 'min' | 'max' | 'minloc' | 'maxloc' | 'band' | 'bor' | 'bxor' | 'land' | 'lor' | 'lxor' | 'barrier';

/** Operand types of the CE: 32- and 64-bit integers and floats (seed 001). */
export type CeType = 'int32' | 'uint32' | 'int64' | 'uint64' | 'float32' | 'float64';

/** Every CE operation, in the order of their codes in a CE packet's header. */
export const CE_OPS: readonly CeOp[] = ['sum', 'min', 'max', 'minloc', 'maxloc', 'band', 'bor', 'bxor', 'land', 'lor', 'lxor', 'barrier'];

/** Every CE operand type, in the order of their codes in a CE packet's header. */
export const CE_TYPES: readonly CeType[] = ['int32', 'uint32', 'int64', 'uint64', 'float32', 'float64'];

/** One node's part in a reduction: 64-bit integer types take a bigint, the others a number. */
export interface CeContribution {
  readonly op: CeOp;
  /** Operand type; not needed for a barrier. */
  readonly type?: CeType;
  /** The operand; not needed for a barrier. float32 operands are rounded to float32 on entry. */
  readonly value?: number | bigint;
  /** minloc/maxloc: the identifier returned with the winning value (a 32-bit integer). */
  readonly id?: number;
}

/** What every member receives when a reduction completes. */
export interface CeResult {
  readonly op: CeOp;
  /** The reduced value (undefined for a barrier). */
  readonly value?: number | bigint;
  /** minloc/maxloc: the identifier of the winning value (the lowest among equal values). */
  readonly id?: number;
  /**
   * The reduction failed: the tree timed out waiting for a member, because its node died or a
   * packet of the tree from it was lost on a link that failed. The value is then meaningless;
   * `deadNode` names the member the first timeout was for.
   */
  readonly failed?: boolean;
  readonly deadNode?: number;
}

/** What the CE uses of its NIC: the host interface and the output pipeline. */
export interface CeNicPort {
  /** A CPU store of `bytes` to the NIC issued now (an FMA put's issue cost); returns when it is at the NIC. */
  store(bytes: number): number;
  /** A posted write of `bytes` to host memory from `t`; returns when it has landed. */
  write(t: number, bytes: number): number;
  /** Queues CE packet `p` (dst, txn, bytes and data filled) on the output pipeline at `ready`. */
  send(p: number, ready: number): void;
  /** When node `node` dies (ps), Infinity while it lives (faults.nodes). */
  deathPs(node: number): number;
  /** How long a NIC waits for a dead member, or a lost packet, before failing the reduction (nic.timeout, ps). */
  timeoutPs(): number;
}

/** Bytes of the host store of a contribution and of the result write: operand and identifier. */
const HOST_BYTES = 16;
/** Layout of a CE packet's data slot: operand (8 bytes), identifier (4), op and type codes (header fields). */
const D_ID = 8;
const D_OP = 12;
const D_TYPE = 13;
/** Bit of the op code that marks a failed reduction (a member timed out); the identifier then names the dead node. */
const FAILED = 0x80;
/** Direction of a CE packet, in bit 0 of its `txn` field (the bits above: the virtual CE). */
const DOWN = 1;
const EV_DONE = 0;
const EV_TIMEOUT = 1;

type Value = number | bigint;

/** One virtual CE's state on one NIC. */
class VirtualCe {
  /** The host has joined and not yet had its result (a second join is an error). */
  busy = false;
  onDone: ((r: CeResult) => void) | null = null;
  tree: CeTree | null = null;
  member = -1;
  // the operation being gathered at this NIC
  joined = false;
  op = 0;
  type = 0;
  value: Value = 0;
  id = 0;
  /** When every input gathered so far has been combined (local store and child packets). */
  readyAt = 0;
  /** Children's partial results gathered so far (possibly before the local join). */
  readonly fromNode: number[] = [];
  readonly fromOp: number[] = [];
  readonly fromType: number[] = [];
  readonly fromValue: Value[] = [];
  readonly fromId: number[] = [];
  /** The partial result has gone up; waiting for the result to come down. */
  waitingDown = false;
  result: CeResult | null = null;
  /** Counts the waits (joined, gone up): a timeout armed for an earlier wait finds a later count and does nothing. */
  wait = 0;
  /** The operation gathered here has failed (a child timed out, or a child's partial result came up failed), naming the dead node. */
  failed = false;
  deadNode = -1;
  /** Dead children whose wait has timed out in this operation: their inputs count as in, failed. */
  readonly timedOut: number[] = [];
  /** Children whose partial result for this operation was lost on its way (a failed link), and when. */
  readonly lostFrom: number[] = [];
  readonly lostAt: number[] = [];
}

/**
 * The collective engine of one NIC: `engines` virtual CEs, each with at most one pending
 * collective, sharing one combining unit that takes `ceOpPs` per child input.
 *
 * Timing: a join is a CPU store of the contribution across the host interface (as an FMA put's
 * issue). A NIC combines each child's partial result as it arrives; once its own contribution and
 * every child's are in, it sends one packet (operand, identifier) up to its parent on the request
 * VCs, through the same output pipeline, links and buffers as every other packet, so a loaded
 * network slows the CE. The root's result, and at every other NIC the result packet's arrival,
 * is forwarded to each child (one packet each) and written to host memory with a completion
 * event; `onDone` runs when the event has landed.
 *
 * Values: the combining order is fixed by the tree (a NIC's own value, then its children's in
 * tree order), so a result depends on the tree alone, never on arrival times. Integer results wrap
 * to their width; float32 is rounded to float32 after every combine, so a float sum can change
 * with the tree's shape: bit-reproducible reductions therefore run on the CPU (seed 001
 * footnote 7). The hardware's own combining order is not documented; this one is assumed.
 *
 * A dead member (faults.nodes): a NIC waiting for a child's partial result, or for its parent's
 * result, from a node that has died gives up `nic.timeout` after it started waiting or the node
 * died, whichever is later (the NIC timeout of seed 001 "Reliability", assumed to apply to the
 * engine's tree as to a transaction; the seed gives no value for either). A child that times out
 * sends its partial result up marked failed, which makes every combine above it fail, so the root
 * scatters a failed result to every member it still reaches; a NIC whose parent is dead scatters
 * the failed result to its own subtree. Every live member thus gets a failed result, the dead
 * node named, instead of waiting for ever.
 *
 * A lost packet (a link failed under it, with no parallel link left: network.ts): the wait for it
 * times out the same way, `nic.timeout` after the wait began or the packet was lost, whichever is
 * later: a NIC whose child's partial result was lost fails the reduction there as for a dead
 * child, one whose result from its parent was lost scatters the failed result to its subtree as
 * for a dead parent. The packet's sender is named as the member the tree timed out on. Only a
 * loss arms the timeout (the model knows which packets are lost), so a member that joins late
 * never times a slow reduction out.
 */
export class CollectiveEngine implements EventHandler {
  readonly id: number;
  private readonly ces: VirtualCe[] = [];
  /** The combining unit, shared by the virtual CEs, is free from this time. */
  private aluFree = 0;
  /** Collectives completed at this NIC. */
  completed = 0;
  /** Scratch for a float64 operand's bytes. */
  private readonly f64 = new Float64Array(1);
  private readonly f64Bytes = new Uint8Array(this.f64.buffer);
  /** A timeout event's wait slots: a child's index (below the radix), or `parentSlot` for the parent. */
  private readonly slots: number;
  private readonly parentSlot: number;

  constructor(
    private readonly engine: Engine,
    private readonly pkts: PacketPool,
    readonly node: number,
    private readonly params: NicParams,
    private readonly port: CeNicPort,
  ) {
    this.id = engine.register(this);
    for (let e = 0; e < params.ceEngines; e++) this.ces.push(new VirtualCe());
    this.parentSlot = params.ceRadix;
    this.slots = params.ceRadix + 1;
  }

  /** Virtual CEs of this NIC. */
  get engines(): number {
    return this.ces.length;
  }

  /** Whether virtual CE `engine` has a collective pending (joined, result not yet delivered). */
  busy(engine: number): boolean {
    return this.ces[engine]?.busy ?? false;
  }

  /**
   * Joins this node's contribution to the next collective on virtual CE `engine` of `tree`;
   * `onDone` gets the result when it is in host memory (the CQ event). Returns the CPU time (ps)
   * of the join. Every member must join the same op and type on the same engine with the same
   * tree. A second join on a busy engine, a bad engine, tree, op, type or value is a programming
   * error at this layer and throws a RangeError naming it.
   */
  join(tree: CeTree, engine: number, contribution: CeContribution, onDone: (r: CeResult) => void): number {
    const v = this.ces[engine];
    if (v === undefined || !Number.isInteger(engine)) throw new RangeError(`CE ${this.node}: engine=${engine} must be 0..${this.ces.length - 1}`);
    if (v.busy) throw new RangeError(`CE ${this.node}: engine ${engine} already has a collective pending`);
    if (tree.radix > this.params.ceRadix) throw new RangeError(`CE ${this.node}: tree radix ${tree.radix} exceeds the CE's ${this.params.ceRadix}`);
    const member = tree.index.get(this.node);
    if (member === undefined) throw new RangeError(`CE ${this.node}: node ${this.node} is not a member of the tree`);
    const [op, type, value, id] = checkContribution(this.node, contribution);
    v.busy = true;
    v.onDone = onDone;
    v.tree = tree;
    v.member = member;
    v.joined = true;
    v.op = op;
    v.type = type;
    v.value = value;
    v.id = id;
    v.wait++;
    const at = this.port.store(HOST_BYTES);
    if (at > v.readyAt) v.readyAt = at;
    for (let i = 0; i < v.fromNode.length; i++) this.checkInput(v, engine, i);
    // a child that dies (or has died) before its partial result is in times the wait out
    tree.children[member]!.forEach((c, k) => this.armTimeout(v, engine, c, k));
    this.tryComplete(v, engine);
    return this.params.fmaIssuePs;
  }

  /** A CE packet's tail is through this NIC's input pipeline at `t`. */
  receive(p: number, t: number): void {
    const pk = this.pkts;
    const data = pk.dataOf(p);
    const base = pk.dataAt(p);
    const engine = pk.txn[p]! >> 1;
    const down = (pk.txn[p]! & DOWN) !== 0;
    const failed = (data[base + D_OP]! & FAILED) !== 0;
    const op = data[base + D_OP]! & ~FAILED;
    const type = data[base + D_TYPE]!;
    const value = this.readValue(data, base, type);
    const id = readId(data, base);
    const src = pk.src[p]!;
    pk.free(p);
    const v = this.ces[engine];
    if (v === undefined) throw new Error(`CE ${this.node}: packet from node ${src} for engine ${engine}, which this NIC lacks`);
    if (down) {
      if (!v.waitingDown) throw new Error(`CE ${this.node}: result from node ${src} on engine ${engine}, which has no partial result up`);
      if (v.tree!.parent[v.member] !== src) throw new Error(`CE ${this.node}: result on engine ${engine} from node ${src}, not its parent`);
      if (failed) {
        v.failed = true;
        v.deadNode = id;
      }
      this.finish(v, engine, op, type, value, id, t);
      return;
    }
    if (v.waitingDown) throw new Error(`CE ${this.node}: partial result from node ${src} on engine ${engine} while its own is up the tree`);
    // one combine per child input, in arrival order on the shared unit
    const go = Math.max(t, this.aluFree);
    this.aluFree = go + this.params.ceOpPs;
    if (this.aluFree > v.readyAt) v.readyAt = this.aluFree;
    v.fromNode.push(src);
    v.fromOp.push(op);
    v.fromType.push(type);
    v.fromValue.push(value);
    v.fromId.push(id);
    if (failed && !v.failed) {
      v.failed = true;
      v.deadNode = id;
    }
    if (v.joined) {
      this.checkInput(v, engine, v.fromNode.length - 1);
      this.tryComplete(v, engine);
    }
  }

  /**
   * CE packet `p`, on its way to this NIC, was lost at `t` on a link that failed under it: the
   * wait for it (a child's partial result, or the parent's result) times out `nic.timeout` after
   * it began or `t`, whichever is later. A partial result lost before this node joined is
   * remembered, and its timeout armed at the join.
   */
  lost(p: number, t: number): void {
    const pk = this.pkts;
    const engine = pk.txn[p]! >> 1;
    const down = (pk.txn[p]! & DOWN) !== 0;
    const src = pk.src[p]!;
    pk.free(p);
    const v = this.ces[engine];
    if (v === undefined || this.port.deathPs(this.node) <= t) return;
    if (down) {
      if (v.waitingDown && v.tree!.parent[v.member] === src) this.armAt(v, engine, this.parentSlot, t);
      return;
    }
    v.lostFrom.push(src);
    v.lostAt.push(t);
    if (!v.joined) return;
    const slot = v.tree!.children[v.member]!.indexOf(src);
    if (slot >= 0) this.armAt(v, engine, slot, t);
  }

  onEvent(kind: number, arg: number): void {
    if (kind === EV_TIMEOUT) {
      this.timeOut(arg);
      return;
    }
    const engine = arg;
    const v = this.ces[engine]!;
    const cb = v.onDone!;
    const r = v.result!;
    v.busy = false;
    v.onDone = null;
    v.result = null;
    this.completed++;
    cb(r);
  }

  /**
   * Arms the timeout of the wait of virtual CE `engine` for node `from` (child `slot` of this
   * node's, or `parentSlot`) if that node dies, or its partial result was lost before the join.
   */
  private armTimeout(v: VirtualCe, engine: number, from: number, slot: number): void {
    let since = this.port.deathPs(from);
    if (slot !== this.parentSlot) {
      const k = v.lostFrom.indexOf(from);
      if (k >= 0 && v.lostAt[k]! < since) since = v.lostAt[k]!;
    }
    if (since !== Infinity) this.armAt(v, engine, slot, since);
  }

  /**
   * Arms the timeout of the current wait of virtual CE `engine` on `slot` (a child's index, or
   * `parentSlot`): `nic.timeout` after the wait began (now) or `sincePs` (the node's death, the
   * packet's loss), whichever is later. The event carries the engine, the slot and the wait's count.
   */
  private armAt(v: VirtualCe, engine: number, slot: number, sincePs: number): void {
    const at = Math.max(this.engine.now, sincePs) + this.port.timeoutPs();
    this.engine.at(at, this.id, EV_TIMEOUT, (v.wait * this.slots + slot) * this.ces.length + engine);
  }

  /** A wait's timeout ran out: if it still waits for its dead node, the reduction fails here. */
  private timeOut(arg: number): void {
    const engine = arg % this.ces.length;
    const rest = (arg - engine) / this.ces.length;
    const slot = rest % this.slots;
    const v = this.ces[engine]!;
    const now = this.engine.now;
    // a dead NIC does nothing; a wait that has ended since it was armed is over
    if (this.port.deathPs(this.node) <= now || (rest - slot) / this.slots !== v.wait) return;
    const tree = v.tree!;
    if (slot === this.parentSlot) {
      // the parent is dead: this NIC scatters the failed result to its own subtree
      v.failed = true;
      v.deadNode = tree.parent[v.member]!;
      this.finish(v, engine, v.op, v.type, 0, 0, now);
      return;
    }
    const child = tree.children[v.member]![slot]!;
    if (v.fromNode.includes(child)) return;
    v.timedOut.push(child);
    if (!v.failed) {
      v.failed = true;
      v.deadNode = child;
    }
    if (now > v.readyAt) v.readyAt = now;
    this.tryComplete(v, engine);
  }

  /** Input i gathered on `v` must come from a child of this node in the tree, with the same op and type. */
  private checkInput(v: VirtualCe, engine: number, i: number): void {
    const src = v.fromNode[i]!;
    const tree = v.tree!;
    const m = tree.index.get(src);
    if (m === undefined || tree.parent[m] !== this.node) throw new Error(`CE ${this.node}: partial result on engine ${engine} from node ${src}, which is not its child`);
    if (v.fromNode.indexOf(src) !== i) throw new Error(`CE ${this.node}: two partial results on engine ${engine} from node ${src}`);
    if (v.fromOp[i] !== v.op || (v.op !== BARRIER && v.fromType[i] !== v.type)) {
      throw new Error(`CE ${this.node}: node ${src} joined ${describe(v.fromOp[i]!, v.fromType[i]!)} on engine ${engine}, this node ${describe(v.op, v.type)}`);
    }
  }

  /**
   * When the local contribution and every child's are in (or the reduction has failed): combine
   * in tree order and pass the result on; a failed one goes on with the dead node in place of
   * the identifier.
   */
  private tryComplete(v: VirtualCe, engine: number): void {
    const tree = v.tree!;
    const kids = tree.children[v.member]!;
    if (!v.joined || v.fromNode.length + v.timedOut.length < kids.length) return;
    let value = v.value;
    let id = v.id;
    if (v.failed) {
      value = 0;
      id = v.deadNode;
    } else {
      for (const c of kids) {
        const i = v.fromNode.indexOf(c);
        [value, id] = combine(v.op, v.type, value, id, v.fromValue[i]!, v.fromId[i]!);
      }
    }
    const ready = v.readyAt;
    const parent = tree.parent[v.member]!;
    const op = v.op;
    const type = v.type;
    v.joined = false;
    v.readyAt = 0;
    v.fromNode.length = v.fromOp.length = v.fromType.length = v.fromValue.length = v.fromId.length = 0;
    v.timedOut.length = 0;
    v.lostFrom.length = v.lostAt.length = 0;
    if (parent < 0) {
      this.finish(v, engine, op, type, value, id, ready);
    } else {
      v.waitingDown = true;
      v.wait++;
      this.sendPacket(parent, engine, false, op | (v.failed ? FAILED : 0), type, value, id, ready);
      this.armTimeout(v, engine, parent, this.parentSlot);
    }
  }

  /** The result is at this NIC at `t`: forward it to the children, write it to host memory, raise the event. */
  private finish(v: VirtualCe, engine: number, op: number, type: number, value: Value, id: number, t: number): void {
    const failed = v.failed;
    const dead = v.deadNode;
    v.waitingDown = false;
    v.failed = false;
    v.deadNode = -1;
    v.wait++;
    const sent = failed ? 0 : value;
    for (const c of v.tree!.children[v.member]!) this.sendPacket(c, engine, true, op | (failed ? FAILED : 0), type, sent, failed ? dead : id, t);
    this.port.write(t, HOST_BYTES);
    const landed = this.port.write(t, this.params.cqEventBytes);
    v.result = failed ? { op: CE_OPS[op]!, failed: true, deadNode: dead } : { op: CE_OPS[op]!, ...resultFields(op, type, value, id) };
    this.engine.at(landed, this.id, EV_DONE, engine);
  }

  private sendPacket(dst: number, engine: number, down: boolean, op: number, type: number, value: Value, id: number, ready: number): void {
    const pk = this.pkts;
    const p = pk.alloc();
    const data = pk.dataOf(p);
    const base = pk.dataAt(p);
    pk.dst[p] = dst;
    pk.txn[p] = (engine << 1) | (down ? DOWN : 0);
    pk.offset[p] = 0;
    // on the wire: the operand at its width, the identifier of minloc/maxloc; a barrier carries no data
    const code = op & ~FAILED;
    pk.bytes[p] = code === BARRIER ? 0 : WIDTH[type]! + (code === MINLOC || code === MAXLOC ? 4 : 0);
    this.writeValue(data, base, type, code === BARRIER ? 0 : value);
    writeId(data, base, id);
    data[base + D_OP] = op;
    data[base + D_TYPE] = type;
    this.port.send(p, ready);
  }

  /** Writes the operand as 8 little-endian bytes: 64-bit integers as two's complement, other types as a float64 (exact for all of them). */
  private writeValue(data: Uint8Array, base: number, type: number, v: Value): void {
    if (type === INT64 || type === UINT64) {
      let u = BigInt.asUintN(64, BigInt(v));
      for (let i = 0; i < 8; i++, u >>= 8n) data[base + i] = Number(u & 0xffn);
    } else {
      this.f64[0] = Number(v);
      data.set(this.f64Bytes, base);
    }
  }

  private readValue(data: Uint8Array, base: number, type: number): Value {
    if (type === INT64 || type === UINT64) {
      let u = 0n;
      for (let i = 7; i >= 0; i--) u = (u << 8n) | BigInt(data[base + i]!);
      return type === INT64 ? BigInt.asIntN(64, u) : u;
    }
    this.f64Bytes.set(data.subarray(base, base + 8));
    return this.f64[0]!;
  }
}

const SUM = 0;
const MIN = 1;
const MAX = 2;
const MINLOC = 3;
const MAXLOC = 4;
const BAND = 5;
const BOR = 6;
const BXOR = 7;
const LAND = 8;
const LOR = 9;
const LXOR = 10;
const BARRIER = 11;

const INT32 = 0;
const UINT32 = 1;
const INT64 = 2;
const UINT64 = 3;
const FLOAT32 = 4;
const FLOAT64 = 5;
const WIDTH = [4, 4, 8, 8, 4, 8];

function describe(op: number, type: number): string {
  return op === BARRIER ? 'barrier' : `${CE_OPS[op]} ${CE_TYPES[type]}`;
}

/** Checks a contribution; returns its op and type codes, its operand (float32 rounded) and identifier. */
function checkContribution(node: number, c: CeContribution): [number, number, Value, number] {
  const op = CE_OPS.indexOf(c.op);
  if (op < 0) {
    const why = String(c.op) === 'prod' ? ' (no product on the CE: seed 001 footnote 7 runs it on the CPU)' : '';
    throw new RangeError(`CE ${node}: op=${String(c.op)} is not a CE operation${why}; valid: ${CE_OPS.join(', ')}`);
  }
  if (op === BARRIER) return [op, 0, 0, 0];
  const type = c.type === undefined ? -1 : CE_TYPES.indexOf(c.type);
  if (type < 0) throw new RangeError(`CE ${node}: type=${String(c.type)} is not a CE operand type; valid: ${CE_TYPES.join(', ')}`);
  const float = type === FLOAT32 || type === FLOAT64;
  if (float && op >= BAND) throw new RangeError(`CE ${node}: op=${c.op} needs an integer type, got type=${c.type}`);
  const v = c.value;
  let value: Value;
  if (type === INT64 || type === UINT64) {
    const lo = type === INT64 ? -(1n << 63n) : 0n;
    const hi = type === INT64 ? (1n << 63n) - 1n : (1n << 64n) - 1n;
    if (typeof v !== 'bigint' || v < lo || v > hi) throw new RangeError(`CE ${node}: value=${String(v)} must be a bigint in ${lo}..${hi} for type ${c.type}`);
    value = v;
  } else if (float) {
    if (typeof v !== 'number') throw new RangeError(`CE ${node}: value=${String(v)} must be a number for type ${c.type}`);
    value = type === FLOAT32 ? Math.fround(v) : v;
  } else {
    const lo = type === INT32 ? -(2 ** 31) : 0;
    const hi = type === INT32 ? 2 ** 31 - 1 : 2 ** 32 - 1;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi) throw new RangeError(`CE ${node}: value=${String(v)} must be an integer in ${lo}..${hi} for type ${c.type}`);
    value = v;
  }
  let id = 0;
  if (op === MINLOC || op === MAXLOC) {
    if (c.id === undefined || !Number.isInteger(c.id) || c.id < -(2 ** 31) || c.id > 2 ** 31 - 1) {
      throw new RangeError(`CE ${node}: op=${c.op} needs id, a 32-bit integer; got id=${String(c.id)}`);
    }
    id = c.id;
  }
  return [op, type, value, id];
}

function resultFields(op: number, type: number, value: Value, id: number): { value?: Value; id?: number } {
  if (op === BARRIER) return {};
  if (op === MINLOC || op === MAXLOC) return { value: normalise(type, value), id };
  return { value: normalise(type, value) };
}

/** The value as the API hands it out: a bigint for 64-bit integer types, a number otherwise. */
function normalise(type: number, v: Value): Value {
  if (type === INT64) return BigInt.asIntN(64, BigInt(v));
  if (type === UINT64) return BigInt.asUintN(64, BigInt(v));
  return Number(v);
}

/** Wraps an integer result to its type's width. */
function wrap(type: number, v: Value): Value {
  switch (type) {
    case INT32:
      return Number(v) | 0;
    case UINT32:
      return Number(v) >>> 0;
    case INT64:
      return BigInt.asIntN(64, v as bigint);
    case UINT64:
      return BigInt.asUintN(64, v as bigint);
    case FLOAT32:
      return Math.fround(v as number);
    default:
      return v;
  }
}

/** Combines a (with identifier ai) and b (bi) under op for type; returns the value and identifier. */
function combine(op: number, type: number, a: Value, ai: number, b: Value, bi: number): [Value, number] {
  const big = typeof a === 'bigint';
  switch (op) {
    case SUM:
      return [wrap(type, big ? (a as bigint) + (b as bigint) : (a as number) + (b as number)), 0];
    case MIN:
      return [type >= FLOAT32 ? Math.min(a as number, b as number) : b < a ? b : a, 0];
    case MAX:
      return [type >= FLOAT32 ? Math.max(a as number, b as number) : b > a ? b : a, 0];
    case MINLOC:
      return b < a || (b === a && bi < ai) ? [b, bi] : [a, ai];
    case MAXLOC:
      return b > a || (b === a && bi < ai) ? [b, bi] : [a, ai];
    case BAND:
      return [wrap(type, big ? (a as bigint) & (b as bigint) : (a as number) & (b as number)), 0];
    case BOR:
      return [wrap(type, big ? (a as bigint) | (b as bigint) : (a as number) | (b as number)), 0];
    case BXOR:
      return [wrap(type, big ? (a as bigint) ^ (b as bigint) : (a as number) ^ (b as number)), 0];
    case LAND:
      return [truth(type, isTrue(a) && isTrue(b)), 0];
    case LOR:
      return [truth(type, isTrue(a) || isTrue(b)), 0];
    case LXOR:
      return [truth(type, isTrue(a) !== isTrue(b)), 0];
    default:
      return [a, 0];
  }
}

function isTrue(v: Value): boolean {
  return typeof v === 'bigint' ? v !== 0n : v !== 0;
}

function truth(type: number, t: boolean): Value {
  if (type === INT64 || type === UINT64) return t ? 1n : 0n;
  return t ? 1 : 0;
}

function writeId(data: Uint8Array, base: number, id: number): void {
  for (let i = 0; i < 4; i++) data[base + D_ID + i] = (id >>> (8 * i)) & 0xff;
}

function readId(data: Uint8Array, base: number): number {
  let id = 0;
  for (let i = 0; i < 4; i++) id |= data[base + D_ID + i]! << (8 * i);
  return id;
}
