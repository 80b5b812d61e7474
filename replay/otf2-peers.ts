/**
 * The other ranks' share of a counted collective in an OTF2 trace. An MpiCollectiveEnd record
 * gives only this rank's bytes sent and received, while MPI_Gatherv, MPI_Scatterv,
 * MPI_Allgatherv, MPI_Alltoallv and MPI_Reduce_scatter need a count per rank: the replay reads
 * them from the other members' event files, each with a cursor of its own that moves forward
 * only as far as the collectives asked for, so the trace still streams. A collective's rows are
 * dropped once every member has asked for them.
 */
import { TraceFormatError } from './calls.ts';
import type { Otf2Comm } from './otf2-defs.ts';
import { EV, Otf2EventReader } from './otf2-events.ts';

/** OTF2_CollectiveOp of the counted collectives. */
export const COUNTED_OPS: ReadonlySet<number> = new Set([3, 5, 7, 9, 10, 13]);

/** One member's bytes in a counted collective. */
export interface CountedRow {
  readonly op: number;
  readonly sent: number;
  readonly received: number;
}

/** A member's cursor and the counted collectives it read past, by communicator and sequence number. */
interface Cursor {
  readonly reader: Otf2EventReader;
  readonly found: Map<number, Map<number, CountedRow>>;
  readonly seen: Map<number, number>;
}

/** Rows of counted collectives across the ranks of a trace. */
export class Otf2Peers {
  private readonly cursors = new Map<number, Cursor>();
  private readonly cache = new Map<string, { rows: CountedRow[]; left: number }>();

  constructor(private readonly reader: (worldRank: number) => Otf2EventReader) {}

  /** Every member's row (in `comm`'s rank order) of the `seq`-th counted collective on `comm`. */
  rows(comm: Otf2Comm, seq: number): readonly CountedRow[] {
    const key = `${comm.id}:${seq}`;
    const hit = this.cache.get(key);
    if (hit) {
      if (--hit.left === 0) this.cache.delete(key);
      return hit.rows;
    }
    const rows = comm.members.map((w) => this.find(w, comm.id, seq));
    if (comm.members.length > 1) this.cache.set(key, { rows, left: comm.members.length - 1 });
    return rows;
  }

  private find(world: number, comm: number, seq: number): CountedRow {
    let c = this.cursors.get(world);
    if (!c) {
      c = { reader: this.reader(world), found: new Map(), seen: new Map() };
      this.cursors.set(world, c);
    }
    let list = c.found.get(comm);
    while (!list?.has(seq)) {
      const e = c.reader.next();
      if (e === null) throw new TraceFormatError(`${c.reader.path}: ends before its counted collective ${seq + 1} on communicator ${comm} (the other ranks have it)`);
      if ((e.type !== EV.mpiCollectiveEnd && e.type !== EV.nbcComplete) || !COUNTED_OPS.has(e.op)) continue;
      const n = c.seen.get(e.comm) ?? 0;
      c.seen.set(e.comm, n + 1);
      let l = c.found.get(e.comm);
      if (!l) c.found.set(e.comm, (l = new Map()));
      l.set(n, { op: e.op, sent: e.bytes, received: e.received });
      list = c.found.get(comm);
    }
    const row = list.get(seq)!;
    list.delete(seq);
    return row;
  }
}

/**
 * A matrix of non-negative integers with the given row sums (bytes each rank sent) and column
 * sums (bytes each received), filled north-west corner first: MPI_Alltoallv's pairwise counts
 * are not in an OTF2 trace, only each rank's totals, and this is one exchange that has them.
 */
export function matrixWithSums(rows: readonly number[], cols: readonly number[]): number[][] {
  const n = rows.length;
  const m = Array.from({ length: n }, () => new Array<number>(cols.length).fill(0));
  const r = [...rows];
  const c = [...cols];
  let i = 0;
  let j = 0;
  while (i < n && j < c.length) {
    const x = Math.min(r[i]!, c[j]!);
    m[i]![j] = x;
    r[i]! -= x;
    c[j]! -= x;
    if (r[i] === 0) i++;
    else j++;
  }
  return m;
}
