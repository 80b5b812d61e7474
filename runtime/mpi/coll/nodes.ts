/**
 * What node-aware (SMP-aware) algorithms need of a transport: its ranks grouped by node, and
 * transports over a subset of its ranks (a node's ranks, the node leaders) on which the library's
 * flat algorithms run unchanged.
 */
import type { Request } from '../request.ts';
import type { CollTransport } from './transport.ts';

/** A transport's ranks by node (ranks in rank order; a node's leader is its lowest rank). */
export interface NodeLayout {
  /** Each rank's node index, 0.. in the order of the nodes' leaders. */
  readonly nodeIndex: Int32Array;
  /** The ranks of each node, in rank order (the leader first). */
  readonly ranks: readonly (readonly number[])[];
  /** Each node's leader, in rank order. */
  readonly leaders: readonly number[];
}

const layouts = new WeakMap<ArrayLike<number>, NodeLayout>();

/** The transport's ranks by node (`t.nodes`; without it every rank is a node of its own). */
export function nodeLayout(t: CollTransport): NodeLayout {
  const nodes = t.nodes;
  const cached = nodes ? layouts.get(nodes) : undefined;
  if (cached) return cached;
  const index = new Map<number, number>();
  const nodeIndex = new Int32Array(t.size);
  const ranks: number[][] = [];
  for (let r = 0; r < t.size; r++) {
    const key = nodes ? nodes[r]! : r;
    let i = index.get(key);
    if (i === undefined) {
      i = ranks.length;
      index.set(key, i);
      ranks.push([]);
    }
    nodeIndex[r] = i;
    ranks[i]!.push(r);
  }
  const out: NodeLayout = { nodeIndex, ranks, leaders: ranks.map((g) => g[0]!) };
  if (nodes && typeof nodes === 'object') layouts.set(nodes, out);
  return out;
}

/**
 * A transport over some of `t`'s ranks: sub-rank i is `t`'s rank `members[i]`, and tags are
 * offset by `tagOffset`. A collective call owns tags 0 to 0x1ff (`TAG` in util.ts), so an offset
 * must keep the phase's tags in that window; phases over different subsets (a node's ranks, the
 * leaders) or of different collectives (each has its own `TAG`) need none, as messages match by
 * source too. The caller must be one of `members`. Nodes carry over, so node-aware forms nest.
 */
export function subTransport(t: CollTransport, members: readonly number[], tagOffset = 0): CollTransport {
  return new SubTransport(t, members, tagOffset);
}

class SubTransport implements CollTransport {
  readonly rank: number;
  readonly size: number;
  readonly flopsPerPs: number;
  readonly copyBytesPerPs: number;
  readonly packBlockPs: number | undefined;
  readonly skeleton: CollTransport['skeleton'];
  readonly nodes: ArrayLike<number> | undefined;

  constructor(
    private readonly base: CollTransport,
    private readonly members: readonly number[],
    private readonly tagOffset: number,
  ) {
    this.rank = members.indexOf(base.rank);
    if (this.rank < 0) throw new RangeError(`subTransport: rank ${base.rank} is not one of the members`);
    this.size = members.length;
    this.flopsPerPs = base.flopsPerPs;
    this.copyBytesPerPs = base.copyBytesPerPs;
    this.packBlockPs = base.packBlockPs;
    this.skeleton = base.skeleton;
    const nodes = base.nodes;
    this.nodes = nodes ? members.map((r) => nodes[r]!) : undefined;
  }

  isend(buf: Uint8Array, dest: number, tag: number, what: string): Request {
    return this.base.isend(buf, this.members[dest]!, tag + this.tagOffset, what);
  }

  irecv(buf: Uint8Array, source: number, tag: number, what: string): Request {
    return this.base.irecv(buf, this.members[source]!, tag + this.tagOffset, what);
  }
}
