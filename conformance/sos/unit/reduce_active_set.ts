// SOS test/unit/reduce_active_set.c: long max and min reductions over the teams (deprecated build: active sets) of PEs i..npes-1, for every i.
import type { ShmemTest } from '../../shmem/harness.ts';

const NELEM = 10;

export default async function reduceActiveSet(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const deprecated = t.has('deprecated');
  const pwrk = Math.trunc(NELEM / 2) + s.REDUCE_MIN_WRKDATA_SIZE;
  const [srcSym, dstMaxSym, dstMinSym, maxPsync, minPsync, minPwrk, maxPwrk] = await t.statics([8 * NELEM, 8 * NELEM, 8 * NELEM, ...(deprecated ? [8 * s.REDUCE_SYNC_SIZE, 8 * s.REDUCE_SYNC_SIZE, 8 * pwrk, 8 * pwrk] : [])]);
  const src = srcSym!.int64();
  const dstMax = dstMaxSym!.int64();
  const dstMin = dstMinSym!.int64();
  let errors = 0;
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  const validateMax = (i: number): number => {
    let e = 0;
    for (let j = 0; j < NELEM; j++) {
      const expected = BigInt(npes - 1);
      if (dstMax[j] !== expected) {
        t.printf(`${me}: Max expected dst_max[${j}] = ${expected}, got dst_max[${j}] = ${dstMax[j]}, iteration ${i}`);
        e++;
      }
    }
    return e;
  };
  const validateMin = (i: number): number => {
    let e = 0;
    for (let j = 0; j < NELEM; j++) {
      const expected = BigInt(i);
      if (dstMin[j] !== expected) {
        t.printf(`${me}: Min expected dst_min[${j}] = ${expected}, got dst_min[${j}] = ${dstMin[j]}, iteration ${i}`);
        e++;
      }
    }
    return e;
  };
  for (let i = 0; i < NELEM; i++) {
    src[i] = BigInt(me);
    dstMax[i] = -1n;
    dstMin[i] = -1n;
  }
  if (deprecated) {
    maxPsync!.int64().fill(s.SYNC_VALUE, 0, s.REDUCE_SYNC_SIZE);
    minPsync!.int64().fill(s.SYNC_VALUE, 0, s.REDUCE_SYNC_SIZE);
  }
  if (me === 0) t.printf('Shrinking active set test');
  await s.barrierAll();
  // npes tests: the active set of test i holds PEs i..npes-1
  if (deprecated) {
    for (let i = 0; i <= me; i++) {
      if (me === i) t.printf(` + PE_start=${i}, logPE_stride=0, PE_size=${npes - i}`);
      await s.longMaxToAll(dstMaxSym!, srcSym!, NELEM, i, 0, npes - i, maxPwrk!, maxPsync!);
      errors += validateMax(i);
      await s.longMinToAll(dstMinSym!, srcSym!, NELEM, i, 0, npes - i, minPwrk!, minPsync!);
      errors += validateMin(i);
    }
  } else {
    for (let i = 0; i < npes; i++) {
      if (me === i) t.printf(` + PE_start=${i}, PE_stride=1, PE_size=${npes - i}`);
      const newTeam = await t.split(s.TEAM_WORLD, i, 1, npes - i);
      if (newTeam !== s.TEAM_INVALID) {
        await s.maxReduce(newTeam, dstMaxSym!, srcSym!, NELEM, 'int64');
        errors += validateMax(i);
        await s.minReduce(newTeam, dstMinSym!, srcSym!, NELEM, 'int64');
        errors += validateMin(i);
      }
    }
  }
  await s.finalize();
  return errors !== 0 ? 1 : 0;
}
