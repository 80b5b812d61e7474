// SOS test/unit/put_signal.c: data passed around the ring with put-with-signal (SIGNAL_SET, then SIGNAL_ADD), each PE forwarding what it received once its signal is 1.
import type { ShmemTest } from '../../shmem/harness.ts';

const MSG_SZ = 10;

export default async function putSignal(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const source = new BigInt64Array(MSG_SZ);
  let errors = 0;
  const [sigAddr] = await t.statics([8]);
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  const dest = (me + 1) % npes;
  for (let i = 0; i < MSG_SZ; i++) source[i] = BigInt(i);
  const targetSym = await s.calloc(MSG_SZ, 8);
  const target = targetSym.int64();
  if (me === 0) {
    await s.putSignal(targetSym, source, MSG_SZ, sigAddr!, 1, s.SIGNAL_SET, dest);
    await s.waitUntil(sigAddr!, 'eq', 1, 'uint64');
  } else {
    await s.waitUntil(sigAddr!, 'eq', 1, 'uint64');
    await s.putSignal(targetSym, target, MSG_SZ, sigAddr!, 1, s.SIGNAL_SET, dest);
  }
  for (let i = 0; i < MSG_SZ; i++) {
    if (target[i] !== source[i]) {
      t.printf(`${String(me).padStart(10)}: target[${i}] = ${target[i]} not matching ${source[i]} with SHMEM_SIGNAL_SET`);
      errors++;
    }
  }
  await s.barrierAll();
  target.fill(0n);
  sigAddr!.uint64()[0] = 0n;
  const one = 1;
  await s.barrierAll();
  if (me === 0) {
    await s.putSignal(targetSym, source, MSG_SZ, sigAddr!, one, s.SIGNAL_ADD, dest);
    await s.waitUntil(sigAddr!, 'eq', one, 'uint64');
  } else {
    await s.waitUntil(sigAddr!, 'eq', one, 'uint64');
    await s.putSignal(targetSym, target, MSG_SZ, sigAddr!, one, s.SIGNAL_ADD, dest);
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
