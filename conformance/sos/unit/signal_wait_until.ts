// SOS test/unit/signal_wait_until.c: every PE puts with a signal to every PE (ADD of 1, then SET to npes+1); shmem_signal_wait_until with each comparison returns the signal.
import type { ShmemTest } from '../../shmem/harness.ts';

const MSG_SZ = 10;

export default async function signalWaitUntil(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const source = new BigInt64Array(MSG_SZ);
  let errors = 0;
  const [sigAddr] = await t.statics([8]);
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  const n = BigInt(npes);
  for (let i = 0; i < MSG_SZ; i++) source[i] = BigInt(i);
  const targetSym = await s.calloc(MSG_SZ, 8);
  const target = targetSym.int64();
  await s.barrierAll();
  for (let i = 0; i < npes; i++) await s.putSignal(targetSym, source, MSG_SZ, sigAddr!, 1, s.SIGNAL_ADD, i);
  let retval = await s.signalWaitUntil(sigAddr!, 'le', npes);
  if (retval > n) errors++;
  retval = await s.signalWaitUntil(sigAddr!, 'eq', npes);
  if (retval !== n) errors++;
  retval = await s.signalWaitUntil(sigAddr!, 'lt', npes + 1);
  if (retval !== n) errors++;
  for (let i = 0; i < MSG_SZ; i++) {
    if (target[i] !== source[i]) {
      t.printf(`${String(me).padStart(10)}: target[${i}] = ${target[i]} not matching ${source[i]} with SHMEM_SIGNAL_ADD`);
      errors++;
    }
  }
  target.fill(0n);
  await s.barrierAll();
  for (let i = 0; i < npes; i++) await s.putSignal(targetSym, source, MSG_SZ, sigAddr!, npes + 1, s.SIGNAL_SET, i);
  retval = await s.signalWaitUntil(sigAddr!, 'ge', npes);
  if (retval < n) errors++;
  retval = await s.signalWaitUntil(sigAddr!, 'eq', npes + 1);
  if (retval !== n + 1n) errors++;
  await s.barrierAll();
  for (let i = 0; i < MSG_SZ; i++) {
    if (target[i] !== source[i]) {
      t.printf(`${String(me).padStart(10)}: target[${i}] = ${target[i]} not matching ${source[i]} with SHMEM_SIGNAL_SET`);
      errors++;
    }
  }
  await s.free(targetSym);
  await s.finalize();
  return errors;
}
