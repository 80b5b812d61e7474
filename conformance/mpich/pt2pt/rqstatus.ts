// MPICH test/mpi/pt2pt/rqstatus.c: MPI_Request_get_status of MPI_REQUEST_NULL (flag true, empty
// status, MPI-2.2) and of a receive an Ssend has matched (flag true, the status) without completing
// it; MPI_Wait then gives the same status.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Request } from '../../../runtime/mpi/mpi.ts';

export default async function rqstatus(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const comm = mpi.COMM_WORLD;
  const rank = comm.rank;
  const size = comm.size;
  const source = 0;
  const dest = size - 1;
  let { flag, status } = await mpi.requestGetStatus(mpi.REQUEST_NULL);
  if (!flag) {
    errs++;
    mt.printf(`flag not true for MPI_REQUEST_NULL, flag=${flag}`);
  }
  if (status?.source !== mpi.ANY_SOURCE || status.tag !== mpi.ANY_TAG) {
    errs++;
    mt.printf('non-empty MPI_Status returned for MPI_REQUEST_NULL');
  }
  // MPI_STATUS_IGNORE: the status is simply not looked at
  ({ flag } = await mpi.requestGetStatus(mpi.REQUEST_NULL));
  if (!flag) {
    errs++;
    mt.printf(`flag not true for MPI_REQUEST_NULL with MPI_STATUS_IGNORE, flag=${flag}`);
  }
  const buf = new Int32Array(2);
  let req: Request | null = null;
  if (rank === source) {
    buf[0] = size;
    buf[1] = 3;
    await comm.ssend(buf, dest, 10);
  }
  if (rank === dest) req = comm.irecv(buf, source, 10);
  await comm.barrier();
  // the receive has at least started, because of the Ssend
  if (rank === dest) {
    ({ flag, status } = await mpi.requestGetStatus(req!));
    if (flag) {
      if (status!.tag !== 10) {
        errs++;
        mt.printf(`Tag value ${status!.tag} should be 10`);
      }
      if (status!.source !== source) {
        errs++;
        mt.printf(`Source value ${status!.source} should be ${source}`);
      }
      const count = mpi.getCount(status!, mpi.INT);
      if (count !== 2) {
        errs++;
        mt.printf(`Count value ${count} should be 2`);
      }
    } else {
      errs++;
      mt.printf('Unexpected flag value from get_status');
    }
    // now complete the request
    const status2 = await mpi.wait(req!);
    if (status2.tag !== 10) {
      errs++;
      mt.printf(`(wait)Tag value ${status2.tag} should be 10`);
    }
    if (status2.source !== source) {
      errs++;
      mt.printf(`(wait)Source value ${status2.source} should be ${source}`);
    }
    const count = mpi.getCount(status2, mpi.INT);
    if (count !== 2) {
      errs++;
      mt.printf(`(wait)Count value ${count} should be 2`);
    }
  }
  return mt.finalize(errs);
}
