// SOS test/unit/shmem_test.c: every PE puts mype+1 into its slot on every PE; each PE polls its slots with shmem_long_test until all have arrived.
import type { ShmemTest } from '../../shmem/harness.ts';
import type { Symmetric } from '../../../runtime/shmem/shmem.ts';

export default async function shmemTest(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  s.init();
  const mype = s.myPe();
  const npes = s.nPes();
  const waitVarsSym = await s.calloc(npes, 8);
  const waitVars = waitVarsSym.int64();
  const waitAny = async (ivar: Symmetric, count: number, value: bigint): Promise<number> => {
    let idx = 0;
    while (!(await s.test(ivar.element('int64', idx), 'ne', value))) idx = (idx + 1) % count;
    return idx;
  };
  // put mype+1 to every PE
  for (let i = 0; i < npes; i++) await s.pInt64(waitVarsSym.element('int64', mype), BigInt(mype + 1), i);
  let nrecv = 0;
  let errors = 0;
  // wait for all messages to arrive
  while (nrecv < npes) {
    const who = await waitAny(waitVarsSym, npes, 0n);
    if (waitVars[who] !== BigInt(who + 1)) {
      t.printf(`${mype}: wait_vars[${who}] = ${waitVars[who]}, expected ${who + 1}`);
      errors++;
    }
    waitVars[who] = 0n;
    nrecv++;
  }
  await s.free(waitVarsSym);
  await s.finalize();
  return errors;
}
