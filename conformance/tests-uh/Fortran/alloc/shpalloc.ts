// tests-uh feature_tests/Fortran/alloc/test_shmem_shpalloc_01_<type>.f90, _02_<type>.f90 and
// _03_<type>.f90: shpalloc of 50 elements (64 characters), set on every PE and got by PE 0 from
// every other PE with shmem_<type>_get (01); shpalloc of 0 elements must give errcode -1 (02);
// shpalloc of 1,024,000,000 words (twice that for int8, real8, double and, as the test writes it,
// char), more than the symmetric heap holds, where PE 0 prints Passed unless errcode is -2: the
// conf expects Fail, the errcode -2 of a heap bounded by SHMEM_SYMMETRIC_SIZE (here
// `dmapp.symmetricSize`, 512 MiB) (03). One port for the 21 tests, told apart by the test's name.
import type { ShmemTest } from '../../../shmem/harness.ts';
import { carray, cget, cset, cview, eq, get, type CValue } from '../../../shmem/ctypes.ts';
import { FTYPES, parseName, shpalloc, shpdeallc, TRUE, FALSE } from '../../fortran.ts';

const MIN_NPES = 3;

export default async function fortranShpalloc(t: ShmemTest): Promise<number> {
  const { variant, type } = parseName(t.name);
  const F = FTYPES[type];
  const T = F.T;
  const s = t.shmem;
  const TEST_NAME = 'shpalloc';
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  if (variant === '03') {
    const nelems = 1024000000;
    const { ptr: array, errcode } = await shpalloc(t, ['int8', 'real8', 'double', 'char'].includes(type) ? nelems * 2 : nelems);
    if (me === 0) t.printf(` ${TEST_NAME}: ${errcode !== -2 ? 'Passed' : 'Failed'}`);
    await s.barrierAll();
    await shpdeallc(t, array);
    await s.finalize();
    return 0;
  }
  if (variant === '02') {
    // numElements = 0 (in the type's words)
    const { errcode } = await shpalloc(t, 0);
    if (me === 0) t.printf(` ${TEST_NAME}: ${errcode === -1 ? 'Passed' : 'Failed'}`);
    await s.barrierAll();
    await s.finalize();
    return 0;
  }
  let success = true;
  // the value each type stores and the one the buffer starts with
  const [value, initial]: [CValue, CValue] = type === 'char' ? ['#'.charCodeAt(0), 'z'.charCodeAt(0)] : type === 'logical' ? [TRUE, FALSE] : [54321, -9];
  const nelems = type === 'char' ? 64 : 50;
  if (npes >= MIN_NPES) {
    const { ptr: array, errcode } = await shpalloc(t, nelems * F.words);
    void errcode;
    const a = cview(T, array!);
    for (let i = 0; i < nelems; i++) cset(T, a, i, value);
    await s.barrierAll();
    if (me === 0) {
      const buffer = carray(T, nelems);
      for (let pe = 1; pe < npes; pe++) {
        for (let i = 0; i < nelems; i++) cset(T, buffer, i, initial);
        await get(s, T, buffer, array!, nelems, pe);
        for (let i = 0; i < nelems; i++) if (!eq(cget(T, buffer, i), value)) success = false;
      }
      t.printf(` ${TEST_NAME}: ${success ? 'Passed' : 'Failed'}`);
    }
    await s.barrierAll();
    await shpdeallc(t, array);
  } else if (me === 0) t.printf(` This test requires ${MIN_NPES} or more PEs.`);
  await s.finalize();
  return 0;
}
