// SOS test/unit/lfinc.c: 25,000 long fetch-increments of the right neighbour's counter, each old value checked, then the counter and its neighbours.
import type { ShmemTest } from '../../shmem/harness.ts';

const LOOPS = 25000;

export default async function lfinc(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  let rc: number;
  const loops = t.args[0] !== undefined && t.args[0] !== 'deprecated' ? Number.parseInt(t.args[0], 10) : LOOPS;
  s.init();
  const myPe = s.myPe();
  const npes = s.nPes();
  if (loops <= 0) {
    if (myPe === 0) t.printf('Error: loops must be greater than 0');
    await s.finalize();
    return 1;
  }
  const dataSym = await s.malloc(8 * 3);
  const data = dataSym.int64();
  data.fill(0n);
  await s.barrierAll();
  const neighbor = (myPe + 1) % npes;
  let elapsed = 0;
  for (let j = 0; j < loops; j++) {
    const startTime = t.wtime();
    const lval = await s.atomicFetchInc(dataSym.element('int64', 1), neighbor, 'int64');
    elapsed += t.wtime() - startTime;
    if (lval !== BigInt(j)) {
      t.printf(`[${myPe}] Test: FAIL previous val ${lval} != ${j} Exit.`);
      await s.globalExit(1);
    }
  }
  await s.barrierAll();
  rc = 0;
  if (data[1] !== BigInt(loops)) {
    t.printf(`[${myPe}] finc neighbot: FAIL data[1] ${data[1]} != ${loops} Exit.`);
    rc--;
  }
  // adjacent memory undisturbed
  t.assert(data[0] === 0n, 'data[0] == 0');
  t.assert(data[2] === 0n, 'data[2] == 0');
  if (myPe === 0) t.printf(`[${myPe}] ${loops} loops of shmem_long_atomic_fetch_inc() in ${elapsed.toFixed(4)} secs\n  ${((elapsed * 100000.0) / loops).toFixed(6)} usecs per shmem_long_atomic_fetch_inc()`);
  await s.free(dataSym);
  await s.finalize();
  return rc;
}
