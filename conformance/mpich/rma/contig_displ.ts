// MPICH test/mpi/rma/contig_displ.c: an MPI_Get, to self under an exclusive lock, whose target
// type is an indexed block of one int at a displacement of one int: it must read the window's
// second int, not its first (a bug once found in IBM's MPI).
import type { Datatype, Win } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';
import { rc } from '../mtest.ts';

export default async function contigDispl(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  if (rank === 0) {
    // to improve reporting of problems about operations, errors return
    mpi.COMM_SELF.setErrhandler(mpi.ERRORS_RETURN);
    let type!: Datatype;
    let mem!: Uint8Array;
    let win!: Win;
    const getval = new Int32Array(1);
    let array: Int32Array = new Int32Array(0);
    const steps: (() => unknown)[] = [
      // an indexed datatype that points to the second integer in an array
      () => (type = mpi.typeCreateIndexedBlock(1, 1, [1], mpi.INT)),
      () => mpi.typeCommit(type),
      // a window of two integers
      () => (mem = mpi.allocMem(2 * 4, mpi.INFO_NULL)),
      async () => {
        win = await mpi.COMM_SELF.winCreate(mem, 4, mpi.INFO_NULL);
        array = new Int32Array(mem.buffer, mem.byteOffset, 2);
        array[0] = 100;
        array[1] = 200;
        getval[0] = 0;
        win.setErrhandler(mpi.ERRORS_RETURN);
      },
      () => win.lock(mpi.LOCK_EXCLUSIVE, 0, 0),
      // get the current value of element array[1]
      () => win.get(getval, 1, mpi.INT, 0, 0, 1, type),
      () => win.unlock(0),
    ];
    for (const step of steps) {
      const mpiErr = await rc(step);
      if (mpiErr !== 0) {
        mt.printf('MPI function error returned an error');
        mt.printError(mpiErr);
        errs++;
        return mt.finalize(errs);
      }
    }
    // getval should contain the value of array[1]
    if (getval[0] !== array[1]) {
      errs++;
      mt.printf(`getval=${getval[0]}, should be ${array[1]}`);
    }
    mpi.freeMem(mem);
    await win.free();
    mpi.typeFree(type);
  }
  return mt.finalize(errs);
}
