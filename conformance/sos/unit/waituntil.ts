// SOS test/unit/waituntil.c: PE 0 puts zeros then data to PEs 1..; they wait on the last element; PE 1 wakes PE 0 by a put to its pong, and PE 0 then releases all with a put to t2[9].
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function waituntil(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const source = BigInt64Array.of(1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n, 10n);
  const [targetSym, pongSym] = await t.statics([8 * 10, 8], ([, pong]) => (pong!.int64()[0] = 666n));
  const target = targetSym!.int64();
  s.init();
  const me = s.myPe();
  const numPes = s.nPes();
  if (numPes === 1) {
    t.printf('waituntil: Requires number of PEs > 1');
    await s.finalize();
    return 0;
  }
  const t2Sym = await s.malloc(10 * 8);
  const t2 = t2Sym.int64();
  t2[9] = target[9] = 0xffn;
  await s.barrierAll();
  const t29 = t2Sym.element('int64', 9);
  const target9 = targetSym!.element('int64', 9);
  if (me === 0) {
    const zeros = new BigInt64Array(10);
    for (let pe = 1; pe < numPes; pe++) await s.putInt64(targetSym!, zeros, 10, pe);
    await s.fence();
    // put 10 elements into target on PEs 1..
    for (let pe = 1; pe < numPes; pe++) await s.putInt64(targetSym!, source, 10, pe);
    await s.waitUntil(pongSym!, 'gt', 666, 'int64');
    // put 1 element into t2 on PEs 1..
    for (let pe = 1; pe < numPes; pe++) await s.pInt64(t29, 0xddn, pe);
  } else {
    // wait for the 10th element of target to be written
    await s.waitUntil(target9, 'ne', 0xff, 'int64');
    await s.waitUntil(target9, 'eq', 10, 'int64');
    if (me === 1) await s.pInt64(pongSym!, 999n, 0);
    await s.waitUntil(t29, 'ne', 0xff, 'int64');
  }
  if (me !== 0) {
    if (source.some((v, i) => v !== target[i])) {
      t.printf(`[${me}] Src & Target mismatch?`);
      t.printf(Array.from(source, (v, i) => `${v},${target[i]} `).join(''));
      await s.globalExit(1);
    }
  }
  await s.free(t2Sym);
  await s.finalize();
  return 0;
}
