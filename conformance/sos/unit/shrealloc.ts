// SOS test/unit/shrealloc.c (defaults: 32 ints, 50 loops, +1025 a loop): result ((npes-1)*nWords), target (nWords) and source (2*nWords) ints grown by shmem_realloc each loop, the new part filled with 1, 2 and 3, and all checked.
import type { ShmemTest } from '../../shmem/harness.ts';
import type { Symmetric } from '../../../runtime/shmem/shmem.ts';

const DFLT_NWORDS = 32;
const DFLT_INCR = 1025;
const DFLT_LOOPS = 50;

export default async function shrealloc(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  s.init();
  const nProcs = s.nPes();
  if (nProcs <= 1) {
    t.printf('ERR - Requires > 1 PEs');
    await s.finalize();
    return 0;
  }
  let nWords = DFLT_NWORDS;
  const loops = DFLT_LOOPS;
  const incWords = DFLT_INCR;
  let result: Symmetric | null = null;
  let target: Symmetric | null = null;
  let source: Symmetric | null = null;
  let prevResultIdx = 0;
  let prevTargetIdx = 0;
  let prevSourceIdx = 0;
  for (let l = 0; l < loops; l++) {
    const resultSz = (nProcs - 1) * (nWords * 4);
    result = await s.realloc(result, resultSz);
    if (!result) {
      t.printf('Failed result memory allocation');
      t.exit(1);
    }
    result.int32().fill(1, prevResultIdx, resultSz / 4);
    prevResultIdx = resultSz / 4;
    const targetSz = nWords * 4;
    target = await s.realloc(target, targetSz);
    if (!target) {
      t.printf('Failed target memory allocation');
      t.exit(1);
    }
    target.int32().fill(2, prevTargetIdx, targetSz / 4);
    prevTargetIdx = targetSz / 4;
    const sourceSz = 2 * nWords * 4;
    source = await s.realloc(source, sourceSz);
    if (!source) {
      t.printf('Failed source memory allocation');
      t.exit(1);
    }
    source.int32().fill(3, prevSourceIdx, sourceSz / 4);
    prevSourceIdx = sourceSz / 4;
    if (source.int32().some((v) => v !== 3)) t.printf('source not consistent @ 3?');
    if (target.int32().some((v) => v !== 2)) t.printf('target not consistent @ 2?');
    if (result.int32().some((v) => v !== 1)) t.printf('result not consistent @ 1?');
    if (loops > 1) nWords += incWords;
  }
  await s.free(source);
  await s.free(target);
  await s.free(result);
  await s.finalize();
  return 0;
}
