// MPICH test/mpi/pt2pt/icprobe.c: MPI_Probe (MPI_ANY_SOURCE, MPI_ANY_TAG) on MTest's
// intercommunicators: every rank of one group sends its rank to rank 0 of the other, which probes
// and receives from the probed source, then the other way (-randomize=1: MTestCommRandomize
// first).
import type { MTest, MTestResult } from '../mtest.ts';

export default async function icprobe(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
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
            let status = await comm.probe(mpi.ANY_SOURCE, mpi.ANY_TAG);
            status = await comm.recv(buf, status.source, status.tag);
            if (buf[0] !== status.source) {
              errs++;
              mt.printf(`buf = ${buf[0]}, should be ${status.source}`);
            }
          }
        }
      }
    }
  }
  return mt.finalize(errs);
}
