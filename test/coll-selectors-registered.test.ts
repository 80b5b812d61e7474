import { describe, expect, it } from 'vitest';
import { ALGORITHMS, query, SELECTOR_NAMES, SELECTORS, type Collective } from '../runtime/mpi/coll/index.ts';

/**
 * Every selector's every choice is an algorithm phit has, and one that accepts the op: a
 * selector that named an algorithm missing from its collective's table, or one that needs a
 * commutative op for one that is not, would fail the run at the call.
 */
describe('every selector picks registered algorithms', () => {
  it.each(SELECTOR_NAMES)('%s: every collective, 1..67 ranks, many sizes, commutative or not, 1..8 ranks per node', (name) => {
    const sel = SELECTORS[name];
    const bytesList = [0, 1, 8, 199, 200, 256, 257, 299, 300, 511, 512, 1023, 1024, 1025, 2047, 2048, 2049, 2999, 3000, 8192, 8193, 9999, 10000, 12288, 16384, 16385, 20480, 32768, 32769, 49999, 50000, 65536, 65537, 81920, 262144, 262145, 370728, 524288, 1 << 20, 1 << 24];
    const missing = new Set<string>();
    const needsCommutative = new Set<string>();
    for (const collective of Object.keys(ALGORITHMS) as Collective[]) {
      for (let size = 1; size <= 67; size++) {
        for (const ppn of [1, 2, 4, 8]) {
          for (const bytes of bytesList) {
            for (const commutative of [true, false]) {
              const alg = sel.choose(query(collective, size, bytes, commutative, Math.ceil(size / ppn), Math.min(ppn, size)));
              const a = ALGORITHMS[collective][alg];
              if (!a) {
                missing.add(`${collective}.${alg}`);
                continue;
              }
              if (!commutative && a.commutativeOnly) needsCommutative.add(`${collective}.${alg} on ${size} ranks, ${bytes} bytes`);
            }
          }
        }
      }
    }
    expect([...missing].sort(), `${name} picks algorithms phit does not have`).toEqual([]);
    expect([...needsCommutative].slice(0, 5), `${name} picks algorithms that need a commutative op for one that is not`).toEqual([]);
  });
});
