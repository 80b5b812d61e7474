// MPICH test/mpi/pt2pt/bsendalign.c: bsend with a buffer at each of 7 alignments.
import type { MTest, MTestResult } from '../mtest.ts';
import { bsendToZero } from './bsend-common.ts';

const BUFSIZE = 2000 * 4;

export default async function bsendalign(mt: MTest): Promise<MTestResult> {
  const comm = mt.mpi.COMM_WORLD;
  const rank = comm.rank;
  const size = comm.size;
  const a = new Int32Array(10);
  let errs = 0;
  for (let align = 0; align < 7; align++) {
    // the buffer starts at buf + align; phit's attached buffer is a size, not an address
    comm.bufferAttach(BUFSIZE);
    for (let j = 0; j < 10; j++) {
      for (let i = 0; i < 10; i++) a[i] = (rank + 10 * j) * size + i;
      await comm.bsend(a, 0, 27 + j);
    }
    if (rank === 0) errs += await bsendToZero(mt, comm, size, `(Align=${align}) `);
    const bl = await comm.bufferDetach();
    // C compares the detached address with the attached one; the size is what phit gives back
    if (bl !== BUFSIZE) {
      errs++;
      mt.printf(`Did not receive the same buffer on detach that was provided on init (${bl} vs ${BUFSIZE} bytes)`);
    }
  }
  return mt.finalize(errs);
}
