// SOS test/unit/pingpong-short.c (defaults: 128 shorts, 100 loops): pingpong.c with shorts: PE 0 puts to every worker, which check the data and put their PE number back into their chunk of PE 0's work vector.
import type { ShmemTest } from '../../shmem/harness.ts';

const DFLT_NWORDS = 128;
const DFLT_LOOPS = 100;
/** (short)0xCafe */
const VAL = (0xcafe << 16) >> 16;

export default async function pingpongShort(t: ShmemTest): Promise<number> {
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
  const workSz = nProcs * nWords * 2;
  const workSym = await s.malloc(workSz);
  const TargetSym = await s.malloc(2 * nWords * 2); // Target and src
  const work = new Int16Array(workSym.local.buffer, workSym.local.byteOffset, nProcs * nWords);
  const Target = new Int16Array(TargetSym.local.buffer, TargetSym.local.byteOffset, 2 * nWords);
  const src = Target.subarray(nWords);
  const at = (sym: typeof workSym, i: number) => sym.at(2 * i);
  for (let j = 0; j < nWords; j++) src[j] = VAL;
  for (let j = 0; j < loops; j++) {
    await s.barrierAll();
    if (myPe === 0) {
      for (let p = 1; p < nProcs; p++) await s.putInt16(TargetSym, src, nWords, p);
    } else {
      // wait for the last word to be written
      await s.waitUntil(at(TargetSym, nWords - 1), 'ne', myPe, 'int16');
    }
    await s.barrierAll();
    // workers verify the data PE 0 put
    if (myPe !== 0) {
      for (let k = 0; k < nWords; k++) {
        if (Target[k] !== VAL) {
          t.printf(`[${myPe}] Target[${k}] 0x${(Target[k]! & 0xffff).toString(16)} != 0x${(VAL & 0xffff).toString(16)}?`);
          failures++;
        }
        t.assert(Target[k] === VAL, 'Target[k] == (DataType)VAL');
        Target[k] = myPe;
      }
    } else work.fill(0); // clear the results buffer: workers put here
    await s.barrierAll();
    if (myPe !== 0) {
      // push nWords of value my_pe back to PE 0
      await s.putInt16(at(workSym, myPe * nWords), Target, nWords, 0);
    } else {
      // wait for the last short of each worker's chunk
      for (let l = 1; l < nProcs; l++) await s.waitUntil(at(workSym, l * nWords + nWords - 1), 'ne', 0, 'int16');
    }
    await s.barrierAll();
    if (myPe === 0) {
      for (let l = 1; l < nProcs; l++) {
        const wp = work.subarray(l * nWords);
        for (let k = 0; k < nWords; k++) {
          if (wp[k] !== l) {
            t.printf(`[0] PE(${l})_work[${k}] ${work[k]} != ${l}?`);
            failures++;
          }
        }
        if (failures) break;
      }
    }
    await s.barrierAll();
  }
  await s.free(workSym);
  await s.free(TargetSym);
  await s.barrierAll();
  await s.finalize();
  return failures;
}
