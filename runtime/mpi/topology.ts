import { PROC_NULL } from './message.ts';
import { MpiError } from './request.ts';

/**
 * A virtual topology attached to a communicator (MPI chapter 7), as the neighbourhood
 * collectives see it: for each rank, the ranks it receives from (`sources`) and sends to
 * (`dests`), in MPI's order. PROC_NULL entries are neighbours that do not exist (the edge of a
 * non-periodic Cartesian grid): their blocks of the buffers are left alone.
 */
export interface Topology {
  readonly kind: 'cart' | 'graph' | 'dist_graph';
  sources(rank: number): readonly number[];
  dests(rank: number): readonly number[];
}

/**
 * A Cartesian grid (MPI_Cart_*): row-major rank order, the last dimension varying fastest; the
 * neighbours of a rank are, for each dimension in turn, the one below and the one above
 * (MPI 3.1 §7.6: the order of `cartShift(d, 1)`'s source and dest).
 */
export class CartTopology implements Topology {
  readonly kind = 'cart' as const;
  readonly size: number;
  constructor(
    readonly dims: readonly number[],
    readonly periods: readonly boolean[],
  ) {
    this.size = dims.reduce((a, b) => a * b, 1);
  }

  coords(rank: number): number[] {
    const c = new Array<number>(this.dims.length);
    let r = rank;
    for (let d = this.dims.length - 1; d >= 0; d--) {
      c[d] = r % this.dims[d]!;
      r = Math.floor(r / this.dims[d]!);
    }
    return c;
  }

  /** Rank at `coords`, wrapping periodic dimensions; PROC_NULL off a non-periodic edge. */
  rankAt(coords: readonly number[]): number {
    let r = 0;
    for (let d = 0; d < this.dims.length; d++) {
      const n = this.dims[d]!;
      let c = coords[d]!;
      if (this.periods[d]) c = ((c % n) + n) % n;
      else if (c < 0 || c >= n) return PROC_NULL;
      r = r * n + c;
    }
    return r;
  }

  /** The rank `disp` away from `rank` along `dim` (PROC_NULL off the edge). */
  shift(rank: number, dim: number, disp: number): number {
    const c = this.coords(rank);
    c[dim]! += disp;
    return this.rankAt(c);
  }

  sources(rank: number): number[] {
    const out: number[] = [];
    for (let d = 0; d < this.dims.length; d++) out.push(this.shift(rank, d, -1), this.shift(rank, d, 1));
    return out;
  }

  dests(rank: number): number[] {
    return this.sources(rank);
  }
}

/**
 * A graph topology (MPI_Graph_create): `index[r]` is the number of edges of ranks 0..r together,
 * `edges` the neighbours of rank 0, then rank 1's, ... Edges are undirected in MPI's sense: a rank
 * sends to and receives from each of its neighbours, in the order given.
 */
export class GraphTopology implements Topology {
  readonly kind = 'graph' as const;
  constructor(
    readonly index: readonly number[],
    readonly edges: readonly number[],
  ) {}

  /** Checks the arrays of a graph of `nnodes` ranks (MPI_ERR_ARG naming the bad entry). */
  static check(call: string, nnodes: number, index: readonly number[], edges: readonly number[]): void {
    if (!Array.isArray(index) || index.length !== nnodes) throw new MpiError('MPI_ERR_ARG', `${call}: index must have one entry per rank of the graph (${nnodes}), got ${describeArray(index)}`);
    let prev = 0;
    index.forEach((x, i) => {
      if (!Number.isInteger(x) || x < prev) throw new MpiError('MPI_ERR_ARG', `${call}: index[${i}]=${x} must be an integer no smaller than index[${i - 1}] (${prev}): index holds running totals of edges`);
      prev = x;
    });
    if (!Array.isArray(edges) || edges.length !== prev) throw new MpiError('MPI_ERR_ARG', `${call}: edges must have index[${nnodes - 1}] = ${prev} entries, got ${describeArray(edges)}`);
    edges.forEach((e, i) => {
      if (!Number.isInteger(e) || e < 0 || e >= nnodes) throw new MpiError('MPI_ERR_RANK', `${call}: edges[${i}]=${e} is not a rank of the graph (0..${nnodes - 1})`);
    });
  }

  neighbors(rank: number): number[] {
    return this.edges.slice(rank === 0 ? 0 : this.index[rank - 1]!, this.index[rank]!);
  }

  sources(rank: number): number[] {
    return this.neighbors(rank);
  }

  dests(rank: number): number[] {
    return this.neighbors(rank);
  }
}

/**
 * A distributed graph topology (MPI_Dist_graph_create(_adjacent)): each rank knows the ranks it
 * receives from and sends to, with optional weights, in its own order.
 */
export class DistGraphTopology implements Topology {
  readonly kind = 'dist_graph' as const;
  constructor(
    private readonly mine: number,
    readonly inRanks: readonly number[],
    readonly outRanks: readonly number[],
    readonly inWeights: readonly number[] | null,
    readonly outWeights: readonly number[] | null,
  ) {}

  /** Only the calling rank's lists are known (MPI: neighbours are local information). */
  sources(rank: number): readonly number[] {
    if (rank !== this.mine) throw new MpiError('MPI_ERR_TOPOLOGY', `a distributed graph knows only the calling rank's neighbours`);
    return this.inRanks;
  }

  dests(rank: number): readonly number[] {
    if (rank !== this.mine) throw new MpiError('MPI_ERR_TOPOLOGY', `a distributed graph knows only the calling rank's neighbours`);
    return this.outRanks;
  }
}

/** Checks a list of neighbour ranks (and weights, if given) of a distributed graph. */
export function checkNeighbors(call: string, name: string, ranks: readonly number[], weights: readonly number[] | null, size: number): void {
  if (!Array.isArray(ranks)) throw new MpiError('MPI_ERR_ARG', `${call}: ${name} must be an array of ranks, got ${describeArray(ranks)}`);
  ranks.forEach((r, i) => {
    if (!Number.isInteger(r) || r < 0 || r >= size) throw new MpiError('MPI_ERR_RANK', `${call}: ${name}[${i}]=${r} is not a rank of the communicator (0..${size - 1})`);
  });
  if (weights !== null && (!Array.isArray(weights) || weights.length !== ranks.length || weights.some((w) => !Number.isInteger(w) || w < 0))) {
    throw new MpiError('MPI_ERR_ARG', `${call}: the weights of ${name} must be ${ranks.length} non-negative integers (or null: MPI_UNWEIGHTED)`);
  }
}

function describeArray(v: unknown): string {
  return Array.isArray(v) ? `${v.length} entries` : v === null ? 'null' : typeof v;
}
