// SOS test/unit/cxx_test_shmem_complex.cpp: shmem_complexf_sum_reduce, _prod_reduce and the
// complexd pair over TEAM_WORLD of 10 zeroed elements of the global src into the global dest;
// after a barrier PE 0 gets every other PE's dest into its own src (shmem_getmem) and counts the
// PEs whose bytes differ from its dest (memcmp). Each check first shmem_mallocs a work array it
// never uses, as the test does (max(sizeof src, SHMEM_REDUCE_MIN_WRKDATA_SIZE elements)).
import type { ShmemTest } from '../../shmem/harness.ts';

const N = 10;
const CHECKS = [
  ['float', 'f', 'sum'],
  ['float', 'f', 'prod'],
  ['double', 'd', 'sum'],
  ['double', 'd', 'prod'],
] as const;

export default async function cxxTestShmemComplex(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  // TYPE _Complex TYPE##_dest[10], TYPE##_src[10] for float and double; long syncArr[SHMEM_REDUCE_SYNC_SIZE]
  const [floatDest, floatSrc, doubleDest, doubleSrc] = await t.statics([8 * N, 8 * N, 16 * N, 16 * N, 8 * s.REDUCE_SYNC_SIZE]);
  s.init();
  let rc = 0;
  for (const [type, letter, op] of CHECKS) {
    const size = type === 'float' ? 8 : 16;
    const [dest, src] = type === 'float' ? [floatDest!, floatSrc!] : [doubleDest!, doubleSrc!];
    // TYPE##_workData = TYPE##_alloc_data()
    await s.malloc(Math.max(N * size, s.REDUCE_MIN_WRKDATA_SIZE * size));
    src.local.fill(0, 0, N * size);
    await (op === 'sum' ? s.sumReduce : s.prodReduce).call(s, s.TEAM_WORLD, dest, src, N, `complex${letter}`);
    await s.barrierAll();
    if (s.myPe() === 0) {
      for (let i = 1; i < s.nPes(); ++i) {
        await s.getmem(src.local.subarray(0, N * size), dest, N * size, i);
        const a = src.local.subarray(0, N * size);
        const b = dest.local.subarray(0, N * size);
        if (a.some((x, j) => x !== b[j])) ++rc;
      }
    }
    await s.barrierAll();
  }
  await s.finalize();
  return rc;
}
