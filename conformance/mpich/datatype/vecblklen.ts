// MPICH test/mpi/datatype/vecblklen.c: pack and unpack of MPI_Type_vector(16, 16, 16) of 59 chars
// resized to 64 bytes (see blklen-common.ts).
import type { MTest, MTestResult } from '../mtest.ts';
import { blklen } from './blklen-common.ts';

export default function vecblklen(mt: MTest): Promise<MTestResult> {
  return blklen(mt, (mpi, veccount, stride, oldtype) => mpi.typeVector(veccount, stride, stride, oldtype));
}
