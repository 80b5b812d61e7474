import type { Engine, EventHandler } from './engine/engine.ts';
import { parseTimePs } from './units.ts';

/** One node's death: the node and the simulated time (ps) it dies at (0: dead from the start). */
export interface NodeDeath {
  readonly node: number;
  readonly atPs: number;
}

/** The node faults of a machine: which nodes die, when, and the NIC timeout that reports them. */
export interface NodeFaultConfig {
  readonly deaths: readonly NodeDeath[];
  /** How long an initiating NIC waits for a transaction's responses before failing it. */
  readonly timeoutPs: number;
}

const ITEM = /^(\d+)(?:@(.+))?$/;
/** Latest time of death: one hour, the cap of every time parameter. */
const MAX_DEATH_PS = 3600e12;

/** Whether `text` is a `faults.nodes` value: none, or node ids each with an optional @time, joined by commas. */
export function isDeadNodesText(text: string): boolean {
  try {
    parseDeadNodes(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads a `faults.nodes` value: `none`, or items `N` (node N is dead from the start) or `N@T`
 * (it dies at simulated time T, e.g. `12@3us`) joined by commas. Throws a RangeError naming the
 * bad item; a node named twice is refused.
 */
export function parseDeadNodes(text: string): NodeDeath[] {
  const t = text.trim();
  if (t === 'none') return [];
  const out: NodeDeath[] = [];
  for (const raw of t.split(',')) {
    const item = raw.trim();
    const m = ITEM.exec(item);
    if (!m) throw new RangeError(`"${item}" is not a node id with an optional @time, e.g. 3 or 12@2us`);
    const node = Number(m[1]);
    if (!Number.isSafeInteger(node)) throw new RangeError(`node id "${m[1]}" is too large`);
    const atPs = m[2] === undefined ? 0 : parseTimePs(m[2]);
    if (atPs > MAX_DEATH_PS) throw new RangeError(`time of death "${m[2]}" is more than 1 hour (3600s)`);
    if (out.some((d) => d.node === node)) throw new RangeError(`node ${node} is named twice`);
    out.push({ node, atPs });
  }
  return out;
}

/** Receives the death of a node, at its time. */
export type DeathListener = (node: number, atPs: number) => void;

/**
 * The dead nodes of a run (seed 001 "Reliability": the initiating NIC times out a transaction
 * whose packets were discarded and reports a timeout error to the user process). A dead node's
 * NIC neither sends nor answers; `deathPs` holds each node's time of death (Infinity: it lives),
 * and listeners hear of each death when the engine reaches its time (the runtime stops the
 * node's ranks then).
 */
export class NodeFaults implements EventHandler {
  /** Per node: when it dies (ps), Infinity while it lives. */
  readonly deathPs: Float64Array;
  /** Transactions that ended with a timeout, and the packets dead NICs dropped. */
  timeouts = 0;
  dropped = 0;
  private readonly listeners: DeathListener[] = [];
  private readonly id: number;

  constructor(
    engine: Engine,
    nodes: number,
    readonly config: NodeFaultConfig,
  ) {
    this.deathPs = new Float64Array(nodes).fill(Infinity);
    this.id = engine.register(this);
    for (const d of config.deaths) {
      if (d.node >= nodes) throw new RangeError(`parameter faults.nodes: node ${d.node} is not a node of this machine (0..${nodes - 1})`);
      this.deathPs[d.node] = d.atPs;
      engine.at(d.atPs, this.id, 0, d.node);
    }
  }

  /** Whether any node dies in this run. */
  get any(): boolean {
    return this.config.deaths.length > 0;
  }

  /** Calls `fn` at each death, at its simulated time. */
  onDeath(fn: DeathListener): void {
    this.listeners.push(fn);
  }

  onEvent(_kind: number, node: number): void {
    const at = this.deathPs[node]!;
    for (const fn of this.listeners) fn(node, at);
  }
}
