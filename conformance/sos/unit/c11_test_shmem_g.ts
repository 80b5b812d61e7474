// SOS test/unit/c11_test_shmem_g.c: for every RMA type, each PE sets its static to mype, a barrier, and shmem_g of the right neighbour's (without and with SHMEM_CTX_DEFAULT).
import type { ShmemTest } from '../../shmem/harness.ts';
import { cast, cset, ctype, cview, eq, g, RMA_TYPES } from '../../shmem/ctypes.ts';

export default async function c11TestShmemG(t: ShmemTest): Promise<number> {
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
      cset(T, cview(T, remote), 0, mype);
      await s.barrierAll();
      const val = await g(useCtx ? s.CTX_DEFAULT : s, T, remote, (mype + 1) % npes);
      if (!eq(val, cast(T, (mype + 1) % npes))) {
        t.printf(`PE ${mype} received incorrect value withTEST_SHMEM_G(${useCtx}, ${name})`);
        rc = 1;
      }
    }
  }
  await s.finalize();
  return rc;
}
