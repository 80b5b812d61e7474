// MPICH test/mpi/comm/commname.c: MPI_Comm_get_name gives MPI_COMM_WORLD and MPI_COMM_SELF their
// names, MPI_COMM_NULL its name (MPI 4.1), and each of MTest's communicators (intra- and
// intercommunicators) the name MPI_Comm_set_name gave it.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function commname(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  // world and self first
  let nameout = mpi.commGetName(mpi.COMM_WORLD);
  if (nameout !== 'MPI_COMM_WORLD') {
    errs++;
    mt.printf(`Name of comm world is ${nameout}, should be MPI_COMM_WORLD`);
  }
  nameout = mpi.commGetName(mpi.COMM_SELF);
  if (nameout !== 'MPI_COMM_SELF') {
    errs++;
    mt.printf(`Name of comm self is ${nameout}, should be MPI_COMM_SELF`);
  }
  nameout = mpi.commGetName(mpi.COMM_NULL);
  if (nameout !== 'MPI_COMM_NULL') {
    errs++;
    mt.printf(`Name of comm null is ${nameout}, should be MPI_COMM_NULL`);
  }
  // then the other communicators, world and self among them
  let cnt = 0;
  for await (const comm of mt.comms(1)) {
    if (comm === null) continue;
    const name = `comm-${cnt}`;
    cnt++;
    comm.setName(name);
    nameout = mpi.commGetName(comm);
    if (name !== nameout) {
      errs++;
      mt.printf(`Unexpected name, was ${nameout} but should be ${name}`);
    }
  }
  return mt.finalize(errs);
}
