// SOS test/unit/c11_test_shmem_atomic_inc.c (and cxx_test_shmem_atomic_inc.cpp): for every integer atomic type and each form of
// increment (inc, fetch_inc, fetch_inc_nbi; default and SHMEM_CTX_DEFAULT; deprecated build:
// shmem_inc too), every PE increments a static on every PE; after a barrier it holds npes, and
// every old value fetched is at most npes.
import type { ShmemTest } from '../../shmem/harness.ts';
import { atomic, ATOMIC_INT_TYPES, carray, cast, cget, cset, ctype, cview, eq, num } from '../../shmem/ctypes.ts';

const OPS = ['INC', 'ATOMIC_INC', 'CTX_ATOMIC_INC', 'FINC', 'ATOMIC_FETCH_INC', 'CTX_ATOMIC_FETCH_INC', 'ATOMIC_FETCH_INC_NBI', 'CTX_ATOMIC_FETCH_INC_NBI'] as const;

export default async function c11TestShmemAtomicInc(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  // cxx_test_shmem_atomic_inc (the same checks with the typed C names) has shmem_TYPE_finc in the
  // deprecated build only, ahead of the others
  const cxx = t.name.startsWith('cxx_');
  const deprecatedOnly = cxx ? ['INC', 'FINC'] : ['INC'];
  const ordered = cxx ? ['INC', 'FINC', ...OPS.filter((op) => op !== 'INC' && op !== 'FINC')] : OPS;
  const ops = ordered.filter((op) => !deprecatedOnly.includes(op) || t.has('deprecated'));
  const remotes = await t.statics(ops.flatMap(() => ATOMIC_INT_TYPES.map(() => 8)));
  s.init();
  let rc = 0;
  let k = 0;
  for (const op of ops) {
    for (const name of ATOMIC_INT_TYPES) {
      const T = ctype(name);
      const remote = remotes[k++]!;
      const mype = s.myPe();
      const npes = s.nPes();
      const old = carray(T, 1);
      cset(T, cview(T, remote), 0, 0);
      await s.barrierAll();
      for (let i = 0; i < npes; i++) {
        const c = op.startsWith('CTX') ? s.CTX_DEFAULT : s;
        let fetched = true;
        if (op === 'INC' || op === 'ATOMIC_INC' || op === 'CTX_ATOMIC_INC') {
          await atomic.inc(c, T, remote, i);
          fetched = false;
        } else if (op === 'FINC' || op === 'ATOMIC_FETCH_INC' || op === 'CTX_ATOMIC_FETCH_INC') cset(T, old, 0, await atomic.fetchInc(c, T, remote, i));
        else {
          await atomic.fetchIncNbi(c, T, old, 0, remote, i);
          await s.quiet();
        }
        if (fetched && num(cget(T, old, 0)) > num(cast(T, npes))) {
          t.printf(`PE ${mype} error inconsistent value of old (${op}, ${name})`);
          rc = 1;
        }
      }
      await s.barrierAll();
      if (!eq(cget(T, cview(T, remote), 0), cast(T, npes))) {
        t.printf(`PE ${mype} observed error with TEST_SHMEM_INC(${op}, ${name})`);
        rc = 1;
      }
    }
  }
  await s.finalize();
  return rc;
}
