// SOS test/unit/hello_f.f90: start_pes(0), num_pes() and my_pe() (OpenSHMEM 1.0's names), and every PE says hello.
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function helloF(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  s.startPes(0);
  const npes = s.nPes();
  const me = s.myPe();
  t.printf(` I am ${String(me).padStart(11)} of ${String(npes).padStart(11)}`);
  // a Fortran program ends without shmem_finalize; the run's end waits for every PE
  return 0;
}
