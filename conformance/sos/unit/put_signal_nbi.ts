// SOS test/unit/put_signal_nbi.c: PE 0 puts with a signal to every PE, non-blocking, with SIGNAL_SET then SIGNAL_ADD of i+1; each PE waits for its signal and checks the data.
import type { ShmemTest } from '../../shmem/harness.ts';

const MSG_SZ = 10;

export default async function putSignalNbi(t: ShmemTest): Promise<number> {
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
  if (me === 0) for (let i = 0; i < npes; i++) await s.putSignalNbi(targetSym, source, MSG_SZ, sigAddr!, 1, s.SIGNAL_SET, i);
  await s.waitUntil(sigAddr!, 'eq', 1, 'uint64');
  for (let i = 0; i < MSG_SZ; i++) {
    if (target[i] !== source[i]) {
      t.printf(`${String(me).padStart(10)}: target[${i}] = ${target[i]} not matching ${source[i]} with SHMEM_SIGNAL_SET`);
      errors++;
    }
  }
  await s.barrierAll();
  target.fill(0n);
  sigAddr!.uint64()[0] = 0n;
  await s.barrierAll();
  if (me === 0) for (let i = 0; i < npes; i++) await s.putSignalNbi(targetSym, source, MSG_SZ, sigAddr!, i + 1, s.SIGNAL_ADD, i);
  await s.waitUntil(sigAddr!, 'eq', me + 1, 'uint64');
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
