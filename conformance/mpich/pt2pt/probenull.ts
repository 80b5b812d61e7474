// MPICH test/mpi/pt2pt/probenull.c: MPI_Iprobe and MPI_Probe with a source of MPI_PROC_NULL.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function probenull(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const s = await mpi.iprobe(mpi.PROC_NULL, 10);
  if (!s) {
    errs++;
    mt.printf('Iprobe of source=MPI_PROC_NULL returned flag=false');
  } else {
    if (s.source !== mpi.PROC_NULL) {
      mt.printf(`Status.MPI_SOURCE was ${s.source}, should be MPI_PROC_NULL`);
      errs++;
    }
    if (s.tag !== mpi.ANY_TAG) {
      mt.printf(`Status.MPI_TAG was ${s.tag}, should be MPI_ANY_TAGL`);
      errs++;
    }
  }
  // if Iprobe failed, Probe is likely to as well: avoid a possible hang
  if (errs === 0) {
    const status = await mpi.probe(mpi.PROC_NULL, 10);
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
