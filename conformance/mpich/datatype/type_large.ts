// MPICH test/mpi/datatype/type_large.c: MPI 4.0's large-count type constructors and queries
// (MPI_Type_contiguous_c, MPI_Type_create_indexed_block_c, MPI_Type_create_hindexed_c,
// MPI_Type_size_c, MPI_Type_get_true_extent_c) on types of 5.0, 7.0 and 9.4 GB of chars and ints:
// each type's size, true lower bound (0) and true extent (its size). phit's counts, sizes and
// displacements are numbers exact to 2^53, so its one form of each call is the `_c` form (as
// MPI 4.0's mpi_f08 binding keeps one name for both); nothing is allocated.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Datatype, Mpi } from '../../../runtime/mpi/mpi.ts';

const SIZEOF_INT = 4;

function makeLargeContig(mpi: Mpi, nbytes: number): Datatype {
  return mpi.typeCommit(mpi.typeContiguous(nbytes, mpi.CHAR));
}

function makeLargeIndexedBlock(mpi: Mpi, nbytes: number): Datatype | null {
  const NBLK = 256;
  const blklen = Math.floor(nbytes / NBLK / SIZEOF_INT);
  if (NBLK * blklen * SIZEOF_INT !== nbytes) return null;
  const displs = Array.from({ length: NBLK }, (_, i) => i * blklen);
  return mpi.typeCommit(mpi.typeCreateIndexedBlock(NBLK, blklen, displs, mpi.INT));
}

function makeLargeHindexed(mpi: Mpi, nbytes: number): Datatype {
  const NBLK = 4;
  const blkls: number[] = [];
  const displs: number[] = [];
  let pos = 0;
  for (let i = 0; i < NBLK - 1; i++) {
    blkls[i] = i;
    displs[i] = pos;
    pos += blkls[i]!;
  }
  blkls[NBLK - 1] = nbytes - pos;
  displs[NBLK - 1] = pos;
  return mpi.typeCommit(mpi.typeCreateHindexed(NBLK, blkls, displs, mpi.CHAR));
}

/** MPICH's testtype of type_large.c and large_type.c: `type`'s size is `expected` and its true extent the same from 0; the errors counted. */
export function testtype(mt: MTest, type: Datatype, expected: number): number {
  const { mpi } = mt;
  let errs = 0;
  const size = mpi.typeSize(type);
  if (size < 0) {
    mt.printf('ERROR: type size apparently overflowed integer');
    errs++;
  }
  if (size !== expected) {
    mt.printf(`reported type size ${size} does not match expected ${expected}`);
    errs++;
  }
  const { lb, extent } = mpi.typeGetTrueExtent(type);
  if (lb !== 0) {
    mt.printf(`ERROR: type should have lb of 0, reported ${lb}`);
    errs++;
  }
  if (extent !== size) {
    mt.printf(`ERROR: extent should match size, not ${extent}`);
    errs++;
  }
  return errs;
}

export default async function typeLarge(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  // MPI_Aint is 8 bytes on the ABI MPICH builds for: the sizes are not divided by 8
  const expectedSizes = [1024 * 1024 * 2400 * 2, 2346319872 * 3, 2346319872 * 4];
  const types = [makeLargeContig(mpi, expectedSizes[0]!), makeLargeIndexedBlock(mpi, expectedSizes[1]!), makeLargeHindexed(mpi, expectedSizes[2]!)];
  for (let i = 0; i < types.length; i++) {
    const t = types[i];
    if (t) {
      errs += testtype(mt, t, expectedSizes[i]!);
      mpi.typeFree(t);
    }
  }
  return mt.finalize(errs);
}
