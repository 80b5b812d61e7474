/**
 * The job PEs of a team or an active set, in its own order: PE `i` of the set is job PE
 * `start + i * stride`, or `list[i]` for a set that is no arithmetic progression (TEAM_SHARED
 * under a scattered placement). No array of the job's size is ever built for a strided set.
 */
export class PeSet {
  private constructor(
    /** Number of PEs. */
    readonly size: number,
    private readonly start: number,
    private readonly stride: number,
    private readonly list: Int32Array | null,
  ) {}

  /** The PEs `start + i * stride`, i < size. */
  static strided(start: number, stride: number, size: number): PeSet {
    return new PeSet(size, start, size === 1 ? 1 : stride, null);
  }

  /** The PEs of `pes`, in that order (strided when they are). */
  static of(pes: readonly number[]): PeSet {
    const n = pes.length;
    const stride = n > 1 ? pes[1]! - pes[0]! : 1;
    let arithmetic = stride !== 0;
    for (let i = 2; arithmetic && i < n; i++) arithmetic = pes[i]! - pes[i - 1]! === stride;
    return arithmetic ? PeSet.strided(pes[0] ?? 0, stride, n) : new PeSet(n, 0, 0, Int32Array.from(pes));
  }

  /** Job PE of the set's PE `i` (0 <= i < size). */
  pe(i: number): number {
    return this.list ? this.list[i]! : this.start + i * this.stride;
  }

  /** The set's number of job PE `pe`, or -1 if it is not in the set. */
  index(pe: number): number {
    if (this.list) return this.list.indexOf(pe);
    const d = pe - this.start;
    if (d % this.stride !== 0) return -1;
    // d / stride is -0 for d = 0 and a negative stride
    const i = d === 0 ? 0 : d / this.stride;
    return i >= 0 && i < this.size ? i : -1;
  }

  /** Whether job PE `pe` is in the set. */
  has(pe: number): boolean {
    return this.index(pe) >= 0;
  }

  /** The subset of PEs `start + i * stride` (numbers of this set), i < size, in that order. */
  subset(start: number, stride: number, size: number): PeSet {
    if (!this.list) return PeSet.strided(this.pe(start), this.stride * stride, size);
    return PeSet.of(Array.from({ length: size }, (_, i) => this.pe(start + i * stride)));
  }

  /** `PEs 0, 2, 4` (at most 8 listed). */
  describe(): string {
    const shown = Array.from({ length: Math.min(this.size, 8) }, (_, i) => this.pe(i));
    return `PE${this.size === 1 ? '' : 's'} ${shown.join(', ')}${this.size > 8 ? `, ... (${this.size})` : ''}`;
  }
}
