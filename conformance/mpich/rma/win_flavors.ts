// MPICH test/mpi/rma/win_flavors.c: windows of MPI_Win_create (rank * 8 bytes, none on rank 0),
// MPI_Win_allocate (as many) and MPI_Win_create_dynamic answer MPI_WIN_CREATE_FLAVOR with their
// flavor and MPI_WIN_MODEL with MPI_WIN_SEPARATE or MPI_WIN_UNIFIED.
import type { Win } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';

const ELEM_SIZE = 8;

export default async function winFlavors(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errors = 0;
  const rank = mpi.rank;
  const check = (win: Win, call: string, want: number): void => {
    const flavor = win.getAttr(mpi.WIN_CREATE_FLAVOR);
    if (!flavor.flag) {
      mt.printf(`${rank}: ${call} - Error, no flavor`);
      errors++;
    } else if (flavor.value !== want) {
      mt.printf(`${rank}: ${call} - Error, bad flavor (${String(flavor.value)})`);
      errors++;
    }
    const model = win.getAttr(mpi.WIN_MODEL);
    if (!model.flag) {
      mt.printf(`${rank}: ${call} - Error, no model`);
      errors++;
    } else if (model.value !== mpi.WIN_SEPARATE && model.value !== mpi.WIN_UNIFIED) {
      mt.printf(`${rank}: ${call} - Error, bad model (${String(model.value)})`);
      errors++;
    }
  };

  // MPI_Win_create
  const buf = rank > 0 ? mpi.allocMem(rank * ELEM_SIZE, mpi.INFO_NULL) : new Uint8Array(0);
  let window = await mpi.winCreate(buf, 1, mpi.INFO_NULL);
  check(window, 'MPI_Win_create', mpi.WIN_FLAVOR_CREATE);
  await window.free();
  if (rank > 0) mpi.freeMem(buf);

  // MPI_Win_allocate
  const allocated = await mpi.winAllocate(rank * ELEM_SIZE, 1, mpi.INFO_NULL);
  window = allocated.win;
  // C checks for a NULL base pointer on the ranks that asked for memory
  if (rank > 0 && allocated.buf.byteLength < rank * ELEM_SIZE) {
    mt.printf(`${rank}: MPI_Win_allocate - Error, bad base pointer`);
    errors++;
  }
  check(window, 'MPI_Win_allocate', mpi.WIN_FLAVOR_ALLOCATE);
  await window.free();

  // MPI_Win_create_dynamic
  window = await mpi.winCreateDynamic(mpi.INFO_NULL);
  check(window, 'MPI_Win_create_dynamic', mpi.WIN_FLAVOR_DYNAMIC);
  await window.free();
  return mt.finalize(errors);
}
