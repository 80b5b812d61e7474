// tests-uh feature_tests/C/test_shmem_atomics.c: swaps (int, float, long, double, long long) with the right neighbour, compare-swaps (int, long, long long) and fetch-adds and fetch-increments of PE 0's values, each checked by the PE that started it and by its target (the 1.0 names: shmem_int_swap, shmem_int_cswap, shmem_int_fadd, shmem_int_finc, ...).
import type { ShmemTest } from '../../shmem/harness.ts';
import type { Symmetric } from '../../../runtime/shmem/shmem.ts';

export default async function testShmemAtomics(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  // int success1_p2 .. success5_p2 (globals)
  const p2 = await t.statics([4, 4, 4, 4, 4]);
  const successP2 = (k: number): number => p2[k]!.int32()[0]!;
  const success = Int32Array.of(1);
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  await s.barrierAll();
  // at least 2 PEs
  if (npes > 1) {
    const dest1 = await s.malloc(4);
    const dest2 = await s.malloc(4);
    const dest3 = await s.malloc(8);
    const dest4 = await s.malloc(8);
    const dest5 = await s.malloc(8);
    const failCountSym = await s.malloc(4);
    const failCount = failCountSym.int32();
    failCount[0] = 0;
    const setAll = (v: number): void => {
      dest1.int32()[0] = v;
      dest2.float32()[0] = v;
      dest3.int64()[0] = BigInt(v);
      dest4.float64()[0] = v;
      dest5.int64()[0] = BigInt(v);
    };
    const d = [(): number => dest1.int32()[0]!, (): number => dest2.float32()[0]!, (): number => Number(dest3.int64()[0]), (): number => dest4.float64()[0]!, (): number => Number(dest5.int64()[0])];
    const p1 = [-1, -1, -1, -1, -1];
    const resetP2 = (): void => p2.forEach((v) => (v.int32()[0] = -1));
    const put = (k: number, pe: number): Promise<void> => s.putInt32(p2[k]!, success, 1, pe);
    const report = (k: number, name: string): void => {
      // C's &&: -1 is true, as the test's initial values are
      if (p1[k] && successP2(k)) t.printf(`Test ${name}: Passed`);
      else {
        t.printf(`Test ${name}: Failed`);
        failCount[0]!++;
      }
    };
    setAll(me);
    const newVal = me;
    p1.fill(-1);
    resetP2();
    await s.barrierAll();
    const next = (me + 1) % npes;
    const sw = [
      Number(await s.atomicSwap(dest1, newVal, next, 'int32')),
      await s.atomicSwap(dest2, newVal, next, 'float32'),
      Number(await s.atomicSwap(dest3, BigInt(newVal), next, 'int64')),
      await s.atomicSwap(dest4, newVal, next, 'float64'),
      Number(await s.atomicSwap(dest5, BigInt(newVal), next, 'int64')),
    ];
    // the value the initiating PE got back, and the value now at the target
    if (me === 0) for (let k = 0; k < 5; k++) if (sw[k] === 1) p1[k] = 1;
    if (me === 1) for (let k = 0; k < 5; k++) if (d[k]!() === 0) await put(k, 0);
    await s.barrierAll();
    if (me === 0) ['shmem_int_swap', 'shmem_float_swap', 'shmem_long_swap', 'shmem_double_swap', 'shmem_longlong_swap'].forEach((n, k) => report(k, n));
    await s.barrierAll();
    // conditional swaps: shmem_int_cswap, shmem_long_cswap, shmem_longlong_cswap
    const three = [0, 2, 4];
    dest1.int32()[0] = me;
    dest3.int64()[0] = BigInt(me);
    dest5.int64()[0] = BigInt(me);
    // new_val = me (the same value as before)
    for (const k of three) p1[k] = -1;
    for (const k of three) p2[k]!.int32()[0] = -1;
    await s.barrierAll();
    const cs: number[] = [];
    cs[0] = Number(await s.atomicCompareSwap(dest1, me + 1, me, 1, 'int32'));
    cs[2] = Number(await s.atomicCompareSwap(dest3, me + 1, me, 1, 'int64'));
    cs[4] = Number(await s.atomicCompareSwap(dest5, me + 1, me, 1, 'int64'));
    if (me === 0) for (const k of three) if (cs[k] === 1) p1[k] = 1;
    if (me === 1) for (const k of three) if (d[k]!() === 0) await put(k, 0);
    await s.barrierAll();
    if (me === 0) for (const [k, n] of [[0, 'shmem_int_cswap'], [2, 'shmem_long_cswap'], [4, 'shmem_longlong_cswap']] as const) report(k, n);
    await s.barrierAll();
    // fetch-and-add and fetch-and-increment of PE 0's values
    for (const fetchOp of ['fadd', 'finc'] as const) {
      dest1.int32()[0] = me;
      dest3.int64()[0] = BigInt(me);
      dest5.int64()[0] = BigInt(me);
      // new_val = me
      for (const k of three) p1[k] = -1;
      for (const k of three) p2[k]!.int32()[0] = -1;
      await s.barrierAll();
      const fa: number[] = [];
      const targets: [number, Symmetric, 'int32' | 'int64'][] = [
        [0, dest1, 'int32'],
        [2, dest3, 'int64'],
        [4, dest5, 'int64'],
      ];
      for (const [k, dst, type] of targets) fa[k] = Number(fetchOp === 'fadd' ? await s.atomicFetchAdd(dst, 1, 0, type) : await s.atomicFetchInc(dst, 0, type));
      // the old value at the initiating PE, and the new value at PE 0
      if (me !== 0) for (const k of three) if (fa[k] === 0) p1[k] = 1;
      if (me === 0) for (const k of three) if (d[k]!() === npes - 1) await put(k, npes - 1);
      await s.barrierAll();
      if (me === npes - 1) for (const [k, c] of [[0, 'int'], [2, 'long'], [4, 'longlong']] as const) report(k, `shmem_${c}_${fetchOp}`);
      if (fetchOp === 'fadd') await s.barrierAll();
    }
    await s.barrierAll();
    if (me === 0) {
      const failCountRemote = await s.gInt32(failCountSym, npes - 1);
      failCount[0]! += failCountRemote;
      if (failCount[0] === 0) t.printf('All Tests Passed');
      else t.printf(`${failCount[0]} Tests Failed`);
    }
    await s.barrierAll();
    await s.free(dest1);
    await s.free(dest2);
    await s.free(dest3);
    await s.free(dest4);
    await s.free(dest5);
    await s.free(failCountSym);
  } else t.printf('Number of PEs must be > 1 to test shmem atomics, test skipped');
  await s.finalize();
  return 0;
}
