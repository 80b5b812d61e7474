// MPICH test/mpi/datatype/hvecblklen.c: pack and unpack of MPI_Type_create_hvector(16, 16,
// 16 x 64 bytes) of 59 chars resized to 64 bytes (see blklen-common.ts).
import type { MTest, MTestResult } from '../mtest.ts';
import { blklen } from './blklen-common.ts';

export default function hvecblklen(mt: MTest): Promise<MTestResult> {
  return blklen(mt, (mpi, veccount, stride, oldtype) => mpi.typeCreateHvector(veccount, stride, stride * 64, oldtype));
}
