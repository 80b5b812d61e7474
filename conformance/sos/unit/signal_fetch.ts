// SOS test/unit/signal_fetch.c: every PE puts with a signal add of its PE number to every PE; each waits until its signal holds the sum.
import type { ShmemTest } from '../../shmem/harness.ts';

const MSG_SZ = 10;

export default async function signalFetch(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const source = new BigInt64Array(MSG_SZ);
  let errors = 0;
  const [sigAddr] = await t.statics([8]);
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  for (let i = 0; i < MSG_SZ; i++) source[i] = BigInt(i);
  const targetSym = await s.calloc(MSG_SZ, 8);
  const target = targetSym.int64();
  await s.barrierAll();
  for (let i = 0; i < npes; i++) await s.putSignal(targetSym, source, MSG_SZ, sigAddr!, me, s.SIGNAL_ADD, i);
  let sigValue = await s.signalFetch(sigAddr!);
  while (sigValue !== BigInt((npes * (npes - 1)) / 2)) {
    await s.waitUntil(sigAddr!, 'ne', 0, 'uint64');
    sigValue = await s.signalFetch(sigAddr!);
  }
  for (let i = 0; i < MSG_SZ; i++) {
    if (target[i] !== source[i]) {
      t.printf(`${String(me).padStart(10)}: target[${i}] = ${target[i]} not matching ${source[i]} with SHMEM_SIGNAL_ADD`);
      errors++;
    }
  }
  await s.free(targetSym);
  await s.finalize();
  return errors;
}
