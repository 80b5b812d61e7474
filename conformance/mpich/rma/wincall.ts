// MPICH test/mpi/rma/wincall.c: 1000 times (to expose leaks of error handlers), a window gets a
// handler of MPI_Win_create_errhandler and MPI_Win_call_errhandler(MPI_ERR_OTHER) calls it once,
// with that window and that code; the handler is freed while the window still has it.
import type { Win } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';

export default async function wincall(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  let calls = 0;
  let mywin: Win | null = null;
  const ERR_OTHER = mpi.errorCodes.ERR_OTHER!;
  const eh = (win: Win, err: number): void => {
    if (err !== ERR_OTHER) {
      errs++;
      mt.printf('Unexpected error code');
    }
    if (win !== mywin) {
      errs++;
      mt.printf('Unexpected window');
    }
    calls++;
  };
  const buf = new Int32Array(2);
  for (let i = 0; i < 1000; i++) {
    calls = 0;
    const win = await mpi.winCreate(buf, 4, mpi.INFO_NULL);
    mywin = win;
    const newerr = mpi.winCreateErrhandler(eh);
    win.setErrhandler(newerr);
    win.callErrhandler(ERR_OTHER);
    mpi.errhandlerFree(newerr);
    if (calls !== 1) {
      errs++;
      mt.printf('Error handler not called');
    }
    await win.free();
  }
  return mt.finalize(errs);
}
