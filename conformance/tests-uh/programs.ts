import type { ShmemProgramModule } from '../shmem/harness.ts';

/** The ported tests-uh feature tests by `dir/name` (a family's port by its own key), loaded when run. */
export const PROGRAMS: Readonly<Record<string, () => Promise<ShmemProgramModule>>> = {
  'C/rma': () => import('./C/rma.ts'),
  'C/test_shmem_accessible': () => import('./C/test_shmem_accessible.ts'),
  'C/test_shmem_atomics': () => import('./C/test_shmem_atomics.ts'),
  'C/test_shmem_barrier': () => import('./C/test_shmem_barrier.ts'),
  'C/test_shmem_broadcast': () => import('./C/test_shmem_broadcast.ts'),
  'C/test_shmem_collects': () => import('./C/test_shmem_collects.ts'),
  'C/test_shmem_finalize': () => import('./C/test_shmem_finalize.ts'),
  'C/test_shmem_global_exit': () => import('./C/test_shmem_global_exit.ts'),
  'C/test_shmem_lock': () => import('./C/test_shmem_lock.ts'),
  'C/test_shmem_query': () => import('./C/test_shmem_query.ts'),
  'C/test_shmem_reduction': () => import('./C/test_shmem_reduction.ts'),
  'C/test_shmem_synchronization': () => import('./C/test_shmem_synchronization.ts'),
  'C/zero': () => import('./C/zero.ts'),
  'Fortran/accessibility/acc': () => import('./Fortran/accessibility/acc.ts'),
  'Fortran/accessibility/acc_mem': () => import('./Fortran/accessibility/acc_mem.ts'),
  'Fortran/alloc/shpalloc': () => import('./Fortran/alloc/shpalloc.ts'),
  'Fortran/atomic/atomic': () => import('./Fortran/atomic/atomic.ts'),
  'Fortran/broadcast/broadcast': () => import('./Fortran/broadcast/broadcast.ts'),
  'Fortran/collect/collect': () => import('./Fortran/collect/collect.ts'),
  'Fortran/reductions/reductions': () => import('./Fortran/reductions/reductions.ts'),
  'Fortran/transfer/transfer': () => import('./Fortran/transfer/transfer.ts'),
};
