// SOS test/unit/c11_test_shmem_atomic_add.c (and cxx_test_shmem_atomic_add.cpp): for every integer atomic type and each form of add
// (add, fetch_add, fetch_add_nbi; default and SHMEM_CTX_DEFAULT; deprecated build: shmem_add
// too), every PE adds mype+1 to a static on every PE; after a barrier it holds npes(npes+1)/2,
// and every old value fetched is at most that.
import type { ShmemTest } from '../../shmem/harness.ts';
import { atomic, ATOMIC_INT_TYPES, carray, cast, cget, cset, ctype, cview, eq, num } from '../../shmem/ctypes.ts';

const OPS = ['ADD', 'ATOMIC_ADD', 'CTX_ATOMIC_ADD', 'FADD', 'ATOMIC_FETCH_ADD', 'CTX_ATOMIC_FETCH_ADD', 'ATOMIC_FETCH_ADD_NBI', 'CTX_ATOMIC_FETCH_ADD_NBI'] as const;

export default async function c11TestShmemAtomicAdd(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  // shmem_add is only in the deprecated build; cxx_test_shmem_atomic_add (the same checks with
  // the typed C names) has shmem_TYPE_fadd there too, ahead of the others
  const cxx = t.name.startsWith('cxx_');
  const deprecatedOnly = cxx ? ['ADD', 'FADD'] : ['ADD'];
  const ordered = cxx ? ['ADD', 'FADD', ...OPS.filter((op) => op !== 'ADD' && op !== 'FADD')] : OPS;
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
      const most = cast(T, (npes * (npes + 1)) / 2);
      cset(T, cview(T, remote), 0, 0);
      await s.barrierAll();
      for (let i = 0; i < npes; i++) {
        const c = op.startsWith('CTX') ? s.CTX_DEFAULT : s;
        const v = cast(T, mype + 1);
        let fetched = true;
        if (op === 'ADD' || op === 'ATOMIC_ADD' || op === 'CTX_ATOMIC_ADD') {
          await atomic.add(c, T, remote, v, i);
          fetched = false;
        } else if (op === 'FADD' || op === 'ATOMIC_FETCH_ADD' || op === 'CTX_ATOMIC_FETCH_ADD') cset(T, old, 0, await atomic.fetchAdd(c, T, remote, v, i));
        else {
          await atomic.fetchAddNbi(c, T, old, 0, remote, v, i);
          await s.quiet();
        }
        if (fetched && num(cget(T, old, 0)) > num(most)) {
          t.printf(`PE ${mype} error inconsistent value of old (${op}, ${name})`);
          rc = 1;
        }
      }
      await s.barrierAll();
      if (!eq(cget(T, cview(T, remote), 0), most)) {
        t.printf(`PE ${mype} observed error with TEST_SHMEM_ADD(${op}, ${name})`);
        rc = 1;
      }
    }
  }
  await s.finalize();
  return rc;
}
