// SOS test/unit/get_g.c: 100/npes (at least 5) rounds of allocating a short, int, float, double and long, and getting each from every PE with shmem_TYPE_g.
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function getG(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  let loops = 100;
  s.init();
  const me = s.myPe();
  const numPes = s.nPes();
  // be a bit sane with the total number of gets issued
  loops = Math.trunc(loops / numPes);
  if (loops < 5) loops = 5;
  for (let l = 0; l < loops; ++l) {
    const srcShort = await s.malloc(2);
    new Int16Array(srcShort.local.buffer, srcShort.local.byteOffset, 1)[0] = 2;
    const srcInt = await s.malloc(4);
    srcInt.int32()[0] = 4;
    const srcFloat = await s.malloc(4);
    srcFloat.float32()[0] = 4.0;
    const srcDouble = await s.malloc(8);
    srcDouble.float64()[0] = 8.0;
    const srcLong = await s.malloc(8);
    srcLong.int64()[0] = 8n;
    await s.barrierAll();
    for (let pe = 0; pe < numPes; ++pe) {
      if (!s.addrAccessible(srcShort, pe)) {
        t.printf(`PE-${me} local addr not accessible from PE-${pe}?`);
        await s.globalExit(1);
      }
      const dstShort = await s.gInt16(srcShort, pe);
      if (dstShort !== 2) {
        t.printf(`PE-${me} dst_short ${dstShort} != 2?`);
        await s.globalExit(1);
      }
      const dstInt = await s.gInt32(srcInt, pe);
      if (dstInt !== 4) {
        t.printf(`PE-${me} dst_int ${dstInt} != 4?`);
        await s.globalExit(1);
      }
      const dstFloat = await s.gFloat32(srcFloat, pe);
      if (dstFloat !== 4.0) {
        t.printf(`PE-${me} dst_float ${dstFloat.toFixed(6)} != 4.0?`);
        await s.globalExit(1);
      }
      const dstDouble = await s.gFloat64(srcDouble, pe);
      if (dstDouble !== 8.0) {
        t.printf(`PE-${me} dst_double ${dstDouble.toFixed(6)} != 8.0?`);
        await s.globalExit(1);
      }
      const dstLong = await s.gInt64(srcLong, pe);
      if (dstLong !== 8n) {
        t.printf(`PE-${me} dst_long ${dstLong} != 8?`);
        await s.globalExit(1);
      }
    }
    await s.barrierAll();
    await s.free(srcShort);
    await s.free(srcInt);
    await s.free(srcFloat);
    await s.free(srcDouble);
    await s.free(srcLong);
  }
  await s.finalize();
  return 0;
}
