// tests-uh feature_tests/Fortran/broadcast/test_shmem_broadcast_0{1..5}_<type>.f90: PE 0 broadcasts
// 10 elements (16 characters, as 4 32-bit words) of its src to every PE with shmem_broadcast4 or
// shmem_broadcast8 over all PEs, from SAVE (_01), COMMON (_02) or shpalloc'd (_03) arrays; PE 1
// checks. _04 broadcasts 0 elements (tests-uh expects it to fail: PE 1 finds nothing); in _05 PE
// 0 skips the broadcast (tests-uh expects a hang). One port for the 35 tests, told apart by the
// test's name.
import type { ShmemTest } from '../../../shmem/harness.ts';
import type { Symmetric } from '../../../../runtime/shmem/shmem.ts';
import { cget, cset, cview, eq, type CValue } from '../../../shmem/ctypes.ts';
import { FTYPES, parseName, shpalloc, shpdeallc, TRUE, FALSE } from '../../fortran.ts';

const MIN_NPES = 3;

export default async function fortranBroadcast(t: ShmemTest): Promise<number> {
  const { variant, type } = parseName(t.name);
  const F = FTYPES[type];
  const T = F.T;
  const s = t.shmem;
  const nelems = type === 'char' ? 16 : 10;
  // broadcast4 for 4-byte elements and characters (in 4-byte words), broadcast8 for 8-byte ones
  const bits = T.bytes === 8 ? 64 : 32;
  const count = type === 'char' ? nelems / 4 : nelems;
  const value = (i: number): CValue => (type === 'char' ? 40 + i : type === 'logical' ? TRUE : type === 'double' ? Math.fround(54321.67) + i : 54321 + i);
  const initial: CValue = type === 'char' ? 'z'.charCodeAt(0) : type === 'logical' ? FALSE : -9;
  // integer*8, save :: pSync(SHMEM_BCAST_SYNC_SIZE); dest and src SAVE or COMMON
  const [pSync, destS, srcS] = await t.statics([8 * s.BCAST_SYNC_SIZE, nelems * T.bytes, nelems * T.bytes]);
  let success = true;
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  if (npes >= MIN_NPES) {
    pSync!.int64().fill(s.SYNC_VALUE, 0, s.BCAST_SYNC_SIZE);
    let dest: Symmetric = destS!;
    let src: Symmetric = srcS!;
    if (variant === '03') {
      dest = (await shpalloc(t, nelems * F.words)).ptr!;
      src = (await shpalloc(t, nelems * F.words)).ptr!;
    }
    const d = cview(T, dest);
    for (let i = 1; i <= nelems; i++) cset(T, cview(T, src), i - 1, value(i));
    if (variant === '03' && type !== 'char' && type !== 'logical') cset(T, d, 0, initial);
    else for (let i = 0; i < nelems; i++) cset(T, d, i, initial);
    await s.barrierAll();
    const n = variant === '04' ? 0 : count;
    if (variant !== '05' || me !== 0) {
      if (bits === 32) await s.broadcast32(dest, src, n, 0, 0, 0, npes, pSync!);
      else await s.broadcast64(dest, src, n, 0, 0, 0, npes, pSync!);
    }
    await s.barrierAll();
    if (me === 1) {
      for (let i = 1; i <= nelems; i++) if (!eq(cget(T, d, i - 1), value(i))) success = false;
      const name = variant === '01' || variant === '04' || variant === '05' ? `test_shmem_broadcast${bits}_${variant}` : `test_shmem_broadcast${bits / 8}_${variant}`;
      t.printf(` ${name}: ${success ? 'Passed' : 'Failed'}`);
    }
    if (variant === '03') {
      await s.barrierAll();
      await shpdeallc(t, dest);
      await shpdeallc(t, src);
    }
  } else if (me === 0) t.printf(` This test requires ${MIN_NPES} or more PEs.`);
  await s.finalize();
  return 0;
}
