// MPICH test/mpi/datatype/blockindexed_zero_count.c: MPI_Type_create_indexed_block of 0 blocks of
// ints has size 0 and extent 0 (see zero-count-common.ts).
import type { MTest, MTestResult } from '../mtest.ts';
import { zeroCount } from './zero-count-common.ts';

export default function blockindexedZeroCount(mt: MTest): Promise<MTestResult> {
  return zeroCount(mt, 'blockindexed_test', 'blockindexed', 'struct type', (mpi) => mpi.typeCreateIndexedBlock(0, 0, [], mpi.INT));
}
