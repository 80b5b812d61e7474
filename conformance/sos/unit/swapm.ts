// SOS test/unit/swapm.c (10 loops): PE 0 swaps 0 into its element of every other PE's int, float, double, long and long long arrays, checks the old value and the remote one with g, and swaps the old value back; the others wait for the int, long and long long swaps.
import type { ShmemTest } from '../../shmem/harness.ts';
import type { Symmetric } from '../../../runtime/shmem/shmem.ts';

const loops = 10;

export default async function swapm(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  s.init();
  const me = s.myPe();
  const numProcs = s.nPes();
  if (numProcs < 2) {
    if (me === 0) t.printf('PE[0] requires 2 or more PEs?');
    await s.finalize();
    return 0;
  }
  const fail = async (msg: string): Promise<never> => {
    t.printf(msg);
    return s.globalExit(1);
  };
  for (let l = 0; l < loops; ++l) {
    const srcInt = await s.malloc(2 * numProcs * 4);
    const ints = srcInt.int32();
    ints.fill(4, 0, numProcs);
    ints.fill(0, numProcs, 2 * numProcs);
    const srcFloat = await s.malloc(2 * numProcs * 4);
    const floats = srcFloat.float32();
    floats.fill(4.0, 0, numProcs);
    floats.fill(0.0, numProcs, 2 * numProcs);
    const srcDouble = await s.malloc(2 * numProcs * 8);
    const doubles = srcDouble.float64();
    doubles.fill(8.0, 0, numProcs);
    doubles.fill(0.0, numProcs, 2 * numProcs);
    const srcLong = await s.malloc(2 * numProcs * 8);
    const longs = srcLong.int64();
    longs.fill(8n, 0, numProcs);
    longs.fill(0n, numProcs, 2 * numProcs);
    const srcLlong = await s.malloc(2 * numProcs * 8);
    const llongs = srcLlong.int64();
    llongs.fill(16n, 0, numProcs);
    llongs.fill(0n, numProcs, 2 * numProcs);
    await s.barrierAll();
    if (me !== 0) {
      // is each src accessible from PE 0? it should be
      const all: [string, Symmetric][] = [['src_int', srcInt], ['src_float', srcFloat], ['src_double', srcDouble], ['src_long', srcLong], ['src_llong', srcLlong]];
      for (const [name, sym] of all) if (!s.addrAccessible(sym, 0)) await fail(`PE-${me} local ${name} not accessible from PE-0?`);
    }
    await s.barrierAll();
    if (me === 0) {
      await s.quiet();
      const e32 = (sym: Symmetric, j: number) => sym.at(4 * j);
      const e64 = (sym: Symmetric, j: number) => sym.at(8 * j);
      for (let j = 1; j < numProcs; j++) {
        ints[numProcs + j] = Number(await s.atomicSwap(e32(srcInt, j), 0, j, 'int32'));
        if (ints[numProcs + j] !== 4) await fail(`PE-${me} dst_int[${j}] ${ints[numProcs + j]} != 4?`);
      }
      await s.barrierAll();
      // verify remote data
      for (let j = 1; j < numProcs; j++) {
        let itmp = await s.gInt32(e32(srcInt, j), j);
        if (itmp !== 0) await fail(`PE-0 int PE[${j}] rem(${itmp}) != 0?`);
        // swap back
        ints[numProcs + j] = Number(await s.atomicSwap(e32(srcInt, j), ints[numProcs + j]!, j, 'int32'));
        if (ints[numProcs + j] !== 0) await fail(`PE-0 dst_int[${j}] ${ints[numProcs + j]} != 0?`);
        itmp = await s.gInt32(e32(srcInt, j), j);
        if (itmp !== 4) await fail(`PE-0 PE[${j}] rem ${itmp} != 4?`);
      }
      for (let j = 1; j < numProcs; j++) {
        floats[numProcs + j] = await s.atomicSwap(e32(srcFloat, j), 0.0, j, 'float32');
        if (floats[numProcs + j] !== 4.0) await fail(`PE-0 dst_float[${j}] ${floats[numProcs + j]} != 4.0?`);
        // verify remote data
        let ftmp = await s.gFloat32(e32(srcFloat, j), j);
        if (ftmp !== 0.0) await fail(`PE-0 float rem(${ftmp}) != 0.0?`);
        // swap back
        floats[numProcs + j] = await s.atomicSwap(e32(srcFloat, j), floats[numProcs + j]!, j, 'float32');
        if (floats[numProcs + j] !== 0.0) await fail(`PE-0 dst_float[${j}] ${floats[numProcs + j]} != 0.0?`);
        ftmp = await s.gFloat32(e32(srcFloat, j), j);
        if (ftmp !== 4.0) await fail(`PE-${me} float rem(${ftmp}) != 4.0?`);
      }
      for (let j = 1; j < numProcs; j++) {
        doubles[numProcs + j] = await s.atomicSwap(e64(srcDouble, j), 0.0, j, 'float64');
        if (doubles[numProcs + j] !== 8.0) await fail(`PE-0 dst_double[${j}] ${doubles[numProcs + j]} != 8.0?`);
        // verify remote data
        let dtmp = await s.gFloat64(e64(srcDouble, j), j);
        if (dtmp !== 0.0) await fail(`PE-0 float rem(${dtmp}) != 0.0?`);
        doubles[numProcs + j] = await s.atomicSwap(e64(srcDouble, j), doubles[numProcs + j]!, j, 'float64');
        if (doubles[numProcs + j] !== 0.0) await fail(`PE-0 dst_double[${j}] ${doubles[numProcs + j]} != 0.0?`);
        dtmp = await s.gFloat64(e64(srcDouble, j), j);
        if (dtmp !== 8.0) await fail(`PE-0 double rem(${dtmp}) != 8.0?`);
      }
      for (let j = 1; j < numProcs; j++) {
        longs[numProcs + j] = await s.atomicSwap(e64(srcLong, j), 0n, j, 'int64');
        if (longs[numProcs + j] !== 8n) await fail(`PE-0 dst_long[${j}] ${longs[numProcs + j]} != 8?`);
      }
      await s.barrierAll();
      // verify remote data
      for (let j = 1; j < numProcs; j++) {
        let ltmp = await s.gInt64(e64(srcLong, j), j);
        if (ltmp !== 0n) await fail(`PE-0 PE[${j}]long rem(${ltmp}) != 0?`);
        // swap back
        longs[numProcs + j] = await s.atomicSwap(e64(srcLong, j), longs[numProcs + j]!, j, 'int64');
        if (longs[numProcs + j] !== 0n) await fail(`PE-${me} dst_long[${j}] ${longs[numProcs + j]} != 0?`);
        ltmp = await s.gInt64(e64(srcLong, j), j);
        if (ltmp !== 8n) await fail(`PE-${me} long rem(${ltmp}) != 8?`);
      }
      for (let j = 1; j < numProcs; j++) {
        llongs[numProcs + j] = await s.atomicSwap(e64(srcLlong, j), 0n, j, 'int64');
        if (llongs[numProcs + j] !== 16n) await fail(`PE-${me} dst_llong[${j}] ${llongs[numProcs + j]} != 16?`);
      }
      await s.barrierAll();
      // verify remote data
      for (let j = 1; j < numProcs; j++) {
        let lltmp = await s.gInt64(e64(srcLlong, j), j);
        if (lltmp !== 0n) await fail(`PE-${me} long long rem(${lltmp}) != 0?`);
        // swap back
        llongs[numProcs + j] = await s.atomicSwap(e64(srcLlong, j), llongs[numProcs + j]!, j, 'int64');
        if (llongs[numProcs + j] !== 0n) await fail(`PE-${me}  dst_llong[${j}] ${llongs[numProcs + j]} != 0?`);
        lltmp = await s.gInt64(e64(srcLlong, j), j);
        if (lltmp !== 16n) await fail(`PE-${me} longlong rem(${lltmp}) != 16?`);
      }
    } else {
      await s.waitUntil(srcInt.at(4 * me), 'eq', 0, 'int32');
      await s.barrierAll();
      await s.waitUntil(srcLong.at(8 * me), 'eq', 0, 'int64');
      await s.barrierAll();
      await s.waitUntil(srcLlong.at(8 * me), 'eq', 0, 'int64');
      await s.barrierAll();
    }
    await s.barrierAll();
    await s.free(srcInt);
    await s.free(srcFloat);
    await s.free(srcDouble);
    await s.free(srcLong);
    await s.free(srcLlong);
  }
  await s.finalize();
  return 0;
}
