// SOS test/unit/sping.c (defaults: 128 longs, 1000 repetitions): PEs paired as p and p^1 ping-pong a put of 128 longs, each waiting for the last word and clearing it; the time per trip printed.
import type { ShmemTest } from '../../shmem/harness.ts';

const DFLT_MIN_WORDS = 128;
const DFLT_REPS = 1000;

export default async function sping(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const reps = DFLT_REPS;
  let doprint = 1;
  s.init();
  const proc = s.myPe();
  const nproc = s.nPes();
  if (nproc === 1) {
    t.printf('ERR - Requires > 1 Processing Elements');
    await s.finalize();
    return 0;
  }
  const minWords = DFLT_MIN_WORDS;
  const maxWords = minWords;
  const incWords = 0;
  const rbufSym = await s.malloc(maxWords * 8);
  const rbuf = rbufSym.int64();
  rbuf.fill(0n);
  const tbufSym = await s.malloc(maxWords * 8);
  const tbuf = tbufSym.int64();
  for (let i = 0; i < maxWords; i++) tbuf[i] = BigInt(1000 + (i & 255));
  if (doprint) t.printf(`${proc}(${nproc}): Shmem PING reps ${reps} minWords ${minWords} maxWords ${maxWords} incWords ${incWords}`);
  await s.barrierAll();
  const peer = proc ^ 1;
  if (peer >= nproc) doprint = 0;
  for (let nwords = minWords; nwords <= maxWords; nwords = incWords ? nwords + incWords : nwords ? 2 * nwords : 1) {
    let r = reps;
    const last = rbufSym.element('int64', nwords - 1);
    await s.barrierAll();
    const t0 = t.wtime() * 1e6;
    if (peer < nproc) {
      if (proc & 1) {
        r--;
        await s.waitUntil(last, 'ne', 0, 'int64');
        rbuf[nwords - 1] = 0n;
      }
      while (r-- > 0) {
        await s.putInt64(rbufSym, tbuf, nwords, peer);
        await s.waitUntil(last, 'ne', 0, 'int64');
        rbuf[nwords - 1] = 0n;
      }
      if (proc & 1) await s.putInt64(rbufSym, tbuf, nwords, peer);
    }
    const t1 = t.wtime() * 1e6;
    const time = (t1 - t0) / (2 * reps);
    await s.barrierAll();
    if (doprint || proc & 1) t.printf(`${String(proc).padStart(3)} pinged ${String(peer).padStart(3)}: ${String(nwords).padStart(8)} words ${time.toFixed(2).padStart(9)} uSec ${((8 * nwords) / time).toFixed(2).padStart(8)} MB/s`);
  }
  await s.free(rbufSym);
  await s.free(tbufSym);
  await s.finalize();
  return 0;
}
