// tests-uh feature_tests/Fortran/collect/test_shmem_{collect,fcollect}_0{1..4}_{int4,int8}.f90: a
// shmem_collect32/64 of 10/npes elements (one more on even PEs) or shmem_fcollect32/64 of
// 10/npes elements, over all PEs, of SAVE (_01), COMMON (_02) or shpalloc'd (_03/_04) arrays;
// every PE but 0 checks the result and increments PE 0's flag on a mismatch. In _04 PE 0 skips
// the call (tests-uh expects a hang). One port for the 16 tests, told apart by the test's name;
// the tests' pSync is declared `integer` (4 bytes): a pSync is of longs, as here.
import type { ShmemTest } from '../../../shmem/harness.ts';
import type { Symmetric } from '../../../../runtime/shmem/shmem.ts';
import { cget, cset, cview, eq } from '../../../shmem/ctypes.ts';
import { FTYPES, parseName, shpalloc, shpdeallc } from '../../fortran.ts';

const MIN_NPES = 2;
const NELEMS = 10;
const DEST_NELEMS = NELEMS * MIN_NPES;

export default async function fortranCollect(t: ShmemTest): Promise<number> {
  const { family, variant, type } = parseName(t.name);
  const fixed = family === 'test_shmem_fcollect';
  const F = FTYPES[type];
  const T = F.T;
  const bits = T.bytes * 8;
  const s = t.shmem;
  // pSync(SHMEM_COLLECT_SYNC_SIZE), flag (integer, save), src and dest SAVE or COMMON
  const [pSync, flagS, srcS, destS] = await t.statics([8 * s.COLLECT_SYNC_SIZE, 4, NELEMS * T.bytes, DEST_NELEMS * T.bytes]);
  const flag = flagS!.int32();
  s.init();
  const npes = s.nPes();
  const me = s.myPe();
  pSync!.int64().fill(s.SYNC_VALUE, 0, s.COLLECT_SYNC_SIZE);
  if (npes >= MIN_NPES) {
    let success = true;
    flag[0] = 0;
    let dest: Symmetric = destS!;
    let src: Symmetric = srcS!;
    if (variant === '03' || variant === '04') {
      dest = (await shpalloc(t, DEST_NELEMS * F.words)).ptr!;
      src = (await shpalloc(t, NELEMS * F.words)).ptr!;
    }
    const d = cview(T, dest);
    let collectNelems = Math.trunc(NELEMS / npes);
    const destExpected = new Array<number>(DEST_NELEMS).fill(-9);
    for (let i = 0; i < DEST_NELEMS; i++) cset(T, d, i, -9);
    for (let i = 1; i <= NELEMS; i++) cset(T, cview(T, src), i - 1, i * 100 + me);
    let k = 0;
    for (let pe = 0; pe < npes; pe++) {
      // collect: the even PEs give one more
      const tmp = !fixed && variant !== '04' && pe % 2 === 0 ? collectNelems + 1 : collectNelems;
      for (let i = 1; i <= tmp; i++) destExpected[k++] = i * 100 + pe;
    }
    if (!fixed && variant !== '04' && me % 2 === 0) collectNelems = collectNelems + 1;
    await s.barrierAll();
    if (variant !== '04' || me !== 0) {
      const call = `${fixed ? 'fcollect' : 'collect'}${bits}` as 'collect32';
      await s[call](dest, src, collectNelems, 0, 0, npes, pSync!);
    }
    for (let i = 0; i < collectNelems * npes; i++) if (!eq(cget(T, d, i), destExpected[i]!) && me !== 0) await s.atomicInc(flagS!, 0, 'int32');
    await s.barrierAll();
    if (me === 0) {
      if (flag[0] !== 0) success = false;
      t.printf(` Test shmem_${fixed ? 'fcollect' : 'collect'}${bits}: ${success ? 'Passed' : 'Failed'}`);
    }
    await s.barrierAll();
    if (variant === '03' || variant === '04') {
      await shpdeallc(t, dest);
      await shpdeallc(t, src);
    }
  } else t.printf(` This test requires ${MIN_NPES} or more PEs.`);
  await s.finalize();
  return 0;
}
