import { PROC_NULL } from './message.ts';
import { UNDEFINED } from './constants.ts';
import { MpiError } from './request.ts';

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

  /**
   * The group of the ranks that `ranges` of (first, last, stride) triples name, in that order
   * (MPI_Group_range_incl): first, first + stride, ... up to last inclusive.
   */
  rangeIncl(ranges: readonly (readonly [number, number, number])[]): Group {
    return this.incl(this.expand('rangeIncl', ranges));
  }

  /** This group without the ranks `ranges` name (MPI_Group_range_excl). */
  rangeExcl(ranges: readonly (readonly [number, number, number])[]): Group {
    return this.excl(this.expand('rangeExcl', ranges));
  }

  private expand(call: string, ranges: readonly (readonly [number, number, number])[]): number[] {
    if (!Array.isArray(ranges)) throw new MpiError('MPI_ERR_ARG', `${call}: ranges must be an array of [first, last, stride] triples`);
    const out: number[] = [];
    ranges.forEach((t, i) => {
      if (!Array.isArray(t) || t.length !== 3 || !t.every((x) => Number.isInteger(x))) throw new MpiError('MPI_ERR_ARG', `${call}: ranges[${i}] must be [first, last, stride] integers`);
      const [first, last, stride] = t;
      if (stride === 0) throw new MpiError('MPI_ERR_ARG', `${call}: ranges[${i}] has stride 0`);
      for (const [name, r] of [['first', first], ['last', last]] as const) {
        if (r < 0 || r >= this.size) throw new MpiError('MPI_ERR_RANK', `${call}: ranges[${i}] ${name}=${r} is not a rank of the group (0..${this.size - 1})`);
      }
      for (let r = first; stride > 0 ? r <= last : r >= last; r += stride) out.push(r);
    });
    return out;
  }

  /** This group without `ranks` (MPI_Group_excl). */
  excl(ranks: readonly number[]): Group {
    this.checkDistinct('excl', ranks);
    const drop = new Set(ranks);
    return new Group(this.ranks.filter((_, i) => !drop.has(i)), this.me);
  }

  /** This group's ranks, then `other`'s not already in it (MPI_Group_union). */
  union(other: Group): Group {
    checkGroup('union', 'other', other);
    const have = new Set(this.ranks);
    return new Group([...this.ranks, ...other.ranks.filter((r) => !have.has(r))], this.me);
  }

  /** This group's ranks that are also in `other`, in this group's order. */
  intersection(other: Group): Group {
    checkGroup('intersection', 'other', other);
    const have = new Set(other.ranks);
    return new Group(this.ranks.filter((r) => have.has(r)), this.me);
  }

  /** This group's ranks that are not in `other`. */
  difference(other: Group): Group {
    checkGroup('difference', 'other', other);
    const have = new Set(other.ranks);
    return new Group(this.ranks.filter((r) => !have.has(r)), this.me);
  }

  /** 'ident' (same ranks, same order), 'similar' (same ranks) or 'unequal' (MPI_Group_compare). */
  compare(other: Group): 'ident' | 'similar' | 'unequal' {
    checkGroup('compare', 'other', other);
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

/** MPI_ERR_GROUP, naming `call` and the argument, unless `v` is a Group. */
export function checkGroup(call: string, name: string, v: unknown): Group {
  if (!(v instanceof Group)) throw new MpiError('MPI_ERR_GROUP', `${call}: ${name} must be a Group, got ${v === null ? 'null' : typeof v}`);
  return v;
}
