// tests-uh feature_tests/Fortran/atomic/test_shmem_{add,cswap,fadd,finc,inc,swap}_0{1,2,3}_{int4,int8}.f90:
// one atomic (shmem_int4_add, _cswap, _fadd, _finc, _inc, _swap and their int8 forms) between
// PE 0 and PE npes-1 (or PE 1, or the ring for swap) on a SAVE (_01), COMMON (_02) or
// shpalloc'd (_03) variable; the target checks the new value and puts a logical .TRUE. into
// PE 0's flag; PE 0 checks the value it fetched and prints Passed or Failed. One port for the
// 32 tests, told apart by the test's name (the variants that differ in more than storage:
// add_02, both PEs adding, and finc_03, PE 0 alone incrementing, are written out).
import type { ShmemTest } from '../../../shmem/harness.ts';
import type { Symmetric } from '../../../../runtime/shmem/shmem.ts';
import { atomic, cset, cview, eq } from '../../../shmem/ctypes.ts';
import { FTYPES, parseName, shpalloc, shpdeallc, TRUE } from '../../fortran.ts';

export default async function fortranAtomic(t: ShmemTest): Promise<number> {
  const { family, variant, type } = parseName(t.name);
  const op = family.replace('test_shmem_', '') as 'add' | 'cswap' | 'fadd' | 'finc' | 'inc' | 'swap';
  const { T } = FTYPES[type];
  const call = `shmem_${type}_${op}`;
  const s = t.shmem;
  // logical, save :: success1, success2; the dest of _01 (SAVE) and _02 (COMMON)
  const [success1S, success2S, destS] = await t.statics([4, 4, T.bytes]);
  const success1 = success1S!.int32();
  let success2Sym = success2S!;
  const trueVal = Int32Array.of(TRUE);
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  await s.barrierAll();
  if (npes > 1) {
    let dest: Symmetric = destS!;
    let shp: Symmetric | null = null;
    let shp2: Symmetric | null = null;
    if (variant === '03' && op === 'swap') {
      // swap_03 shpallocs dest, then success2, before setting the flags
      shp = (await shpalloc(t, FTYPES[type].words)).ptr;
      shp2 = (await shpalloc(t, 1)).ptr;
      success2Sym = shp2!;
    }
    success1[0] = 0;
    success2Sym.int32()[0] = 0;
    if (variant === '03' && op !== 'swap') shp = (await shpalloc(t, FTYPES[type].words)).ptr;
    if (shp) dest = shp;
    const d = cview(T, dest);
    const last = npes - 1;
    const putTrue = (flag: Symmetric): Promise<void> => s.putInt32(flag, trueVal, 1, 0);
    let swapped = 0n;
    let twoFlags = true;
    if (op === 'add') {
      // add_02 starts from 5678 and both PEs add: PE 0 then expects 51234 (the test's own bug: no correct SHMEM gives it)
      cset(T, d, 0, variant === '02' ? 5678 : 51234);
      await s.barrierAll();
      if (variant === '02') {
        if (me === last) await atomic.add(s, T, dest, 5678, 0);
        else if (me === 0) await atomic.add(s, T, dest, 5678, last);
      } else if (me === 0) await atomic.add(s, T, dest, 5678, last);
      await s.barrierAll();
      if (variant === '02' && me === 0 && eq(d[0]!, 51234)) success1[0] = TRUE;
      if (me === last && eq(d[0]!, 5678 + 51234)) await putTrue(variant === '02' ? success2Sym : success1S!);
      twoFlags = variant === '02';
    } else if (op === 'inc') {
      cset(T, d, 0, 51234);
      await s.barrierAll();
      if (me === 0) await atomic.inc(s, T, dest, last);
      await s.barrierAll();
      if (me === last && eq(d[0]!, 51234 + 1)) await putTrue(success1S!);
      twoFlags = false;
    } else if (op === 'fadd' || op === 'finc') {
      cset(T, d, 0, 51234);
      await s.barrierAll();
      const f = (pe: number): Promise<bigint> => (op === 'fadd' ? atomic.fetchAdd(s, T, dest, 5678, pe) : atomic.fetchInc(s, T, dest, pe)).then(BigInt);
      if (op === 'finc' && variant === '03') {
        if (me === 0) swapped = await f(last);
      } else if (me === last) swapped = await f(0);
      else if (me === 0) swapped = await f(last);
      await s.barrierAll();
      if (me === 0 && swapped === 51234n) success1[0] = TRUE;
      if (me === last && eq(d[0]!, op === 'fadd' ? 5678 + 51234 : 51234 + 1)) await putTrue(success2Sym);
    } else if (op === 'cswap') {
      cset(T, d, 0, me);
      await s.barrierAll();
      if (me === 0) swapped = BigInt(await atomic.compareSwap(s, T, dest, me + 1, me, me + 1));
      await s.barrierAll();
      if (me === 0 && swapped === 1n) success1[0] = TRUE;
      if (me === 1 && eq(d[0]!, 0)) await putTrue(success2Sym);
    } else {
      cset(T, d, 0, me);
      await s.barrierAll();
      swapped = BigInt(await atomic.swap(s, T, dest, me, (me + 1) % npes));
      await s.barrierAll();
      if (me === 0 && swapped === 1n) success1[0] = TRUE;
      if (me === 1 && eq(d[0]!, 0)) await putTrue(success2Sym);
    }
    await s.barrierAll();
    if (me === 0) {
      const ok = success1[0] === TRUE && (!twoFlags || success2Sym.int32()[0] === TRUE);
      t.printf(` Test ${variant} ${call}: ${ok ? 'Passed' : 'Failed'}`);
    }
    await s.barrierAll();
    await shpdeallc(t, shp);
    await shpdeallc(t, shp2);
  } else t.printf(' Number of PEs must be > 1 to test shmem atomics, test skipped');
  await s.finalize();
  return 0;
}
