// MPICH test/mpi/rma/putfidx.c: put with fence for an indexed datatype: rank 0 puts two blocks of
// 2048 ints, one int apart in its buffer, as one MPI_Type_indexed into 4096 contiguous ints of the
// last rank's window (an MPI once turned such a type into a wrong contiguous move).
import type { MTest, MTestResult } from '../mtest.ts';
import { rc } from '../mtest.ts';

export default async function putfidx(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const comm = mpi;
  // create the datatype
  const blksize = 2048;
  const counts = [blksize, blksize];
  const displs = [0, blksize + 1];
  const originType = mpi.typeIndexed(2, counts, displs, mpi.INT);
  mpi.typeCommit(originType);
  const totsize = 2 * blksize;
  // determine the sender and receiver
  const rank = comm.rank;
  const size = comm.size;
  const source = 0;
  const dest = size - 1;
  const recvBuf = new Int32Array(totsize);
  const srcBuf = new Int32Array(totsize + 1);
  // initialize the send and recv buffers
  for (let i = 0; i < totsize; i++) recvBuf[i] = -1;
  for (let i = 0; i < blksize; i++) {
    srcBuf[i] = i;
    srcBuf[blksize + 1 + i] = blksize + i;
  }
  srcBuf[blksize] = -1;
  const { extent } = mpi.typeGetExtent(mpi.INT);
  const win = await comm.winCreate(recvBuf, extent, mpi.INFO_NULL);
  await win.fence(0);
  const checkMpiErr = (err: number): number => {
    if (err !== 0) {
      mt.printError(err);
      return 1;
    }
    return 0;
  };
  if (rank === source) {
    // to improve reporting of problems about operations, errors return
    win.setErrhandler(mpi.ERRORS_RETURN);
    errs += checkMpiErr(await rc(() => win.put(srcBuf, 1, originType, dest, 0, totsize, mpi.INT)));
    errs += checkMpiErr(await rc(() => win.fence(0)));
  } else if (rank === dest) {
    await win.fence(0);
    for (let i = 0; i < totsize; i++) {
      if (recvBuf[i] !== i) {
        errs++;
        if (errs < 10) mt.printf(`recvBuf[${i}] = ${recvBuf[i]} should = ${i}`);
      }
    }
  } else {
    await win.fence(0);
  }
  mpi.typeFree(originType);
  await win.free();
  return mt.finalize(errs);
}
