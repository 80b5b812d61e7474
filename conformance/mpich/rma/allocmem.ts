// MPICH test/mpi/rma/allocmem.c: MPI_Alloc_mem with hints (alignment, MPICH's buffer types) of 1 to
// 65536 bytes, each written through and given back with MPI_Free_mem; MPI_ERR_NO_MEM with hints
// retries without.
import type { MTest, MTestResult } from '../mtest.ts';
import { rc } from '../mtest.ts';

export default async function allocmem(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  mpi.setErrhandler(mpi.ERRORS_RETURN);
  const hints = mpi.infoCreate();
  hints.set('mpi_minimum_memory_alignment', '4096');
  for (const hint of ['ddr', 'hbm', 'network', 'shmem']) {
    hints.set('mpich_buf_type', hint);
    for (let count = 1; count < 128000; count *= 2) {
      let ap: Uint8Array | null = null;
      let err = await rc(() => (ap = mpi.allocMem(count, hints)));
      if (err && mpi.errorClass(err) === mpi.errorCodes.ERR_NO_MEM) err = await rc(() => (ap = mpi.allocMem(count, mpi.INFO_NULL)));
      if (err) {
        errs++;
        mt.printError(err);
      } else {
        // access all of this memory
        const a: Uint8Array = ap!;
        for (let j = 0; j < count; j++) a[j] = j & 0x7f;
        mpi.freeMem(a);
      }
    }
  }
  hints.free();
  return mt.finalize(errs);
}
