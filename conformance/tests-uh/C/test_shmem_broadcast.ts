// tests-uh feature_tests/C/test_shmem_broadcast.c: shmem_broadcast32 and shmem_broadcast64 from PE 0 over all PEs, then (more than 2 PEs) over the even PEs; the root's dest must stay untouched and PE npes-1 (PE 2) get the data.
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function testShmemBroadcast(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  // long pSync[_SHMEM_BCAST_SYNC_SIZE]; int success32_root, success64_root, success32, success64
  const [pSync, s32Root, s64Root, s32, s64] = await t.statics([8 * s.BCAST_SYNC_SIZE, 4, 4, 4, 4]);
  const v = (x: typeof s32): Int32Array => x!.int32();
  let failCount = 0;
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  const resetFlags = (): void => {
    v(s32)[0] = -9;
    v(s64)[0] = -9;
    v(s32Root)[0] = -9;
    v(s64Root)[0] = -9;
  };
  resetFlags();
  pSync!.int64().fill(s.SYNC_VALUE, 0, s.BCAST_SYNC_SIZE);
  const srcSym = await s.malloc(npes * 4);
  const targSym = await s.malloc(npes * 4);
  const sourceSym = await s.malloc(npes * 8);
  const destSym = await s.malloc(npes * 8);
  const src = srcSym.int32();
  const targ = targSym.int32();
  const source = sourceSym.int64();
  const dest = destSym.int64();
  for (let i = 0; i < npes; i += 1) {
    src[i] = i + 1;
    targ[i] = -999;
    source[i] = BigInt(i + 1);
    dest[i] = -999n;
  }
  await s.barrierAll();
  // the root's dest untouched (success = 0 unless some element was written), the checker's filled
  const check = (arr: Int32Array | BigInt64Array, flag: typeof s32, root: boolean): void => {
    for (let i = 0; i < npes; i++) {
      const x = Number(arr[i]);
      if (root ? x === -999 : x === i + 1) v(flag)[0] = 0;
    }
  };
  if (npes > 1) {
    // shmem_broadcast32
    await s.broadcast32(targSym, srcSym, npes, 0, 0, 0, npes, pSync!);
    if (me === 0) check(targ, s32, true);
    if (me === npes - 1) check(targ, s32, false);
    await s.barrierAll();
    if (me === 0) {
      await s.getInt32(v(s32Root), s32!, 1, npes - 1);
      if (v(s32)[0] === 0 && v(s32Root)[0] === 0) t.printf('Test shmem_broadcast32: Passed');
      else {
        t.printf('Test shmem_broadcast32: Failed');
        failCount++;
      }
    }
    await s.barrierAll();
    // shmem_broadcast64
    await s.broadcast64(destSym, sourceSym, npes, 0, 0, 0, npes, pSync!);
    if (me === 0) check(dest, s64, true);
    if (me === npes - 1) check(dest, s64, false);
    await s.barrierAll();
    if (me === 0) {
      await s.getInt32(v(s64Root), s64!, 1, npes - 1);
      if (v(s64)[0] === 0 && v(s64Root)[0] === 0) t.printf('Test shmem_broadcast64: Passed');
      else {
        t.printf('Test shmem_broadcast64: Failed');
        failCount++;
      }
    }
  } else t.printf('Number of PEs must be > 1 to test broadcast, test skipped');
  await s.barrierAll();
  resetFlags();
  if (npes > 2) {
    for (let i = 0; i < npes; i += 1) {
      targ[i] = -999;
      dest[i] = -999n;
    }
    await s.barrierAll();
    // the active set of all even PEs
    const evens = npes % 2 === 0 ? npes / 2 : (npes + 1) / 2;
    if (me % 2 === 0) await s.broadcast32(targSym, srcSym, npes, 0, 0, 1, evens, pSync!);
    if (me === 0) check(targ, s32, true);
    if (me === 2) check(targ, s32, false);
    await s.barrierAll();
    if (me === 0) {
      await s.getInt32(v(s32Root), s32!, 1, 2);
      if (v(s32)[0] === 0 && v(s32Root)[0] === 0) t.printf('Test strided shmem_broadcast32: Passed');
      else {
        t.printf('Test strided shmem_broadcast32: Failed');
        failCount++;
      }
    }
    await s.barrierAll();
    // strided shmem_broadcast64
    if (me % 2 === 0) await s.broadcast64(destSym, sourceSym, npes, 0, 0, 1, evens, pSync!);
    if (me === 0) check(dest, s64, true);
    if (me === 2) check(dest, s64, false);
    await s.barrierAll();
    if (me === 0) {
      await s.getInt32(v(s64Root), s64!, 1, 2);
      if (v(s64)[0] === 0 && v(s64Root)[0] === 0) t.printf('Test strided shmem_broadcast64: Passed');
      else {
        t.printf('Test strided shmem_broadcast64: Failed');
        failCount++;
      }
    }
    await s.free(targSym);
    await s.free(srcSym);
    await s.free(destSym);
    await s.free(sourceSym);
  } else if (me === 0) t.printf('Number of PEs must be > 2 to test strided broadcast, test skipped');
  if (me === 0) {
    if (failCount === 0) t.printf('All Tests Passed');
    else t.printf(`${failCount} Tests Failed`);
  }
  await s.finalize();
  return 0;
}
