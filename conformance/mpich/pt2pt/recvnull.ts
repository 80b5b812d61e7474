// MPICH test/mpi/pt2pt/recvnull.c: MPI_Irecv and MPI_Recv with a source of MPI_PROC_NULL.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function recvnull(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const req = mpi.irecv(new Uint8Array(0), mpi.PROC_NULL, 10);
  let [status] = await mpi.waitAll([req]);
  if (status!.source !== mpi.PROC_NULL) {
    mt.printf(`Status.MPI_SOURCE was ${status!.source}, should be MPI_PROC_NULL`);
    errs++;
  }
  if (status!.tag !== mpi.ANY_TAG) {
    mt.printf(`Status.MPI_TAG was ${status!.tag}, should be MPI_ANY_TAGL`);
    errs++;
  }
  // if Irecv failed, Recv is likely to as well: avoid a possible hang
  if (errs === 0) {
    status = await mpi.recv(new Uint8Array(0), mpi.PROC_NULL, 10);
    if (status.source !== mpi.PROC_NULL) {
      mt.printf(`Status.MPI_SOURCE was ${status.source}, should be MPI_PROC_NULL`);
      errs++;
    }
    if (status.tag !== mpi.ANY_TAG) {
      mt.printf(`Status.MPI_TAG was ${status.tag}, should be MPI_ANY_TAGL`);
      errs++;
    }
  }
  return mt.finalize(errs);
}
