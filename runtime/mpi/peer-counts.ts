/**
 * A count per peer rank, 0 for a peer never counted: MPI's per-pair sequence numbers (the next
 * to send to each peer, the next expected from each). A rank that talks to a few neighbours
 * keeps them in a Map; once it has counted more than one peer in DENSE_SHARE of the ranks
 * (alltoall traffic), they move to an array of one entry per rank. A Map's entry takes about 28
 * bytes (Node 20), an array's 8, and all-to-all at 4,096 ranks counts 16.8 M pairs twice: about
 * 940 MB in Maps, 270 MB in arrays.
 */
export class PeerCounts {
  private map: Map<number, number> | null = new Map();
  private dense: Float64Array | null = null;

  /** Counts of the peers of a run of `ranks` ranks (peers are 0 .. ranks - 1). */
  constructor(private readonly ranks: number) {}

  /** The count of `peer` (0 if never set). */
  get(peer: number): number {
    if (this.dense !== null) return this.dense[peer]!;
    return this.map!.get(peer) ?? 0;
  }

  /** Sets the count of `peer`. */
  set(peer: number, value: number): void {
    if (this.dense !== null) {
      this.dense[peer] = value;
      return;
    }
    const map = this.map!;
    map.set(peer, value);
    if (map.size * DENSE_SHARE > this.ranks) {
      const dense = new Float64Array(this.ranks);
      for (const [p, v] of map) dense[p] = v;
      this.dense = dense;
      this.map = null;
    }
  }

  /** Whether the counts are held in an array of one entry per rank. */
  get isDense(): boolean {
    return this.dense !== null;
  }
}

/** The counts move to an array once more than one rank in this many has one (where a Map takes about as much). */
const DENSE_SHARE = 3;
