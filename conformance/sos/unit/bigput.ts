// SOS test/unit/bigput.c (defaults: 4 Mi ints = 16 MiB, 100 loops) and bigget.c (1000 loops):
// every PE puts its 16 MiB Source into (gets its right neighbour's Source into) Target, again
// and again; the times are gathered on PE 0 (and sum-reduced, for bigput) and Target checked.
// One port for the two, told apart by the test's name.
import type { ShmemTest } from '../../shmem/harness.ts';

const NUM_ELEMENTS = 4194304; // 16 MiB of ints

export default async function bigput(t: ShmemTest): Promise<number> {
  const get = t.name === 'bigget';
  const loops = get ? 1000 : 100;
  const elements = NUM_ELEMENTS;
  const s = t.shmem;
  // double sum_time, time_taken (bigput's globals: symmetric)
  const [sumTimeSym, timeTakenSym] = await t.statics([8, 8]);
  const timeTaken = timeTakenSym!.float64();
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  const targetPe = (me + 1) % npes;
  const totalTimeSym = await s.malloc(npes * 8);
  if (!get) totalTimeSym.float64().fill(-1.0);
  const SourceSym = await s.malloc(elements * 4);
  const TargetSym = await s.malloc(elements * 4);
  const Source = SourceSym.int32();
  const Target = TargetSym.int32();
  for (let i = 0; i < elements; i++) {
    Target[i] = -90;
    Source[i] = i + 1;
  }
  await s.barrierAll();
  for (let i = 0; i < loops; i++) {
    const startTime = t.wtime();
    if (get) await s.getInt32(Target, SourceSym, elements, targetPe);
    else await s.putInt32(TargetSym, Source, elements, targetPe);
    timeTaken[0] = timeTaken[0]! + (t.wtime() - startTime);
  }
  // collect the time of each PE
  await s.putFloat64(totalTimeSym.element('float64', me), timeTaken, 1, 0);
  if (!get) await s.sumReduce(s.TEAM_WORLD, sumTimeSym!, timeTakenSym!, 1, 'float64');
  await s.barrierAll();
  for (let i = 0; i < elements; i++) {
    if (Target[i] !== i + 1) {
      t.printf(`${me}: Error Target[${i}] = ${Target[i]}, expected ${i + 1}`);
      await s.globalExit(1);
    }
  }
  await s.free(totalTimeSym);
  await s.free(TargetSym);
  await s.free(SourceSym);
  await s.finalize();
  return 0;
}
