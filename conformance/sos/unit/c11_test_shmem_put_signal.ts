// SOS test/unit/c11_test_shmem_put_signal.c: for every RMA type, without and with SHMEM_CTX_DEFAULT, SIGNAL_SET and SIGNAL_ADD: 10 elements passed around the ring with put_signal (each PE forwarding what it received once signalled), then PE 0 putting to every PE with put_signal_nbi.
import type { ShmemTest } from '../../shmem/harness.ts';
import { carray, cast, cget, cset, ctype, cview, eq, putSignal, putSignalNbi, RMA_TYPES } from '../../shmem/ctypes.ts';

const OPS = ['PUT_SIGNAL', 'PUT_SIGNAL_NBI'] as const;

export default async function c11TestShmemPutSignal(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  // one static sig_addr per macro expansion (an op and a type), reused by the loops around it
  const sigs = await t.statics(OPS.flatMap(() => RMA_TYPES.map(() => 8)));
  s.init();
  let rc = 0;
  for (const [o, op] of OPS.entries()) {
    // loop over context usage, then over the signal ops
    for (let useCtx = 0; useCtx < 2; useCtx++) {
      for (let j = 0; j < 2; j++) {
        for (const [k, name] of RMA_TYPES.entries()) {
          const T = ctype(name);
          const sigAddr = sigs[o * RMA_TYPES.length + k]!;
          const remote = await s.malloc(10 * T.bytes);
          const mype = s.myPe();
          const npes = s.nPes();
          const local = carray(T, 10);
          for (let i = 0; i < 10; i++) cset(T, local, i, i);
          const atomicOp = j === 0 ? s.SIGNAL_SET : s.SIGNAL_ADD;
          await s.barrierAll();
          const c = useCtx ? s.CTX_DEFAULT : s;
          if (op === 'PUT_SIGNAL') {
            if (mype === 0) {
              await putSignal(c, T, remote, local, 10, sigAddr, 1n, atomicOp, (mype + 1) % npes);
              await s.waitUntil(sigAddr, 'eq', 1, 'uint64');
            } else {
              await s.waitUntil(sigAddr, 'eq', 1, 'uint64');
              // the source is this PE's own copy of remote, just received
              await putSignal(c, T, remote, cview(T, remote).slice(0, T.kind === 'LongDouble' ? 20 : 10) as typeof local, 10, sigAddr, 1n, atomicOp, (mype + 1) % npes);
            }
          } else {
            if (mype === 0) {
              for (let i = 0; i < npes; i++) await putSignalNbi(c, T, remote, local, 10, sigAddr, 1n, atomicOp, i);
              await s.quiet();
            }
            await s.waitUntil(sigAddr, 'eq', 1, 'uint64');
          }
          sigAddr.uint64()[0] = 0n;
          await s.barrierAll();
          const view = cview(T, remote);
          for (let i = 0; i < 10; i++) {
            if (!eq(cget(T, view, i), cast(T, i))) {
              t.printf(`PE ${mype} received incorrect value with TEST_SHMEM_PUT_SIGNAL(${op}, ${useCtx}, ${name})`);
              rc = 1;
            }
          }
          await s.free(remote);
        }
      }
    }
  }
  await s.finalize();
  return rc;
}
