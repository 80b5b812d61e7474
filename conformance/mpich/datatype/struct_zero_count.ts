// MPICH test/mpi/datatype/struct_zero_count.c: MPI_Type_create_struct of 0 blocks has size 0 and
// extent 0 (see zero-count-common.ts).
import type { MTest, MTestResult } from '../mtest.ts';
import { zeroCount } from './zero-count-common.ts';

export default function structZeroCount(mt: MTest): Promise<MTestResult> {
  return zeroCount(mt, 'builtin_struct_test', 'builtin struct', 'struct type', (mpi) => mpi.typeCreateStruct(0, [], [], []));
}
