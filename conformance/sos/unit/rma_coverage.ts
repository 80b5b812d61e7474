// SOS test/unit/rma_coverage.c (and rma_coverage_pshmem, the same through the profiling
// interface's pshmem_ names, which phit's calls are too): for float, double, long double, char,
// short, int, long and long long, rand() values put to the next PE with put, p, two iputs and
// put_nbi, read back with get, g, two igets and get_nbi, and compared.
import type { ShmemTest } from '../../shmem/harness.ts';
import { carray, cast, cat, cget, cset, ctype, eq, g, get, getNbi, iget, iput, p, put, putNbi, type CTypeName } from '../../shmem/ctypes.ts';

const CHUNK_SIZE = 10;
const ARR_SIZE = 4 * CHUNK_SIZE;

const TYPES: readonly [string, CTypeName][] = [
  ['float', 'float'],
  ['double', 'double'],
  ['longdouble', 'long double'],
  ['char', 'char'],
  ['short', 'short'],
  ['int', 'int'],
  ['long', 'long'],
  ['longlong', 'long long'],
];

export default async function rmaCoverage(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const verbose = t.has('-v');
  const shared = await t.statics(TYPES.map(([, c]) => ctype(c).bytes * ARR_SIZE));
  let errors = 0;
  s.init();
  const n = s.nPes();
  const me = s.myPe();
  t.srand(1 + me);
  const nextpe = (me + 1) % n;
  for (const [k, [typename, c]] of TYPES.entries()) {
    const T = ctype(c);
    const sh = shared[k]!;
    const myvals = carray(T, ARR_SIZE);
    const result = carray(T, ARR_SIZE);
    for (let i = 0; i < ARR_SIZE; ++i) cset(T, myvals, i, cast(T, t.rand()));
    const sub = (a: typeof myvals, i: number): typeof myvals => a.subarray(T.kind === 'LongDouble' ? 2 * i : i) as typeof myvals;
    await put(s, T, sh, myvals, CHUNK_SIZE, nextpe);
    for (let i = 0; i < CHUNK_SIZE; ++i) await p(s, T, cat(T, sh, CHUNK_SIZE + i), cget(T, myvals, CHUNK_SIZE + i), nextpe);
    await iput(s, T, cat(T, sh, 2 * CHUNK_SIZE), sub(myvals, 2 * CHUNK_SIZE), 1, 2, CHUNK_SIZE / 2, nextpe);
    await iput(s, T, cat(T, sh, 2 * CHUNK_SIZE + CHUNK_SIZE / 2), sub(myvals, 2 * CHUNK_SIZE + 1), 1, 2, CHUNK_SIZE / 2, nextpe);
    await putNbi(s, T, cat(T, sh, 3 * CHUNK_SIZE), sub(myvals, 3 * CHUNK_SIZE), CHUNK_SIZE, nextpe);
    await s.quiet();
    await s.barrierAll();
    await get(s, T, result, sh, CHUNK_SIZE, nextpe);
    for (let i = 0; i < CHUNK_SIZE; ++i) cset(T, result, CHUNK_SIZE + i, await g(s, T, cat(T, sh, CHUNK_SIZE + i), nextpe));
    await iget(s, T, sub(result, 2 * CHUNK_SIZE), cat(T, sh, 2 * CHUNK_SIZE), 2, 1, CHUNK_SIZE / 2, nextpe);
    await iget(s, T, sub(result, 2 * CHUNK_SIZE + 1), cat(T, sh, 2 * CHUNK_SIZE + CHUNK_SIZE / 2), 2, 1, CHUNK_SIZE / 2, nextpe);
    await getNbi(s, T, sub(result, 3 * CHUNK_SIZE), cat(T, sh, 3 * CHUNK_SIZE), CHUNK_SIZE, nextpe);
    await s.quiet();
    await s.barrierAll();
    let ret = 0;
    for (let i = 0; i < ARR_SIZE; ++i) {
      if (!eq(cget(T, result, i), cget(T, myvals, i))) {
        ++ret;
        if (verbose) t.printf(`result[${i}] != myvals[${i}]`);
      }
    }
    if (verbose) t.printf(`${typename} (type '${c}') ${ret ? 'Failed' : 'Succeeded'}: ${ret}`);
    errors += ret;
  }
  await s.finalize();
  return errors;
}
