// SOS test/unit/sync-size.c: a broadcast, an fcollect and a max reduction over TEAM_WORLD in a row, checked.
import type { ShmemTest } from '../../shmem/harness.ts';

const N = 3;

export default async function syncSize(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const [srcSym, dstSym] = await t.statics([8 * N, 8 * N]);
  const src = srcSym!.int64();
  const dst = dstSym!.int64();
  let errors = 0;
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  for (let i = 0; i < N; i += 1) {
    src[i] = BigInt(me);
    dst[i] = -1n;
  }
  // barrier
  await s.barrierAll();
  // broadcast
  await s.broadcast(s.TEAM_WORLD, dstSym!, srcSym!, N, 0, 'int64');
  for (let i = 0; i < N && me > 0; i++) {
    if (dst[i] !== 0n) {
      t.printf(`[${me}] Broadcast: got ${dst[i]}, expected 0`);
      ++errors;
    }
  }
  await s.barrierAll();
  // collect
  const dstAllSym = await s.malloc(npes * N * 8);
  const dstAll = dstAllSym.int64();
  await s.fcollect(s.TEAM_WORLD, dstAllSym, srcSym!, N, 'int64');
  for (let i = 0; i < npes; i++) {
    for (let j = 0; j < N; j++) {
      if (dstAll[i * N + j] !== BigInt(i)) {
        t.printf(`[${me}] Fcollect: got ${dstAll[i]}, expected ${j}`);
        ++errors;
      }
    }
  }
  await s.free(dstAllSym);
  await s.barrierAll();
  // reduction
  await s.maxReduce(s.TEAM_WORLD, dstSym!, srcSym!, N, 'int64');
  for (let i = 0; i < N; i++) {
    if (dst[i] !== BigInt(npes - 1)) {
      t.printf(`[${npes - 1}] Reduction: got ${dst[i]}, expected 0`);
      ++errors;
    }
  }
  await s.finalize();
  return errors;
}
