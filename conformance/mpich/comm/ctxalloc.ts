// MPICH test/mpi/comm/ctxalloc.c: the allocation and release of contexts: 1,000 batches of 200
// dups of a communicator, each batch freed (errors returned and counted).
import { rc, type MTest, type MTestResult } from '../mtest.ts';
import type { Comm } from '../../../runtime/mpi/mpi.ts';

export default async function ctxalloc(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const newcomm1 = await mpi.dup();
  newcomm1.setErrhandler(mpi.ERRORS_RETURN);
  const newcomm2: Comm[] = [];
  for (let i = 0; i < 1000; i++) {
    for (let j = 0; j < 200; j++) {
      const err = await rc(async () => {
        newcomm2[j] = await newcomm1.dup();
      });
      if (err) {
        errs++;
        if (errs < 10) mt.printf(`Failed to duplicate communicator for (${i},${j})`);
      }
    }
    for (let j = 0; j < 200; j++) {
      const err = await rc(() => newcomm2[j]!.free());
      if (err) {
        errs++;
        if (errs < 10) mt.printf(`Failed to free ${i},${j}`);
      }
    }
  }
  const err = await rc(() => newcomm1.free());
  if (err) {
    errs++;
    mt.printf('Failed to free newcomm1');
  }
  return mt.finalize(errs);
}
