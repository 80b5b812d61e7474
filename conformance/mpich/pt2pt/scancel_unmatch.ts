// MPICH test/mpi/pt2pt/scancel_unmatch.c: message reception ordering after cancelling a send:
// the receiver must get the first, uncancelled message.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function scancelUnmatch(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  const a = new Int32Array(1);
  const b = new Int32Array(1);
  if (rank === 0) {
    a[0] = 10;
    b[0] = 20;
    const r0 = mpi.isend(a, 1, 0);
    const r1 = mpi.isend(b, 1, 0);
    mpi.cancel(r1);
    const s1 = await mpi.wait(r1);
    if (!s1.cancelled) {
      mt.printf('Failed to cancel send');
      errs++;
    }
    await mpi.barrier();
    await mpi.wait(r0);
  } else if (rank === 1) {
    await mpi.barrier();
    await mpi.recv(a, 0, 0);
    if (a[0] === 20) {
      mt.printf('Failed! got the data from the wrong send!');
      errs++;
    }
  }
  return mt.finalize(errs);
}
