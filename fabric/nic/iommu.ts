/** The IOMMU's and the AMO unit's caches, and where registered memory sits in the virtual address space. */

/** Virtual addresses of registered segments start here (any non-zero page-aligned value would do). */
export const VA_START = 2 ** 32;

/**
 * A set-associative cache of `entries` lines, least recently used replaced: the IOMMU's PTE
 * cache (seed 001 "Address Translation": four-way, 128 entries of eight PTEs). `ways` equal to
 * `entries` makes it fully associative (the AMO cache).
 */
export class LruCache {
  private readonly keys: Float64Array;
  private readonly stamps: Float64Array;
  private readonly sets: number;
  private clock = 0;
  hits = 0;
  misses = 0;
  constructor(
    readonly entries: number,
    private readonly ways: number,
  ) {
    this.keys = new Float64Array(entries).fill(-1);
    this.stamps = new Float64Array(entries);
    this.sets = Math.max(1, Math.floor(entries / ways));
  }

  /**
   * Looks `key` up in the set of index `index % sets` (both non-negative integers); a miss
   * brings it in. Returns whether it hit.
   */
  touch(key: number, index: number): boolean {
    const base = (index % this.sets) * this.ways;
    let victim = base;
    const now = ++this.clock;
    for (let w = base; w < base + this.ways; w++) {
      if (this.keys[w] === key) {
        this.stamps[w] = now;
        this.hits++;
        return true;
      }
      if (this.stamps[w]! < this.stamps[victim]!) victim = w;
    }
    this.keys[victim] = key;
    this.stamps[victim] = now;
    this.misses++;
    return false;
  }
}
