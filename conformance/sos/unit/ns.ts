// SOS test/unit/ns.c: 50 laps of allocating a long, the odd PEs swapping into their right neighbour's, and freeing it.
import type { ShmemTest } from '../../shmem/harness.ts';

const DFLT_LAPS = 50;

export default async function ns(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const laps = DFLT_LAPS;
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  for (let l = 0; l < laps; l++) {
    const target = await s.malloc(8);
    target.int64()[0] = BigInt(me);
    const newVal = BigInt(me);
    await s.barrierAll();
    if (me & 1) await s.atomicSwap(target, newVal, (me + 1) % npes, 'int64');
    await s.barrierAll();
    await s.free(target);
  }
  await s.finalize();
  return 0;
}
