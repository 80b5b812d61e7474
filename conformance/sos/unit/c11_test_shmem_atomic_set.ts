// SOS test/unit/c11_test_shmem_atomic_set.c: for float, double and every integer atomic type
// (default and SHMEM_CTX_DEFAULT; deprecated build: shmem_set too), each PE atomically sets its
// right neighbour's static to mype; after a barrier each holds its left neighbour's number.
import type { ShmemTest } from '../../shmem/harness.ts';
import { atomic, ATOMIC_ALL_TYPES, cast, cget, ctype, cview, eq } from '../../shmem/ctypes.ts';

const OPS = ['SET', 'ATOMIC_SET', 'CTX_ATOMIC_SET'] as const;

export default async function c11TestShmemAtomicSet(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const ops = OPS.filter((op) => op !== 'SET' || t.has('deprecated'));
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
      await atomic.set(op.startsWith('CTX') ? s.CTX_DEFAULT : s, T, remote, cast(T, mype), (mype + 1) % npes);
      await s.barrierAll();
      if (!eq(cget(T, cview(T, remote), 0), cast(T, (mype + npes - 1) % npes))) {
        t.printf(`PE ${mype} received incorrect value with TEST_SHMEM_SET(${op}, ${name})`);
        rc = 1;
      }
    }
  }
  await s.finalize();
  return rc;
}
