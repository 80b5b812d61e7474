// MPICH test/mpi/rma/fkeyvalwin.c: over MTest's windows, a keyval freed while an attribute of it
// is still on a window keeps working: freeing the window (after 32 more keyvals were made, in case
// the freed one is reused) still runs its delete callback, which decrements the value from 1 to 0.
// The copy callback would increment it, but windows are never duplicated. The attribute is C's
// `&attrval`: here an Int32Array of one element that the callbacks change in place.
import type { Keyval, Win } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';
import { MTestWins } from '../mtest-win.ts';

export default async function fkeyvalwin(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const wins = new MTestWins(mt);
  // copy increments the attribute value; delete decrements it
  const copyFn = (_old: Win, _keyval: Keyval<Win>, _extra: unknown, value: unknown): { flag: boolean; value: unknown } => {
    (value as Int32Array)[0]! += 1;
    return { flag: true, value };
  };
  const deleteFn = (_win: Win, _keyval: Keyval<Win>, value: unknown): number => {
    (value as Int32Array)[0]! -= 1;
    return 0;
  };
  for (;;) {
    const { idx, win } = await wins.next(false);
    if (idx === 0) break;
    if (win === null) continue;
    const keyval = mpi.winCreateKeyval(copyFn, deleteFn, 0);
    const attrval = Int32Array.of(1);
    win.setAttr(keyval, attrval);
    // MPI-1 §5.7.1: freeing the keyval does not remove it while an attribute uses it
    mpi.winFreeKeyval(keyval);
    // some dummy keyvals, in case the same keyval is reused (MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN)
    const key: Keyval<Win>[] = [];
    for (let i = 0; i < 32; i++) key.push(mpi.winCreateKeyval(mpi.WIN_NULL_COPY_FN, mpi.WIN_NULL_DELETE_FN, 0));
    await wins.free(win);
    // the original attribute was deleted
    if (attrval[0] !== 0) {
      errs++;
      mt.printf(`Attribute not decremented when win ${wins.name()} freed`);
    }
    for (const k of key) mpi.winFreeKeyval(k);
  }
  wins.cleanup();
  return mt.finalize(errs);
}
