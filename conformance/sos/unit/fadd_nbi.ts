// SOS test/unit/fadd_nbi.c: every PE fetch-adds one to a counter on every PE, blocking then non-blocking; each counter ends at npes and every old value is in 0..npes-1.
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function faddNbi(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const [ctrSym] = await t.statics([8]);
  const ctr = ctrSym!.int64();
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  const out = new BigInt64Array(npes);
  // blocking fetch-add
  ctr[0] = 0n;
  await s.barrierAll();
  let time = t.wtime();
  for (let i = 0; i < npes; i++) out[i] = await s.atomicFetchAdd(ctrSym!, 1, i, 'int64');
  await s.barrierAll();
  time = t.wtime() - time;
  if (me === 0) t.printf(`fetch_add     ${(time * 1000000).toFixed(2).padStart(10)}us`);
  if (ctr[0] !== BigInt(npes)) await s.globalExit(1);
  for (let i = 0; i < npes; i++) if (!(out[i]! >= 0n && out[i]! < BigInt(npes))) await s.globalExit(2);
  // NBI fetch-add
  ctr[0] = 0n;
  await s.barrierAll();
  time = t.wtime();
  for (let i = 0; i < npes; i++) await s.atomicFetchAddNbi(out, i, ctrSym!, 1, i, 'int64');
  await s.barrierAll();
  time = t.wtime() - time;
  if (me === 0) t.printf(`fetch_add_nbi ${(time * 1000000).toFixed(2).padStart(10)}us`);
  if (ctr[0] !== BigInt(npes)) await s.globalExit(1);
  for (let i = 0; i < npes; i++) if (!(out[i]! >= 0n && out[i]! < BigInt(npes))) await s.globalExit(2);
  await s.finalize();
  return 0;
}
