// MPICH test/mpi/datatype/hindexed_block_contents.c: MPI_Type_get_contents of an
// MPI_Type_create_hindexed_block type (4 blocks of 2 ints at bytes 0, 8, 16, 24) returns
// count and blocklength as integers, the four displacements as addresses and MPI_INT.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function hindexedBlockContents(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const check = (ok: boolean, what: string): void => {
    if (!ok) {
      ++errs;
      if (errs < 10) mt.printf(`check failed: (${what})`);
    }
  };
  if (mpi.rank === 0) {
    const t = mpi.typeCommit(mpi.typeCreateHindexedBlock(4, 2, [0, 8, 16, 24], mpi.INT));
    const e = mpi.typeGetEnvelope(t);
    const c = mpi.typeGetContents(t);
    check(e.numIntegers === 2, 'ni == 2');
    check(c.integers[0] === 4, 'i[0] == 4');
    check(c.integers[1] === 2, 'i[1] == 2');
    check(e.numAddresses === 4, 'na == 4');
    for (let k = 0; k < e.numAddresses; k++) check(c.addresses[k] === k * 8, `a[${k}] == ${k} * 8`);
    check(e.numDatatypes === 1, 'nd == 1');
    check(c.datatypes[0] === mpi.INT, 'd[0] == MPI_INT');
    mpi.typeFree(t);
  }
  return mt.finalize(errs);
}
