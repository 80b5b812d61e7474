import { describe, expect, it } from 'vitest';
import { chooseAlgorithm, query, SELECTORS, type Collective } from '../runtime/mpi/coll/index.ts';

/**
 * Cray MPT's rules at their edges: MPICH's with the intro_mpi defaults MPICH_BCAST_ONLY_TREE=1,
 * MPICH_REDUCE_SHORT_MSG=64K, MPICH_ALLGATHER_VSHORT_MSG=1024 and MPICH_ALLREDUCE_MAX_SMP_SIZE=256K,
 * written here from the man page (not from CRAY_THRESHOLDS).
 */
const cray = (c: Collective, size: number, bytes: number, commutative: boolean, ppn: number): string => SELECTORS.cray.choose(query(c, size, bytes, commutative, Math.ceil(size / ppn), ppn));

describe('the cray selector follows Cray MPT', () => {
  it.each([
    // bcast: the tree whatever the size: node-aware with several ranks per node, a k-nomial tree among single ranks
    ['bcast', 64, 1 << 22, true, 4, 'hierarchical'],
    ['bcast', 64, 8, true, 1, 'knomial'],
    ['bcast', 64, 1 << 22, true, 1, 'knomial'],
    // reduce: SMP-aware for commutative ops with several ranks per node; flat binomial up to 64 KiB, Rabenseifner above
    ['reduce', 64, 1 << 20, true, 4, 'hierarchical'],
    ['reduce', 16, 65536, true, 1, 'binomial'],
    ['reduce', 16, 65537, true, 1, 'rabenseifner'],
    ['reduce', 16, 65537, false, 4, 'binomial'],
    // allgather: gather + bcast at and below 1024 bytes, MPICH's rules above
    ['allgather', 12, 1024, true, 1, 'gatherBcast'],
    ['allgather', 12, 1025, true, 1, 'bruck'],
    ['allgather', 16, 1025, true, 1, 'recursiveDoubling'],
  ] as const)('%s on %i ranks, %i bytes, commutative %s, %i per node -> %s', (c, size, bytes, commutative, ppn, want) => {
    expect(cray(c, size, bytes, commutative, ppn)).toBe(want);
  });

  it('follows MPICH where Cray documents no other default (alltoall, allreduce, barrier, reduce_scatter, ...)', () => {
    for (const c of ['alltoall', 'allreduce', 'barrier', 'reduceScatter', 'gather', 'scatter', 'allgatherv', 'alltoallv', 'scan'] as const) {
      for (const size of [2, 7, 8, 16, 67]) {
        for (const bytes of [0, 256, 257, 2049, 32769, 1 << 20]) {
          for (const commutative of [true, false]) expect(cray(c, size, bytes, commutative, 4), `${c} ${size} ${bytes}`).toBe(chooseAlgorithm(c, size, bytes, commutative ? undefined : { commutative: false } as never));
        }
      }
    }
  });

  it('takes the SMP-aware allreduce up to 256 KiB only, and the SMP barrier always', () => {
    expect(SELECTORS.cray.smpPath('allreduce', 262144)).toBe(true);
    expect(SELECTORS.cray.smpPath('allreduce', 262145)).toBe(false);
    expect(SELECTORS.cray.smpPath('barrier', 0)).toBe(true);
  });
});
