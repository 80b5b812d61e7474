/**
 * Open MPI's segmented ring allreduce (ompi/mca/coll/base/coll_base_allreduce.c,
 * ompi_coll_base_allreduce_intra_ring_segmented).
 */
import type { AlgorithmSpecs, CollectiveFns } from './algorithm.ts';
import type { Op } from '../ops.ts';
import type { Coll, CollTransport } from './transport.ts';
import { alloc, combine, copy, exchange, partOffset, TAG, type Buf } from './util.ts';

/**
 * Segment size of the segmented ring: 1 MiB, the segment_size Open MPI's tuned component passes
 * to ring_segmented in its fixed decision (coll_tuned_decision_fixed.c).
 */
export const RING_SEGMENT_BYTES = 1 << 20;

/**
 * The segmented ring allreduce with segments of `segmentBytes`: the buffer is split in p blocks,
 * each block in segments; phase i runs a ring reduce-scatter over the i-th segment of every
 * block (p - 1 steps), and once all phases are done a ring allgather passes the whole blocks
 * (p - 1 steps). Needs a commutative op (pieces are combined in ring order).
 */
export function allreduceSegmentedRingWith(segmentBytes: number): CollectiveFns['allreduce'] {
  if (!Number.isInteger(segmentBytes) || segmentBytes < 1) throw new RangeError(`segmented ring: segmentBytes must be a positive integer, got ${segmentBytes}`);
  return function* allreduceSegmentedRing(t: CollTransport, sendBuf: Buf, recvBuf: Buf, op: Op): Coll {
    const n = t.size;
    const me = t.rank;
    const count = sendBuf.length;
    const what = `allreduce(segmented ring, ${op.name})`;
    const tag = TAG.allreduce + 9;
    const acc = recvBuf.subarray(0, count);
    yield copy(t, acc, 0, sendBuf, 0, count);
    if (n === 1) return;
    const off = (i: number): number => partOffset(count, n, i, op.unit);
    let biggest = 0;
    for (let b = 0; b < n; b++) biggest = Math.max(biggest, off(b + 1) - off(b));
    const unit = op.unit;
    const segCount = Math.max(unit, Math.floor(segmentBytes / sendBuf.BYTES_PER_ELEMENT / unit) * unit);
    const phases = Math.max(1, Math.ceil(biggest / segCount));
    const tmp = alloc(t, sendBuf, Math.min(segCount, biggest));
    const segAt = (b: number, ph: number): number => Math.min(off(b + 1), off(b) + ph * segCount);
    const segLen = (b: number, ph: number): number => Math.min(off(b + 1), off(b) + (ph + 1) * segCount) - segAt(b, ph);
    const right = (me + 1) % n;
    const left = (me - 1 + n) % n;
    for (let ph = 0; ph < phases; ph++) {
      for (let s = 0; s < n - 1; s++) {
        const sb = (me - s + n) % n;
        const rb = (me - s - 1 + 2 * n) % n;
        const ra = segAt(rb, ph);
        const rn = segLen(rb, ph);
        yield exchange(t, acc, segAt(sb, ph), segLen(sb, ph), right, tmp, 0, rn, left, tag, what);
        yield combine(t, op, acc.subarray(ra, ra + rn), tmp.subarray(0, rn), true);
      }
    }
    for (let s = 0; s < n - 1; s++) {
      const sb = (me + 1 - s + n) % n;
      const rb = (me - s + n) % n;
      yield exchange(t, acc, off(sb), off(sb + 1) - off(sb), right, acc, off(rb), off(rb + 1) - off(rb), left, tag + 1, what);
    }
  };
}

/** The segmented ring with Open MPI's segment size. */
export const allreduceSegmentedRing = allreduceSegmentedRingWith(RING_SEGMENT_BYTES);

/** The segmented ring allreduce, spread into the allreduce's table. */
export const ALLREDUCE_SEGMENTED: AlgorithmSpecs<'allreduce'> = {
  segmentedRing: {
    fn: allreduceSegmentedRing,
    commutativeOnly: true,
    origin: 'Open MPI',
    cost: '(p-1)·(ceil(n/(p·s)) + 1)·α + 2·(p-1)/p·nβ + (p-1)/p·nγ, s = 1 MiB',
    help: 'ring reduce-scatter in 1 MiB segments of each block, then a ring allgather of the blocks',
  },
};
