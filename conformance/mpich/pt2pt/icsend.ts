// MPICH test/mpi/pt2pt/icsend.c: MPI_Send and MPI_Recv on MTest's intercommunicators: every rank of
// one group sends its rank to rank 0 of the other, which receives from each remote rank in turn,
// then the other way (-randomize=1: MTestCommRandomize first).
import type { MTest, MTestResult } from '../mtest.ts';

export default async function icsend(mt: MTest): Promise<MTestResult> {
  let errs = 0;
  const doRandomize = mt.argInt('randomize', 0);
  if (doRandomize) await mt.commRandomize();
  const buf = new Int32Array(1);
  for await (const { comm, isLeftGroup: leftGroup } of mt.intercomms(4)) {
    if (!comm) continue;
    // from the left group to the right one, then reversed
    for (const sending of [leftGroup, !leftGroup]) {
      if (sending) {
        buf[0] = comm.rank;
        await comm.send(buf, 0, 0);
      } else {
        const remoteSize = comm.remoteSize;
        const rank = comm.rank;
        if (rank === 0) {
          for (let i = 0; i < remoteSize; i++) {
            buf[0] = -1;
            await comm.recv(buf, i, 0);
            if (buf[0] !== i) {
              errs++;
              mt.printf(`buf = ${buf[0]}, should be ${i}`);
            }
          }
        }
      }
    }
  }
  return mt.finalize(errs);
}
