// SOS test/unit/cswap.c (5 loops): PE 0 compare-swaps PE 1's int, long and long long (a swap, a swap back, and one whose condition fails), each checked with g; then every PE fetch-adds me+1 to PE 0's static totals and fetch-increments its counters, checked by PE 0.
import type { ShmemTest } from '../../shmem/harness.ts';

const loops = 5;

export default async function cswap(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  // static int itmp; static long ltmp; static long long lltmp (symmetric: the fetch-adds target PE 0's)
  const [itmpSym, ltmpSym, lltmpSym] = await t.statics([4, 8, 8]);
  const itmpV = itmpSym!.int32();
  const ltmpV = ltmpSym!.int64();
  const lltmpV = lltmpSym!.int64();
  s.init();
  const me = s.myPe();
  const numPes = s.nPes();
  if (numPes === 1) {
    t.printf('cswap: Requires number of PEs > 1');
    await s.finalize();
    return 0;
  }
  const fail = async (msg: string): Promise<never> => {
    t.printf(msg);
    return s.globalExit(1);
  };
  for (let l = 0; l < loops; ++l) {
    const srcInt = await s.malloc(4);
    srcInt.int32()[0] = 4;
    let dstInt: number;
    itmpV[0] = 0;
    const srcLong = await s.malloc(8);
    srcLong.int64()[0] = 8n;
    let dstLong: bigint;
    ltmpV[0] = 0n;
    const srcLlong = await s.malloc(8);
    srcLlong.int64()[0] = 16n;
    let dstLlong: bigint;
    lltmpV[0] = 0n;
    await s.barrierAll();
    if (me === 0) {
      // integer swap
      itmpV[0] = await s.gInt32(srcInt, 1);
      dstInt = Number(await s.atomicCompareSwap(srcInt, srcInt.int32()[0]!, 0, 1, 'int32'));
      if (dstInt !== 4) await fail(`PE-${me} dst_int ${dstInt} != 4?`);
      // verify remote data
      itmpV[0] = await s.gInt32(srcInt, 1);
      if (itmpV[0] !== 0) await fail(`PE-${me} rem ${itmpV[0]} != 0?`);
      dstInt = Number(await s.atomicCompareSwap(srcInt, 0, dstInt, 1, 'int32'));
      if (dstInt !== 0) await fail(`PE-${me} dst_int ${dstInt} != 0?`);
      // verify remote data
      itmpV[0] = await s.gInt32(srcInt, 1);
      if (itmpV[0] !== 4) await fail(`PE-${me} rem ${itmpV[0]} != 4?`);
      // cswap() should not swap as cond(0) != remote(4)
      dstInt = Number(await s.atomicCompareSwap(srcInt, 0, 0, 1, 'int32'));
      if (dstInt !== 4) await fail(`PE-${me} int no-swap returned dst_int ${dstInt} != 4?`);
      // verify the previous cswap() did not swap
      itmpV[0] = await s.gInt32(srcInt, 1);
      if (itmpV[0] !== 4) await fail(`PE-${me} failed cond int_cswap() swapped? rem(${itmpV[0]}) != 4?`);
      // long swap
      ltmpV[0] = await s.gInt64(srcLong, 1);
      dstLong = await s.atomicCompareSwap(srcLong, srcLong.int64()[0]!, 0, 1, 'int64');
      if (dstLong !== 8n) await fail(`PE-${me} dst_long ${dstLong} != 8?`);
      ltmpV[0] = await s.gInt64(srcLong, 1);
      if (ltmpV[0] !== 0n) await fail(`PE-${me} long rem(${ltmpV[0]}) != 0?`);
      dstLong = await s.atomicCompareSwap(srcLong, 0, dstLong, 1, 'int64');
      if (dstLong !== 0n) await fail(`PE-${me} dst_long ${dstLong} != 0?`);
      ltmpV[0] = await s.gInt64(srcLong, 1);
      if (ltmpV[0] !== 8n) await fail(`PE-${me} long rem(${ltmpV[0]}) != 8?`);
      // cswap() should not swap as cond(0) != remote(8)
      dstLong = await s.atomicCompareSwap(srcLong, 0, 0, 1, 'int64');
      if (dstLong !== 8n) await fail(`PE-${me} long no-swap returned dst_long ${dstLong} != 8?`);
      ltmpV[0] = await s.gInt64(srcLong, 1);
      if (ltmpV[0] !== 8n) await fail(`PE-${me} failed cond long_cswap() swapped? rem(${ltmpV[0]}) != 8?`);
      // long long swap
      lltmpV[0] = await s.gInt64(srcLlong, 1);
      dstLlong = await s.atomicCompareSwap(srcLlong, srcLlong.int64()[0]!, 0, 1, 'int64');
      if (dstLlong !== 16n) await fail(`PE-${me} dst_llong ${dstLlong} != 16?`);
      lltmpV[0] = await s.gInt64(srcLlong, 1);
      if (lltmpV[0] !== 0n) await fail(`PE-${me} longlong rem(${lltmpV[0]}) != 0?`);
      dstLlong = await s.atomicCompareSwap(srcLlong, 0, dstLlong, 1, 'int64');
      if (dstLlong !== 0n) await fail(`PE-${me} dst_llong ${dstLlong} != 0?`);
      lltmpV[0] = await s.gInt64(srcLlong, 1);
      if (lltmpV[0] !== 16n) await fail(`PE-${me} long long rem(${lltmpV[0]}) != 16?`);
      // cswap() should not swap as cond(0) != remote(16)
      dstLlong = await s.atomicCompareSwap(srcLlong, 0, 0, 1, 'int64');
      if (dstLlong !== 16n) await fail(`PE-${me} longlong no-swap returned dst_llong ${dstLlong} != 16?`);
      lltmpV[0] = await s.gInt64(srcLlong, 1);
      if (lltmpV[0] !== 16n) await fail(`PE-0 failed cond longlong_cswap() swapped? rem(${lltmpV[0]}) != 16?`);
    } else {
      if (!s.addrAccessible(srcInt, 0)) await fail(`PE-${me} local src_int not accessible from PE-0?`);
      if (!s.addrAccessible(srcLong, 0)) await fail(`PE-${me} local src_long not accessible from PE-0?`);
      if (!s.addrAccessible(srcLlong, 0)) await fail(`PE-${me} local src_llong not accessible from PE-0?`);
    }
    await s.barrierAll();
    // shmem_*fadd() exercise
    if (me === 0) {
      itmpV[0] = 0;
      ltmpV[0] = 0n;
      lltmpV[0] = 0n;
      srcInt.int32()[0] = 0;
      srcLong.int64()[0] = 0n;
      srcLlong.int64()[0] = 0n;
    }
    await s.barrierAll();
    await s.atomicFetchAdd(itmpSym!, me + 1, 0, 'int32');
    await s.atomicFetchAdd(ltmpSym!, me + 1, 0, 'int64');
    await s.atomicFetchAdd(lltmpSym!, me + 1, 0, 'int64');
    await s.barrierAll();
    if (me === 0) {
      let tot = 0;
      for (let pe = 0; pe < numPes; pe++) tot += pe + 1;
      if (itmpV[0] !== tot) t.printf(`fadd() total ${itmpV[0]} != expected ${tot}?`);
      if (ltmpV[0] !== BigInt(tot)) t.printf(`fadd() total ${ltmpV[0]} != expected ${tot}?`);
      if (lltmpV[0] !== BigInt(tot)) t.printf(`fadd() total ${lltmpV[0]} != expected ${tot}?`);
    }
    await s.barrierAll();
    await s.atomicFetchInc(srcInt, 0, 'int32');
    await s.atomicFetchInc(srcLong, 0, 'int64');
    await s.atomicFetchInc(srcLlong, 0, 'int64');
    await s.barrierAll();
    if (me === 0) {
      const tot = numPes;
      if (srcInt.int32()[0] !== tot) t.printf(`finc() total ${srcInt.int32()[0]} != expected ${tot}?`);
      if (srcLong.int64()[0] !== BigInt(tot)) t.printf(`finc() total ${srcLong.int64()[0]} != expected ${tot}?`);
      if (srcLlong.int64()[0] !== BigInt(tot)) t.printf(`finc() total ${srcLlong.int64()[0]} != expected ${tot}?`);
    }
    await s.barrierAll();
    await s.free(srcInt);
    await s.free(srcLong);
    await s.free(srcLlong);
  }
  await s.finalize();
  return 0;
}
