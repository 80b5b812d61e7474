// SOS test/unit/fcollect64.c (defaults: 16 longs, 20 loops, +32 a loop): a long fcollect over TEAM_WORLD of consecutive integers, dst checked to be 0 .. nWords*npes-1.
import type { ShmemTest } from '../../shmem/harness.ts';

const DFLT_NWORDS = 16;
const DFLT_INCR = 32;
const DFLT_LOOPS = 20;

export default async function fcollect64(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const loops = DFLT_LOOPS;
  const failures = 0;
  s.init();
  const mpe = s.myPe();
  const numPes = s.nPes();
  if (numPes === 1) {
    if (mpe === 0) t.printf('ERR - Requires > 1 PEs');
    await s.finalize();
    return 0;
  }
  let nWords = DFLT_NWORDS;
  const nIncr = DFLT_INCR;
  if (nWords % 8) {
    if (mpe === 0) t.printf(`fcollect64: nWords(${nWords}) not a multiple of 8?`);
    await s.finalize();
    return 1;
  }
  let src = null;
  for (let cloop = 1; cloop <= loops; cloop++) {
    const c = 8 * nWords * (numPes + 1); // src + dst allocation
    src = await s.malloc(c);
    const srcV = src.int64();
    const dst = src.element('int64', nWords);
    const dstV = srcV.subarray(nWords);
    for (let j = 0; j < nWords; j++) srcV[j] = BigInt(j + mpe * nWords);
    await s.barrierAll();
    await s.fcollect(s.TEAM_WORLD, dst, src, nWords, 'int64');
    // expect dst to be consecutive integers 0 ... (nLongs*num_pes)-1
    for (let j = 0; j < nWords * numPes; j++) {
      if (dstV[j] !== BigInt(j)) {
        t.printf(`[${mpe}] dst[${j}] ${dstV[j]} != expected ${j}`);
        await s.globalExit(1);
      }
    }
    await s.barrierAll();
    nWords += nIncr;
  }
  await s.free(src);
  await s.barrierAll();
  await s.finalize();
  return failures;
}
