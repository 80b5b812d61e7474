// SOS test/unit/c11_test_shmem_get.c: for every RMA type, each PE sets its 10-element static to mype, a barrier, and gets the right neighbour's with shmem_get, shmem_iget (strides 1) and shmem_get_nbi + quiet, without and with SHMEM_CTX_DEFAULT.
import type { ShmemTest } from '../../shmem/harness.ts';
import { carray, cast, cget, cset, ctype, cview, eq, get, getNbi, iget, RMA_TYPES } from '../../shmem/ctypes.ts';

const OPS = ['GET', 'IGET', 'GET_NBI'] as const;

export default async function c11TestShmemGet(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const remotes = await t.statics(OPS.flatMap(() => [0, 1].flatMap(() => RMA_TYPES.map((n) => 10 * ctype(n).bytes))));
  s.init();
  let rc = 0;
  let k = 0;
  for (const op of OPS) {
    for (const useCtx of [0, 1]) {
      for (const name of RMA_TYPES) {
        const T = ctype(name);
        const remote = remotes[k++]!;
        const mype = s.myPe();
        const npes = s.nPes();
        const local = carray(T, 10);
        const view = cview(T, remote);
        for (let i = 0; i < 10; i++) cset(T, view, i, mype);
        await s.barrierAll();
        const c = useCtx ? s.CTX_DEFAULT : s;
        const from = (mype + 1) % npes;
        if (op === 'GET') await get(c, T, local, remote, 10, from);
        else if (op === 'IGET') await iget(c, T, local, remote, 1, 1, 10, from);
        else {
          await getNbi(c, T, local, remote, 10, from);
          await s.quiet();
        }
        for (let i = 0; i < 10; i++) {
          if (!eq(cget(T, local, i), cast(T, (mype + 1) % npes))) {
            t.printf(`PE ${mype} received incorrect value with TEST_SHMEM_GET(${op}, ${useCtx}, ${name})`);
            rc = 1;
          }
        }
      }
    }
  }
  await s.finalize();
  return rc;
}
