// MPICH test/mpi/pt2pt/irecv_any: recv_any.c built with TEST_NB (MPI_Irecv + MPI_Wait).
import type { MTest, MTestResult } from '../mtest.ts';
import { recvAny } from './recv_any.ts';

export default function irecvAny(mt: MTest): Promise<MTestResult> {
  return recvAny(mt, true);
}
