// MPICH test/mpi/rma/winname.c: each of MTest's windows named win-0, win-1, ... gives its name back.
import type { MTest, MTestResult } from '../mtest.ts';
import { MTestWins } from '../mtest-win.ts';

export default async function winname(mt: MTest): Promise<MTestResult> {
  let errs = 0;
  const wins = new MTestWins(mt);
  let cnt = 0;
  for (;;) {
    const { idx, win } = await wins.next(true);
    if (idx === 0) break;
    if (win === null) continue;
    const name = `win-${cnt}`;
    cnt++;
    win.setName(name);
    const nameout = win.getName();
    if (name !== nameout) {
      errs++;
      mt.printf(`Unexpected name, was ${nameout} but should be ${name}`);
    }
    await wins.free(win);
  }
  wins.cleanup();
  return mt.finalize(errs);
}
