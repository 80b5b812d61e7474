// MPICH test/mpi/coll/alltoall1.c: MPI_Alltoall of 1 to 32,768 ints per rank over MTest's
// intracommunicators, then the same in place (MPI-2.2). With -nonblocking the first call is an
// MPI_Ialltoall (MTest_Alltoall).
import { mtestColl, type MTest, type MTestResult } from '../mtest.ts';

export default async function alltoall1(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const minsize = 2;
  const isBlocking = !mt.argInt('nonblocking', 0);
  for await (const comm of mt.intracomms(minsize, true)) {
    if (!comm) continue;
    const rank = comm.rank;
    const size = comm.size;
    for (let count = 1; count < 65000; count = count * 2) {
      const sendbuf = new Int32Array(count * size);
      const recvbuf = new Int32Array(count * size).fill(-1);
      let p = 0;
      for (let j = 0; j < size; j++) for (let i = 0; i < count; i++) sendbuf[p++] = j * size + rank + i;
      await mtestColl(
        mpi,
        isBlocking,
        () => comm.alltoall(sendbuf, recvbuf),
        () => comm.ialltoall(sendbuf, recvbuf),
      );
      const check = (what: string): void => {
        let q = 0;
        for (let j = 0; j < size; j++) {
          for (let i = 0; i < count; i++) {
            if (recvbuf[q] !== rank * size + j + i) {
              errs++;
              if (errs < 10) {
                mt.printf(`Error${what} with communicator ${mt.getIntracommName()} and size=${size} count=${count}`);
                mt.printf(`recvbuf[${j},${i}] = ${recvbuf[q]}, should be ${rank * size + j + i}`);
              }
            }
            q++;
          }
        }
      };
      check('');
      // MPI_IN_PLACE (MPI-2.2)
      p = 0;
      for (let j = 0; j < size; j++) for (let i = 0; i < count; i++) recvbuf[p++] = j * size + rank + i;
      await comm.alltoall(mpi.IN_PLACE, recvbuf);
      check(' (MPI_IN_PLACE)');
    }
  }
  return mt.finalize(errs);
}
