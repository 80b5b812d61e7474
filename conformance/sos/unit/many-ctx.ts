// SOS test/unit/many-ctx.c: 32 contexts each increment a neighbour's counter, each quieted on its own.
import type { ShmemTest } from '../../shmem/harness.ts';
import type { ShmemCtx } from '../../../runtime/shmem/shmem.ts';

const NUM_CTX = 32;

export default async function manyCtx(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const [dataSym] = await t.statics([8]);
  const data = dataSym!.int64();
  let errors = 0;
  const ctx: ShmemCtx[] = [];
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  for (let i = 0; i < NUM_CTX; i++) {
    const { ret: err, value } = await t.ret(() => s.ctxCreate({}));
    if (err) {
      t.printf(`${me}: Warning, could not create context ${i} (${err})`);
      ctx[i] = s.CTX_DEFAULT;
    } else ctx[i] = value!;
  }
  for (let i = 0; i < NUM_CTX; i++) await ctx[i]!.atomicInc(dataSym!, (me + 1) % npes, 'int64');
  for (let i = 0; i < NUM_CTX; i++) await ctx[i]!.quiet();
  await s.syncAll();
  if (data[0] !== BigInt(NUM_CTX)) {
    t.printf(`${me}: error expected ${NUM_CTX}, got ${data[0]}`);
    ++errors;
  }
  await s.finalize();
  return errors;
}
