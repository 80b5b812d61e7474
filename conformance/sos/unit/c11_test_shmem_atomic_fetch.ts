// SOS test/unit/c11_test_shmem_atomic_fetch.c: for float, double and every integer atomic type
// and each form of fetch (blocking, nbi; default and SHMEM_CTX_DEFAULT; deprecated build:
// shmem_fetch too), each PE sets its static to mype and fetches its right neighbour's.
import type { ShmemTest } from '../../shmem/harness.ts';
import { atomic, ATOMIC_ALL_TYPES, carray, cast, cget, cset, ctype, cview, eq } from '../../shmem/ctypes.ts';

const OPS = ['FETCH', 'ATOMIC_FETCH', 'CTX_ATOMIC_FETCH', 'ATOMIC_FETCH_NBI', 'CTX_ATOMIC_FETCH_NBI'] as const;

export default async function c11TestShmemAtomicFetch(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const ops = OPS.filter((op) => op !== 'FETCH' || t.has('deprecated'));
  const remotes = await t.statics(ops.flatMap(() => ATOMIC_ALL_TYPES.map(() => 8)));
  s.init();
  let rc = 0;
  let k = 0;
  for (const op of ops) {
    for (const name of ATOMIC_ALL_TYPES) {
      const T = ctype(name);
      const remote = remotes[k++]!;
      const mype = s.myPe();
      const npes = s.nPes();
      const val = carray(T, 1);
      cset(T, cview(T, remote), 0, mype);
      await s.barrierAll();
      const c = op.startsWith('CTX') ? s.CTX_DEFAULT : s;
      if (op.endsWith('NBI')) {
        await atomic.fetchNbi(c, T, val, 0, remote, (mype + 1) % npes);
        await s.quiet();
      } else cset(T, val, 0, await atomic.fetch(c, T, remote, (mype + 1) % npes));
      if (!eq(cget(T, val, 0), cast(T, (mype + 1) % npes))) {
        t.printf(`PE ${mype} received incorrect value with TEST_SHMEM_FETCH(${op}, ${name})`);
        rc = 1;
      }
    }
  }
  await s.finalize();
  return rc;
}
