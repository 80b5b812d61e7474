// SOS test/unit/c11_test_shmem_put.c: for every RMA type, 10 elements of mype put to the right neighbour with shmem_put, shmem_iput (strides 1) and shmem_put_nbi + quiet, without and with SHMEM_CTX_DEFAULT; a barrier, and all 10 checked.
import type { ShmemTest } from '../../shmem/harness.ts';
import { carray, cast, cget, cset, ctype, cview, eq, iput, put, putNbi, RMA_TYPES } from '../../shmem/ctypes.ts';

const OPS = ['PUT', 'IPUT', 'PUT_NBI'] as const;

export default async function c11TestShmemPut(t: ShmemTest): Promise<number> {
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
        for (let i = 0; i < 10; i++) cset(T, local, i, mype);
        const c = useCtx ? s.CTX_DEFAULT : s;
        const to = (mype + 1) % npes;
        if (op === 'PUT') await put(c, T, remote, local, 10, to);
        else if (op === 'IPUT') await iput(c, T, remote, local, 1, 1, 10, to);
        else {
          await putNbi(c, T, remote, local, 10, to);
          await s.quiet();
        }
        await s.barrierAll();
        const view = cview(T, remote);
        for (let i = 0; i < 10; i++) {
          if (!eq(cget(T, view, i), cast(T, (mype + npes - 1) % npes))) {
            t.printf(`PE ${mype} received incorrect value with TEST_SHMEM_PUT(${op}, ${useCtx}, ${name})`);
            rc = 1;
          }
        }
      }
    }
  }
  await s.finalize();
  return rc;
}
