// SOS test/unit/pingpong.c (defaults: 128 longs, 10 loops): PE 0 puts to every worker, which check the data and put their PE number back into their chunk of PE 0's work vector; PE 0 waits for the last word of each chunk and checks.
import type { ShmemTest } from '../../shmem/harness.ts';

const DFLT_NWORDS = 128;
const DFLT_LOOPS = 10;
const VAL = 0xcafebaben;

export default async function pingpong(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  let failures = 0;
  s.init();
  const myPe = s.myPe();
  const nProcs = s.nPes();
  if (nProcs === 1) {
    if (myPe === 0) t.printf('ERR - Requires > 1 PEs');
    await s.finalize();
    return 0;
  }
  for (let j = 0; j < nProcs; j++) if (!s.peAccessible(j)) t.printf(`ERR - pe ${j} not accessible from pe ${myPe}`);
  const nWords = DFLT_NWORDS;
  const loops = DFLT_LOOPS;
  const workSz = nProcs * nWords * 8;
  const workSym = await s.malloc(workSz);
  const TargetSym = await s.malloc(2 * nWords * 8);
  const work = workSym.int64();
  const Target = TargetSym.int64();
  const src = Target.subarray(nWords);
  for (let j = 0; j < nWords; j++) src[j] = VAL;
  for (let j = 0; j < loops; j++) {
    await s.barrierAll();
    if (myPe === 0) {
      for (let p = 1; p < nProcs; p++) await s.putInt64(TargetSym, src, nWords, p);
    } else {
      // wait for the last word to be written
      await s.waitUntil(TargetSym.element('int64', nWords - 1), 'ne', myPe, 'int64');
    }
    await s.barrierAll();
    // workers verify the data PE 0 put
    if (myPe !== 0) {
      for (let k = 0; k < nWords; k++) {
        if (Target[k] !== VAL) {
          t.printf(`[${myPe}] Target[${k}] 0x${Target[k]!.toString(16)} != 0x${VAL.toString(16)}?`);
          failures++;
        }
        t.assert(Target[k] === VAL, 'Target[k] == VAL');
        Target[k] = BigInt(myPe);
      }
    } else work.fill(0n); // clear the results buffer: workers put here
    await s.barrierAll();
    if (myPe !== 0) {
      // push nWords of value my_pe back to PE 0
      await s.putInt64(workSym.element('int64', myPe * nWords), Target, nWords, 0);
    } else {
      // wait for PEs 1 .. nProcs-1 to complete their puts: the last long of each chunk
      for (let l = 1; l < nProcs; l++) await s.waitUntil(workSym.element('int64', l * nWords + nWords - 1), 'ne', 0, 'int64');
    }
    await s.barrierAll();
    if (myPe === 0) {
      for (let l = 1; l < nProcs; l++) {
        const wp = work.subarray(l * nWords);
        for (let k = 0; k < nWords; k++) {
          if (wp[k] !== BigInt(l)) {
            t.printf(`[0] PE(${l})_work[${k}] ${work[k]} != ${l}?`);
            failures++;
          }
          t.assert(wp[k] === BigInt(l), 'wp[k] == l');
          break;
        }
        if (failures) break;
      }
    }
    await s.barrierAll();
  }
  await s.free(workSym);
  await s.free(TargetSym);
  await s.finalize();
  return failures;
}
