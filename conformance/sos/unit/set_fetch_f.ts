// SOS test/unit/set_fetch_f.f90: each PE sets its right neighbour's int4, int8, real4 and real8 (a common block) to me+1 with shmem_TYPE_set, then fetches them back with shmem_TYPE_fetch.
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function setFetchF(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  // common /symmetricvars/ var_i4, var_r4, var_i8, var_r8
  const [varI4, varR4, varI8, varR8] = await t.statics([4, 4, 8, 8]);
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  varI4!.int32()[0] = 0;
  varI8!.int64()[0] = 0n;
  varR4!.float32()[0] = 0.0;
  varR8!.float64()[0] = 0.0;
  let valI4 = me + 1;
  let valI8 = BigInt(me + 1);
  let valR4 = me + 1.0;
  let valR8 = me + 1.0;
  const next = (me + 1) % npes;
  await s.barrierAll();
  await s.atomicSet(varI4!, BigInt(valI4), next, 'int32');
  await s.atomicSet(varI8!, valI8, next, 'int64');
  await s.atomicSet(varR4!, valR4, next, 'float32');
  await s.atomicSet(varR8!, valR8, next, 'float64');
  await s.barrierAll();
  valI4 = Number(await s.atomicFetch(varI4!, next, 'int32'));
  valI8 = await s.atomicFetch(varI8!, next, 'int64');
  valR4 = await s.atomicFetch(varR4!, next, 'float32');
  valR8 = await s.atomicFetch(varR8!, next, 'float64');
  if (valI4 !== me + 1) {
    t.printf(` PE ${me} int4 test failed: ${valI4}`);
    await s.globalExit(1);
  }
  if (valI8 !== BigInt(me + 1)) {
    t.printf(` PE ${me} int8 test failed: ${valI8}`);
    await s.globalExit(2);
  }
  // epsilon(val_r4), epsilon(val_r8)
  if (valR4 - (me + 1) > 2 ** -23) {
    t.printf(` PE ${me} real4 test failed: ${valR4}`);
    await s.globalExit(3);
  }
  if (valR8 - (me + 1) > Number.EPSILON) {
    t.printf(` PE ${me} real8 test failed: ${valR8}`);
    await s.globalExit(4);
  }
  await s.finalize();
  return 0;
}
