// SOS test/unit/shmalloc.c (defaults: 32 longs, 50 loops, +1025 a loop) and shmem_calloc.c (the
// same with shmem_calloc, each element incremented from zero): a zero-size allocation must be
// NULL; then result (npes*nWords), target (nWords) and source (2*nWords) longs are allocated,
// filled with 1, 2 and 3, checked after a barrier, and freed. One port for the two, told apart
// by the test's name.
import type { ShmemTest } from '../../shmem/harness.ts';
import type { Symmetric } from '../../../runtime/shmem/shmem.ts';

const DFLT_NWORDS = 32;
const DFLT_INCR = 1025;
const DFLT_LOOPS = 50;

export default async function shmalloc(t: ShmemTest): Promise<number> {
  const calloc = t.name === 'shmem_calloc';
  const s = t.shmem;
  s.init();
  const nProcs = s.nPes();
  let nWords = DFLT_NWORDS;
  const loops = DFLT_LOOPS;
  const incWords = DFLT_INCR;
  // shmem_malloc(bytes), or shmem_calloc(bytes / sizeof(long), sizeof(long))
  const alloc = (bytes: number): Promise<Symmetric | null> => (calloc ? s.calloc(bytes / 8, 8) : s.malloc(bytes));
  // malloc's memory is filled, calloc's incremented (*dp++ += v) from its zeros: zeros become v
  const fill = (sym: Symmetric, v: bigint): void => {
    const a = sym.int64();
    if (!calloc || isZero(sym)) a.fill(v);
    else for (let i = 0; i < a.length; i++) a[i] = a[i]! + v;
  };
  const isZero = (sym: Symmetric): boolean => {
    const a = sym.int32();
    for (let i = 0; i < a.length; i++) if (a[i] !== 0) return false;
    return true;
  };
  // whether every long is v (compared as 32-bit halves: bigint loops are slow)
  const all = (sym: Symmetric, v: bigint): boolean => {
    const w = new Int32Array(BigInt64Array.of(v).buffer);
    const a = sym.int32();
    for (let i = 0; i < a.length; i += 2) if (a[i] !== w[0] || a[i + 1] !== w[1]) return false;
    return true;
  };
  for (let l = 0; l < loops; l++) {
    let result = await alloc(0);
    if (result !== null) {
      t.printf('Zero-length memory allocation has non-null result');
      await s.finalize();
      t.exit(1);
    }
    const resultSz = nProcs * (nWords * 8);
    result = await alloc(resultSz);
    if (!result) {
      t.printf('Failed result memory allocation');
      await s.finalize();
      t.exit(1);
    }
    fill(result, 1n);
    const targetSz = nWords * 8;
    const target = await alloc(targetSz);
    if (!target) {
      t.printf('Failed target memory allocation');
      await s.finalize();
      t.exit(1);
    }
    fill(target, 2n);
    const sourceSz = 2 * nWords * 8;
    const source = await alloc(sourceSz);
    if (!source) {
      t.printf('Failed source memory allocation');
      await s.finalize();
      t.exit(1);
    }
    fill(source, 3n);
    await s.barrierAll(); // sync sender and receiver
    if (!all(source, 3n)) t.printf('source not consistent @ 3?');
    await s.free(source);
    if (!all(target, 2n)) t.printf('target not consistent @ 2?');
    await s.free(target);
    if (!all(result, 1n)) t.printf('result not consistent @ 1?');
    await s.free(result);
    if (loops > 1) nWords += incWords;
  }
  await s.finalize();
  return 0;
}
