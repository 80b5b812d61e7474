// MPICH test/mpi/rma/nullpscw.c: an empty post-start-complete-wait epoch of every rank with the
// window's whole group, on a window of no memory.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function nullpscw(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const errs = 0;
  const win = await mpi.winCreate(new Uint8Array(0), 1);
  const group = win.getGroup();
  await win.post(group, 0);
  await win.start(group, 0);
  await win.complete();
  await win.wait();
  await win.free();
  return mt.finalize(errs);
}
