// SOS test/unit/ipgm.c (defaults: 16 longs, 16 loops, +16 a loop, shmem_malloc): PE 0 puts every second long of its source to each worker with shmem_long_iput; the workers check it and add their PE number; PE 0 gets it back with shmem_long_iget into a results array grown by shmem_realloc, checking it then and again at the end.
import type { ShmemTest } from '../../shmem/harness.ts';
import type { Symmetric } from '../../../runtime/shmem/shmem.ts';

const DFLT_NWORDS = 16;
const DFLT_LOOPS = 16;
const DFLT_INCR = 16;

export default async function ipgm(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  s.init();
  const me = s.myPe();
  const nProcs = s.nPes();
  const workers = nProcs - 1;
  if (nProcs <= 1) {
    t.printf('ERR - Requires > 1 PEs');
    await s.finalize();
    return 0;
  }
  const targetDataGood = (data: BigInt64Array, elements: number, id: number, lineno: number): number => {
    for (let j = 0, k = 1; j < elements; j++, k += 2) {
      if (data[j] !== BigInt(k + id)) {
        t.printf(`PE[${s.myPe()}] ERR @ line#${lineno} data[${j}] wanted ${k + id} != ${data[j]}`);
        t.printf(Array.from(data.subarray(0, elements), (v) => `${v} `).join(''));
        return 1;
      }
    }
    return 0;
  };
  let nWords = DFLT_NWORDS;
  const nWordsStart = nWords;
  const loops = DFLT_LOOPS;
  const incWords = DFLT_INCR;
  let results: Symmetric | null = null;
  let prevSz = 0;
  let ridx = 0;
  for (let l = 0; l < loops; l++) {
    // reserve space for the worker PEs to deposit data
    let rc = workers * nWords * 8 + prevSz;
    results = await s.realloc(results, rc);
    if (!results) {
      t.printf('Failed results memory allocation');
      await s.globalExit(1);
    }
    prevSz = rc;
    rc = 2 * nWords * 8;
    const source = await s.malloc(rc);
    // init source data
    const src = source.int64();
    for (let j = 0; j < nWords * 2; j++) src[j] = BigInt(j + 1);
    rc = nWords * 8;
    const target = await s.malloc(rc);
    const tgt = target.int64();
    tgt.fill(0n);
    await s.barrierAll();
    if (me === 0) {
      // put nWords longs into target on PEs 1 .. nProcs-1
      for (let j = 1; j < nProcs; j++) await s.iputInt64(target, src, 1, 2, nWords, j);
    }
    await s.barrierAll();
    if (me !== 0) {
      // verify the iput target data
      if (targetDataGood(tgt, nWords, 0, 224)) await s.globalExit(1);
      // add my PE to the target data so PE 0 knows I have seen it
      for (let j = 0; j < nWords; j++) tgt[j] = tgt[j]! + BigInt(me);
    }
    await s.barrierAll();
    if (me === 0) {
      // pull the data from PEs 1 .. nProcs-1 into results[ridx ..]
      const res = results!.int64();
      for (let j = 1; j < nProcs; j++) {
        await s.igetInt64(res.subarray(ridx), target, 1, 1, nWords, j);
        if (targetDataGood(res.subarray(ridx), nWords, j, 246)) await s.globalExit(1);
        ridx += nWords;
      }
    }
    await s.barrierAll();
    await s.free(source);
    await s.free(target);
    nWords += incWords;
    await s.barrierAll();
  }
  if (me === 0) {
    nWords = nWordsStart;
    const res = results!.int64();
    ridx = 0;
    for (let l = 0; l < loops; l++) {
      for (let j = 1; j < nProcs; j++) {
        if (targetDataGood(res.subarray(ridx), nWords, j, 285)) await s.globalExit(1);
        ridx += nWords;
      }
      nWords += incWords;
    }
  }
  await s.finalize();
  return 0;
}
