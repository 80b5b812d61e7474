// SOS test/unit/bcast_flood.c (defaults: 25,600 ints = 100 KB, 600 loops): int broadcasts from PE 0 over TEAM_WORLD, back to back.
import type { ShmemTest } from '../../shmem/harness.ts';

const DFLT_LOOPS = 600;
const N_ELEMENTS = 25600;

export default async function bcastFlood(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const elements = N_ELEMENTS;
  const loops = DFLT_LOOPS;
  s.init();
  const source = await s.malloc(elements * 4);
  const target = await s.malloc(elements * 4);
  const src = source.int32();
  const tgt = target.int32();
  for (let i = 0; i < elements; i += 1) {
    src[i] = i + 1;
    tgt[i] = -90;
  }
  await s.barrierAll();
  let timeTaken = 0.0;
  for (let i = 0; i < loops; i++) {
    const startTime = t.wtime();
    await s.broadcast(s.TEAM_WORLD, target, source, elements, 0, 'int32');
    timeTaken += t.wtime() - startTime;
  }
  void timeTaken;
  await s.barrierAll();
  await s.free(target);
  await s.free(source);
  await s.finalize();
  return 0;
}
