// SOS test/unit/c11_test_shmem_p.c: for every RMA type, shmem_p of mype to the right neighbour (without and with SHMEM_CTX_DEFAULT), a barrier, and the value checked.
import type { ShmemTest } from '../../shmem/harness.ts';
import { cast, cget, ctype, cview, eq, p, RMA_TYPES } from '../../shmem/ctypes.ts';

export default async function c11TestShmemP(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const remotes = await t.statics([0, 1].flatMap(() => RMA_TYPES.map((n) => ctype(n).bytes)));
  s.init();
  let rc = 0;
  let k = 0;
  for (const useCtx of [0, 1]) {
    for (const name of RMA_TYPES) {
      const T = ctype(name);
      const remote = remotes[k++]!;
      const mype = s.myPe();
      const npes = s.nPes();
      await p(useCtx ? s.CTX_DEFAULT : s, T, remote, cast(T, mype), (mype + 1) % npes);
      await s.barrierAll();
      if (!eq(cget(T, cview(T, remote), 0), cast(T, (mype + npes - 1) % npes))) {
        t.printf(`PE ${mype} received incorrect value with TEST_SHMEM_P(${useCtx}, ${name})`);
        rc = 1;
      }
    }
  }
  await s.finalize();
  return rc;
}
