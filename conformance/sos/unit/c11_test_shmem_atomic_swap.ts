// SOS test/unit/c11_test_shmem_atomic_swap.c: for float, double and every integer atomic type
// and each form of swap (blocking, nbi; default and SHMEM_CTX_DEFAULT; deprecated build:
// shmem_swap too), each PE swaps mype into its right neighbour's static, which held npes.
import type { ShmemTest } from '../../shmem/harness.ts';
import { atomic, ATOMIC_ALL_TYPES, carray, cast, cget, cset, ctype, cview, eq } from '../../shmem/ctypes.ts';

const OPS = ['SWAP', 'ATOMIC_SWAP', 'CTX_ATOMIC_SWAP', 'ATOMIC_SWAP_NBI', 'CTX_ATOMIC_SWAP_NBI'] as const;

export default async function c11TestShmemAtomicSwap(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const ops = OPS.filter((op) => op !== 'SWAP' || t.has('deprecated'));
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
      const old = carray(T, 1);
      cset(T, cview(T, remote), 0, npes);
      await s.barrierAll();
      const c = op.startsWith('CTX') ? s.CTX_DEFAULT : s;
      if (op.endsWith('NBI')) await atomic.swapNbi(c, T, old, 0, remote, cast(T, mype), (mype + 1) % npes);
      else cset(T, old, 0, await atomic.swap(c, T, remote, cast(T, mype), (mype + 1) % npes));
      await s.barrierAll();
      if (!eq(cget(T, cview(T, remote), 0), cast(T, (mype + npes - 1) % npes))) {
        t.printf(`PE ${mype} observed error with TEST_SHMEM_SWAP(${op}, ${name})`);
        rc = 1;
      }
      if (!eq(cget(T, old, 0), cast(T, npes))) {
        t.printf(`PE ${mype} error inconsistent value of old (${op}, ${name})`);
        rc = 1;
      }
    }
  }
  await s.finalize();
  return rc;
}
