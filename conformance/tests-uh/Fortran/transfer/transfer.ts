// tests-uh feature_tests/Fortran/transfer/test_shmem_{get,put,iget,iput}_0{1,2,3}_<type>.f90: every
// PE gets 7 elements from (puts 7 to) its right neighbour; for iget, PE 0 gets every second of
// PE npes-1's 10 elements; for iput, every PE puts every second of its 10 to its right
// neighbour; the remote array is SAVE (_01), COMMON (_02) or shpalloc'd (_03). PE 0 checks. One
// port for the 54 tests, told apart by the test's name.
import type { ShmemTest } from '../../../shmem/harness.ts';
import type { Symmetric } from '../../../../runtime/shmem/shmem.ts';
import { carray, cget, cset, cview, eq, type CArray, type CValue } from '../../../shmem/ctypes.ts';
import { FTYPES, parseName, shpalloc, shpdeallc, TRUE, FALSE, type FType } from '../../fortran.ts';

/** Each type's name in the tests' messages, and its typed call (a sized one for int4 and real4, shmem_get4). */
const NAMES: Readonly<Record<FType, string>> = { int4: 'integer', int8: 'integer8', real4: 'real', real8: 'real8', double: 'double', char: 'char', logical: 'logical' };

export default async function fortranTransfer(t: ShmemTest): Promise<number> {
  const { family, variant, type } = parseName(t.name);
  const op = family.replace('test_shmem_', '') as 'get' | 'put' | 'iget' | 'iput';
  const F = FTYPES[type];
  const T = F.T;
  const s = t.shmem;
  const strided = op === 'iget' || op === 'iput';
  const N = strided ? 10 : 7;
  const remoteIsSrc = op === 'get' || op === 'iget';
  const value = (i: number): CValue => (type === 'char' ? 40 + i : type === 'logical' ? TRUE : type === 'double' ? Math.fround(54321.67) + i : 54321 + i);
  const initial: CValue = type === 'char' ? 'z'.charCodeAt(0) : type === 'logical' ? FALSE : -9;
  // the remote array: SAVE or COMMON (here), shpalloc'd (below)
  const [remoteS] = variant === '03' ? [] : await t.statics([N * T.bytes]);
  let success = true;
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  if (npes > 1) {
    let remote: Symmetric = remoteS!;
    let shp: Symmetric | null = null;
    if (variant === '03') remote = shp = (await shpalloc(t, N * F.words)).ptr!;
    const local: CArray = carray(T, N);
    const src = remoteIsSrc ? cview(T, remote) : local;
    const dest = remoteIsSrc ? local : cview(T, remote);
    for (let i = 0; i < N; i++) cset(T, dest, i, initial);
    for (let i = 1; i <= N; i++) cset(T, src, i - 1, value(i));
    const nextpe = (me + 1) % npes;
    await s.barrierAll();
    // shmem_get4/put4 (int4, real4), the typed calls otherwise: the same bytes
    const typed = (name: string): ((...a: unknown[]) => Promise<void>) => {
      const f = (s as unknown as Record<string, (...a: unknown[]) => Promise<void>>)[name];
      return f!.bind(s);
    };
    const kind = T.kind as string;
    if (op === 'get') await typed(T.bytes === 4 && type !== 'logical' ? 'get32' : `get${kind}`)(local, remote, N, nextpe);
    else if (op === 'put') await typed(T.bytes === 4 && type !== 'logical' ? 'put32' : `put${kind}`)(remote, local, N, nextpe);
    else if (op === 'iget') {
      if (me === 0) await typed(type === 'int4' || type === 'real4' ? 'iget32' : `iget${kind}`)(local, remote, 1, 2, N / 2, npes - 1);
    } else await typed(type === 'int4' || type === 'real4' ? 'iput32' : `iput${kind}`)(remote, local, 1, 2, N / 2, nextpe);
    await s.barrierAll();
    if (me === 0) {
      if (strided) {
        for (let i = 0; i < N / 2; i++) if (!eq(cget(T, dest, i), cget(T, src, 2 * i))) success = false;
      } else for (let i = 1; i <= N; i++) if (!eq(cget(T, dest, i - 1), value(i))) success = false;
      t.printf(` Test shmem_${NAMES[type]}_${op}: ${success ? 'Passed' : 'Failed'}`);
    }
    await s.barrierAll();
    await shpdeallc(t, shp);
  } else t.printf(' Number of PEs must be > 1 to test shmem get, test skipped');
  await s.finalize();
  return 0;
}
