// tests-uh feature_tests/C/test_shmem_collects.c: shmem_fcollect32/64 of 4 elements from every PE, and shmem_collect32/64 of me%4+1 elements, over all PEs, checked by PE 0.
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function testShmemCollects(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  // static long pSync[_SHMEM_COLLECT_SYNC_SIZE]; static int src1[4], src3[4]; static long src2[4], src4[4]
  const [pSync, src1S, src2S, src3S, src4S] = await t.statics([8 * s.COLLECT_SYNC_SIZE, 16, 32, 16, 32], ([, a, b, c, d]) => {
    a!.int32().set([11, 12, 13, 14]);
    b!.int64().set([101n, 102n, 103n, 104n]);
    c!.int32().set([1, 2, 3, 4]);
    d!.int64().set([11n, 12n, 13n, 14n]);
  });
  const src1 = src1S!.int32();
  const src2 = src2S!.int64();
  const src3 = src3S!.int32();
  const src4 = src4S!.int64();
  let failCount = 0;
  s.init();
  const npes = s.nPes();
  const me = s.myPe();
  // the test initialises _SHMEM_BCAST_SYNC_SIZE elements of its collect pSync
  pSync!.int64().fill(s.SYNC_VALUE, 0, s.BCAST_SYNC_SIZE);
  if (npes > 1) {
    const dst1S = await s.malloc(npes * 4 * 4);
    const dst2S = await s.malloc(npes * 4 * 8);
    const dst3S = await s.malloc(npes * 4 * 4);
    const dst4S = await s.malloc(npes * 4 * 8);
    const [dst1, dst2, dst3, dst4] = [dst1S.int32(), dst2S.int64(), dst3S.int32(), dst4S.int64()];
    const compareDst1 = new Int32Array(npes * 4);
    const compareDst2 = new BigInt64Array(npes * 4);
    const compareDst3 = new Int32Array(npes * 4);
    const compareDst4 = new BigInt64Array(npes * 4);
    const verdict = (success: number, name: string): void => {
      if (success === 1) {
        t.printf(`Test ${name}: Failed`);
        failCount++;
      } else t.printf(`Test ${name}: Passed`);
    };
    // shmem_fcollect32: its output in compare_dst1
    let success = 0;
    let k = 0;
    for (let i = 0; i < npes; i++) for (let j = 0; j < 4; j++) compareDst1[k++] = src1[j]!;
    dst1.fill(-1, 0, npes * 4);
    await s.barrierAll();
    await s.fcollect32(dst1S, src1S!, 4, 0, 0, npes, pSync!);
    if (me === 0) {
      for (let i = 0; i < npes * 4; i += 1) if (dst1[i] !== compareDst1[i]) success = 1;
      verdict(success, 'shmem_fcollect32');
    }
    await s.barrierAll();
    // shmem_fcollect64
    success = 0;
    k = 0;
    for (let i = 0; i < npes; i++) for (let j = 0; j < 4; j++) compareDst2[k++] = src2[j]!;
    dst2.fill(-1n, 0, npes * 4);
    await s.barrierAll();
    await s.fcollect64(dst2S, src2S!, 4, 0, 0, npes, pSync!);
    if (me === 0) {
      for (let i = 0; i < npes * 4; i += 1) if (dst2[i] !== compareDst2[i]) success = 1;
      verdict(success, 'shmem_fcollect64');
    }
    // shmem_collect32: the length of the destination array
    success = 0;
    const x = Math.trunc(npes / 4);
    const y = npes % 4;
    let dstLen = y === 1 ? x * 10 + 1 : y === 2 ? x * 10 + 3 : y === 3 ? x * 10 + 6 : x * 10;
    k = 0;
    for (let i = 0; i < npes; i++) for (let j = 0; j < (i % 4) + 1; j++) compareDst3[k++] = i * 10 + src3[j]!;
    dst3.fill(-1, 0, dstLen);
    for (let i = 0; i < 4; i++) src3[i] = me * 10 + src3[i]!;
    await s.barrierAll();
    await s.collect32(dst3S, src3S!, (me % 4) + 1, 0, 0, npes, pSync!);
    await s.barrierAll();
    if (me === 0) {
      for (let i = 0; i < dstLen; i += 1) if (dst3[i] !== compareDst3[i]) success = 1;
      verdict(success, 'shmem_collect32');
    }
    await s.barrierAll();
    // shmem_collect64
    success = 0;
    dstLen = y === 1 ? x * 10 + 1 : y === 2 ? x * 10 + 3 : y === 3 ? x * 10 + 6 : x * 10;
    k = 0;
    for (let i = 0; i < npes; i++) for (let j = 0; j < (i % 4) + 1; j++) compareDst4[k++] = src4[j]!;
    dst4.fill(-1n, 0, dstLen);
    await s.barrierAll();
    await s.collect64(dst4S, src4S!, (me % 4) + 1, 0, 0, npes, pSync!);
    await s.barrierAll();
    if (me === 0) {
      for (let i = 0; i < dstLen; i += 1) if (dst4[i] !== compareDst4[i]) success = 1;
      verdict(success, 'shmem_collect64');
    }
    if (me === 0) {
      if (failCount === 0) t.printf('All Tests Passed');
      else t.printf(`${failCount} Tests Failed`);
    }
    await s.free(dst4S);
    await s.free(dst3S);
    await s.free(dst2S);
    await s.free(dst1S);
  } else t.printf('Number of PEs must be > 1 to test collects, test skipped');
  await s.finalize();
  return 0;
}
