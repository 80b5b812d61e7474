// SOS test/unit/hello.c: every PE says hello (run by hand: MAKELEVEL unset).
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function hello(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  s.init();
  const n = s.nPes();
  const me = s.myPe();
  t.printf(`Hello World from ${me} of ${n}`);
  await s.finalize();
  return 0;
}
