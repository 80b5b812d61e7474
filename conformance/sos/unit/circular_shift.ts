// SOS test/unit/circular_shift.c: each PE gets its right neighbour's PE number.
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function circularShift(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const [aaa, bbb] = await t.statics([4, 4]);
  let ret = 0;
  s.init();
  const me = s.myPe();
  bbb!.int32()[0] = me;
  const neighbor = (me + 1) % s.nPes();
  await s.barrierAll();
  await s.getInt32(aaa!.int32(), bbb!, 1, neighbor);
  await s.barrierAll();
  if (aaa!.int32()[0] !== neighbor) ret = 1;
  await s.finalize();
  return ret;
}
