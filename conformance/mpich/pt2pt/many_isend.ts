// MPICH test/mpi/pt2pt/many_isend.c: every rank isends 16 KiB to every rank, itself included,
// and receives them one by one with wildcards.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Request } from '../../../runtime/mpi/mpi.ts';

const ITER = 5;
const BUF_COUNT = (16 * 1024) / 4;

export default async function manyIsend(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  const nprocs = mpi.size;
  const recvbuf = new Int32Array(BUF_COUNT);
  const sendbuf = new Int32Array(BUF_COUNT);
  const sendreqs: Request[] = [];
  for (let x = 0; x < ITER; x++) {
    await mpi.barrier();
    sendbuf.fill(rank);
    recvbuf.fill(-1);
    // all to all send
    for (let i = 0; i < nprocs; i++) sendreqs[i] = mpi.isend(sendbuf, i, 0);
    // receive one by one
    for (let i = 0; i < nprocs; i++) {
      const recvstatus = await mpi.recv(recvbuf, mpi.ANY_SOURCE, mpi.ANY_TAG);
      for (let j = 0; j < BUF_COUNT; j++) {
        if (recvbuf[j] !== recvstatus.source) {
          if (++errs < 10) mt.printf(`recvbuf[${j}] (${recvbuf[j]}) != ${recvstatus.source}`);
        }
      }
    }
    // ensure all send requests completed
    await mpi.waitAll(sendreqs);
  }
  await mpi.barrier();
  return mt.finalize(errs);
}
