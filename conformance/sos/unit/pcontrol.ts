// SOS test/unit/pcontrol.c (built with --enable-profiling): shmem_pcontrol(1, "Region 1") and (1, "Region 2") around barriers.
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function pcontrol(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  s.init();
  // the region name of the C call's varargs goes to a profiling library; phit's takes the level
  s.pcontrol(1);
  await s.barrierAll();
  s.pcontrol(1);
  await s.barrierAll();
  await s.finalize();
  return 0;
}
