// MPICH test/mpi/pt2pt/greq1.c: a generalized request is not complete before
// MPI_Grequest_complete (MPI_Test says so), and MPI_Wait completes it after; the free function is
// called with the extra state given to MPI_Grequest_start (it counts a counter down from 1 to 0).
import type { MTest, MTestResult } from '../mtest.ts';
import type { Mpi, MutableStatus } from '../../../runtime/mpi/mpi.ts';

/** The query, free and cancel functions of the test (each returns MPI_SUCCESS). */
function fns(mpi: Mpi): {
  query: (extra: { counter: number } | null, status: MutableStatus) => number;
  free: (extra: { counter: number } | null) => number;
  cancel: (extra: { counter: number } | null, complete: boolean) => number;
} {
  return {
    query: (_extra, status) => {
      // a default status
      status.source = mpi.UNDEFINED;
      status.tag = mpi.UNDEFINED;
      mpi.statusSetCancelled(status, false);
      mpi.statusSetElements(status, mpi.BYTE, 0);
      return 0;
    },
    free: (extra) => {
      if (extra) extra.counter--;
      // its value is the error code wait or test returns
      return 0;
    },
    cancel: () => 0,
  };
}

export default async function greq1(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const f = fns(mpi);
  let request = mpi.grequestStart(f.query, f.free, f.cancel, null);
  if (await request.test()) {
    errs++;
    mt.printf('Generalized request marked as complete');
  }
  mpi.grequestComplete(request);
  await request.wait();
  const extra = { counter: 1 };
  request = mpi.grequestStart(f.query, f.free, f.cancel, extra);
  mpi.grequestComplete(request);
  await request.wait();
  if (extra.counter) {
    errs++;
    mt.printf('Free routine not called, or not called with extra_data');
  }
  return mt.finalize(errs);
}
