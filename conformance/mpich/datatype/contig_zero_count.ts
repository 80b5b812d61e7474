// MPICH test/mpi/datatype/contig_zero_count.c: MPI_Type_contiguous of 0 ints has size 0 and
// extent 0 (see zero-count-common.ts).
import type { MTest, MTestResult } from '../mtest.ts';
import { zeroCount } from './zero-count-common.ts';

export default function contigZeroCount(mt: MTest): Promise<MTestResult> {
  return zeroCount(mt, 'contig_test', 'contig', 'type', (mpi) => mpi.typeContiguous(0, mpi.INT));
}
