// SOS test/unit/iput-iget.c: PE 0 puts every second short to PEs 1.., then gets 5 shorts back from each with shmem_short_iget.
import type { ShmemTest } from '../../shmem/harness.ts';

const WRDS = 5;

export default async function iputIget(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const [sourceSym, targetSym] = await t.statics([2 * 10, 2 * 10], ([src]) => new Int16Array(src!.local.buffer, src!.local.byteOffset, 10).set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]));
  const source = new Int16Array(sourceSym!.local.buffer, sourceSym!.local.byteOffset, 10);
  const target = new Int16Array(targetSym!.local.buffer, targetSym!.local.byteOffset, 10);
  let rc = 0;
  s.init();
  const me = s.myPe();
  const nProcs = s.nPes();
  if (me === 0) {
    // put words into target on PEs 1 .. nProcs-1
    for (let j = 1; j < nProcs; j++) await s.iputInt16(targetSym!, source, 1, 2, WRDS, j);
  }
  const resultsSym = await s.malloc(nProcs * WRDS * 2);
  t.assert(resultsSym !== null, 'results');
  const results = new Int16Array(resultsSym.local.buffer, resultsSym.local.byteOffset, nProcs * WRDS);
  results.fill(0);
  await s.barrierAll(); // sync sender and receiver
  if (me !== 0) {
    // verify the iput data
    if (target[0] !== 1 || target[1] !== 3 || target[2] !== 5 || target[3] !== 7 || target[4] !== 9) {
      t.printf(`iput-iget ERR: target on PE ${me} is ${target[0]} ${target[1]} ${target[2]} ${target[3]} ${target[4]}\n  Expected 1,3,5,7,9?`);
      rc = 1;
    }
  }
  await s.barrierAll();
  if (rc !== 0) await s.globalExit(rc);
  if (me === 0) {
    // pull target[0..4] of PEs 1 .. nProcs-1 into results[k .. k+4]
    for (let j = 1, k = 0; j < nProcs; j++, k += WRDS) await s.igetInt16(results.subarray(k), targetSym!, 1, 1, WRDS, j);
    for (let j = 1, k = 0; j < nProcs; j++, k += WRDS) {
      if (results[k] !== 1 || results[k + 1] !== 3 || results[k + 2] !== 5 || results[k + 3] !== 7 || results[k + 4] !== 9) {
        t.printf(`iput-iget [${me}] ERR: results ${results[k]} ${results[k + 1]} ${results[k + 2]} ${results[k + 3]} ${results[k + 4]}\n  Expected 1,3,5,7,9?`);
        rc = 1;
      }
    }
  }
  await s.barrierAll(); // sync before exiting
  await s.free(resultsSym);
  await s.finalize();
  return rc;
}
