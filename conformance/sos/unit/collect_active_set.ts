// SOS test/unit/collect_active_set.c: int64 collects over the teams (deprecated build: active sets, with barriers on alternating pSyncs) of PEs i..npes-1, each PE contributing PE-id elements.
import type { ShmemTest } from '../../shmem/harness.ts';

const MAX_NPES = 32;

export default async function collectActiveSet(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const deprecated = t.has('deprecated');
  const [srcSym, dstSym, collectPsync, barrierPsync0, barrierPsync1] = await t.statics([8 * MAX_NPES, 8 * MAX_NPES * MAX_NPES, ...(deprecated ? [8 * s.COLLECT_SYNC_SIZE, 8 * s.BARRIER_SYNC_SIZE, 8 * s.BARRIER_SYNC_SIZE] : [])]);
  const src = srcSym!.int64();
  const dst = dstSym!.int64();
  let errors = 0;
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  const validateData = (i: number): number => {
    let idx = 0;
    let e = 0;
    for (let j = 0; j < npes - i; j++) {
      for (let k = 0; k < i + j; k++, idx++) {
        if (dst[idx] !== BigInt(i + j)) {
          t.printf(`${me}: Expected dst[${idx}] = ${i + j}, got dst[${idx}] = ${dst[idx]}, iteration ${i}`);
          e++;
        }
      }
    }
    for (; idx < MAX_NPES * MAX_NPES; idx++) {
      if (dst[idx] !== -1n) {
        t.printf(`${me}: Expected dst[${idx}] = -1, got dst[${idx}] = ${dst[idx]}, iteration ${i}`);
        e++;
      }
    }
    dst.fill(-1n, 0, MAX_NPES * MAX_NPES);
    return e;
  };
  if (npes > MAX_NPES) {
    if (me === 0) t.printf(`Test requires fewer than ${MAX_NPES} PEs`);
    await s.finalize();
    return 0;
  }
  src.fill(BigInt(me), 0, MAX_NPES);
  dst.fill(-1n, 0, MAX_NPES * MAX_NPES);
  if (deprecated) {
    collectPsync!.int64().fill(s.SYNC_VALUE, 0, s.COLLECT_SYNC_SIZE);
    barrierPsync0!.int64().fill(s.SYNC_VALUE, 0, s.BARRIER_SYNC_SIZE);
    barrierPsync1!.int64().fill(s.SYNC_VALUE, 0, s.BARRIER_SYNC_SIZE);
  }
  if (me === 0) t.printf('Shrinking active set test');
  await s.barrierAll();
  // npes tests: the active set of test i holds PEs i..npes-1, each contributing PE-id elements
  if (deprecated) {
    for (let i = 0; i <= me; i++) {
      if (me === i) t.printf(` + active set size ${npes - i}`);
      await s.collect64(dstSym!, srcSym!, me, i, 0, npes - i, collectPsync!);
      errors += validateData(i);
      await s.barrier(i, 0, npes - i, i % 2 ? barrierPsync0! : barrierPsync1!);
    }
  } else {
    for (let i = 0; i < npes; i++) {
      if (me === i) t.printf(` + active set size ${npes - i}`);
      const newTeam = await t.split(s.TEAM_WORLD, i, 1, npes - i);
      if (newTeam !== s.TEAM_INVALID) {
        await s.collect(newTeam, dstSym!, srcSym!, me, 'int64');
        errors += validateData(i);
      }
      await s.barrierAll();
    }
  }
  await s.finalize();
  return errors !== 0 ? 1 : 0;
}
