// MPICH test/mpi/rma/baseattrwin.c: a window of 1024 bytes (displacement unit 4) at the start of
// an array of 1024 ints answers MPI_WIN_BASE with the start of the array (the memory itself, not
// a pointer to it; MPI 2.1 §11.2.2), MPI_WIN_SIZE with 1024 and MPI_WIN_DISP_UNIT with 4. C
// compares the base pointer: the port compares the memory the base views and where it starts.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function baseattrwin(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const base = new Int32Array(1024);
  // create a window; then extract the values
  const n = 1024;
  const disp = 4;
  const win = await mpi.winCreate(new Uint8Array(base.buffer, base.byteOffset, n), disp, mpi.INFO_NULL);
  let a = win.getAttr(mpi.WIN_BASE);
  if (!a.flag) {
    errs++;
    mt.printf('Could not get WIN_BASE');
  } else {
    const v = a.value as ArrayBufferView;
    if (v.buffer !== base.buffer || v.byteOffset !== base.byteOffset) {
      errs++;
      mt.printf(`Got incorrect value for WIN_BASE (byte ${v.byteOffset} of its memory, should be byte ${base.byteOffset} of the array's)`);
    }
  }
  a = win.getAttr(mpi.WIN_SIZE);
  if (!a.flag) {
    errs++;
    mt.printf('Could not get WIN_SIZE');
  } else if (a.value !== n) {
    errs++;
    mt.printf(`Got wrong value for WIN_SIZE (${String(a.value)}, should be ${n})`);
  }
  a = win.getAttr(mpi.WIN_DISP_UNIT);
  if (!a.flag) {
    errs++;
    mt.printf('Could not get WIN_DISP_UNIT');
  } else if (a.value !== disp) {
    errs++;
    mt.printf(`Got wrong value for WIN_DISP_UNIT (${String(a.value)}, should be ${disp})`);
  }
  await win.free();
  return mt.finalize(errs);
}
