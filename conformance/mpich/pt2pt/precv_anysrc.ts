// MPICH test/mpi/pt2pt/precv_anysrc.c: a persistent MPI_ANY_SOURCE, MPI_ANY_TAG receive of 64 B,
// 32 KiB and 2 MB, started after a barrier that
// the sender passes with its isend already posted.
import type { MTest, MTestResult } from '../mtest.ts';

const SIZES = [64, 32768, 2000000];

export default async function precvAnysrc(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  for (let i = 0; i < 3; i++) {
    const msgSize = SIZES[i]!;
    const buf = new Uint8Array(msgSize);
    if (rank === 0) {
      mt.printfMsg(1, `Begin testing size = ${msgSize}`);
      const req = mpi.recvInit(buf, mpi.ANY_SOURCE, mpi.ANY_TAG);
      await mpi.barrier();
      mpi.start(req);
      await mpi.wait(req);
      mpi.requestFree(req);
    } else if (rank === 1) {
      for (let j = 0; j < msgSize; j++) buf[j] = j % 100;
      const req = mpi.isend(buf, 0, 1);
      await mpi.barrier();
      await mpi.wait(req);
    }
    for (let j = 0; j < msgSize; j++) errs += buf[j] !== j % 100 ? 1 : 0;
  }
  return mt.finalize(errs);
}
