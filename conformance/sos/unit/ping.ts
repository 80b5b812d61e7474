// SOS test/unit/ping.c (defaults: 128 longs, 10 loops): PE 0 puts to every other PE's static Target, each waits for the last word, then checks all and clears them.
import type { ShmemTest } from '../../shmem/harness.ts';

const DFLT_NWORDS = 128;
const TARGET_SZ = 8192;
const VAL = 0xcafebaben;

export default async function ping(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const [targetSym, srcSym] = await t.statics([8 * TARGET_SZ, 8 * TARGET_SZ]);
  const Target = targetSym!.int64();
  const src = srcSym!.int64();
  let failures = 0;
  s.init();
  const proc = s.myPe();
  const numProcs = s.nPes();
  if (numProcs === 1) {
    if (proc === 0) t.printf('ERR - Requires > 1 PEs');
    await s.finalize();
    return 0;
  }
  const nWords = DFLT_NWORDS;
  const loops = 10;
  for (let j = 0; j < nWords; j++) src[j] = VAL;
  for (let j = 0; j < loops; j++) {
    await s.barrierAll();
    if (proc === 0) {
      for (let p = 1; p < numProcs; p++) await s.putInt64(targetSym!, src, nWords, p);
    } else {
      // wait for the last word to be written
      await s.waitUntil(targetSym!.element('int64', nWords - 1), 'ne', proc, 'int64');
    }
    await s.barrierAll();
    if (proc !== 0) {
      for (let k = 0; k < nWords; k++) {
        if (Target[k] !== VAL) {
          t.printf(`[${proc}] Target[${k}] 0x${Target[k]!.toString(16)} != 0x${VAL.toString(16)}?`);
          failures++;
        }
        Target[k] = 0n;
      }
    } else Target.fill(0n, 0, TARGET_SZ);
  }
  await s.barrierAll();
  if (failures && proc === 0) t.printf(`${proc}(${numProcs}) Exit(${failures})`);
  await s.finalize();
  return failures;
}
