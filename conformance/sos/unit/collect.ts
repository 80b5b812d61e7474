// SOS test/unit/collect.c: int32 collects over TEAM_WORLD (one element each), the even PEs, and TEAM_WORLD with PE i contributing i elements.
import type { ShmemTest } from '../../shmem/harness.ts';

const MAX_NPES = 32;

export default async function collect(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const [srcSym, dstSym] = await t.statics([4 * MAX_NPES, 4 * MAX_NPES * MAX_NPES]);
  const src = srcSym!.int32();
  const dst = dstSym!.int32();
  let errors = 0;
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  if (npes > MAX_NPES) {
    if (me === 0) t.printf(`Warning: npes > ${MAX_NPES}, exiting without performing test`);
    await s.finalize();
    return 0;
  }
  src.fill(-1, 0, MAX_NPES);
  dst.fill(-1, 0, MAX_NPES * MAX_NPES);
  await s.barrierAll();
  // all PEs contribute their PE id
  src[0] = me;
  await s.collect(s.TEAM_WORLD, dstSym!, srcSym!, 1, 'int32');
  for (let i = 0; i < npes; i++) {
    if (dst[i] !== i) {
      t.printf(`${me}: Test 1 error, dst[${i}] == ${dst[i]}, expected ${i}`);
      ++errors;
    }
  }
  await s.barrierAll();
  // even PEs contribute their PE id
  src[0] = me;
  const newTeam = await t.split(s.TEAM_WORLD, 0, 2, Math.trunc(npes / 2) + (npes % 2));
  if (newTeam !== s.TEAM_INVALID) {
    await s.collect(newTeam, dstSym!, srcSym!, 1, 'int32');
    for (let i = 0; i < Math.trunc(npes / 2); i++) {
      if (dst[i] !== i * 2) {
        t.printf(`${me}: Test 2 error, dst[${i}] == ${dst[i]}, expected ${i}`);
        ++errors;
      }
    }
  }
  await s.barrierAll();
  // all PEs contribute a number of elements equal to their PE id
  for (let i = 0; i < me; i++) src[i] = me + 1;
  await s.collect(s.TEAM_WORLD, dstSym!, srcSym!, me, 'int32');
  let idx = 0;
  for (let i = 0; i < npes; i++) {
    for (let j = 0; j < i; j++) {
      if (dst[idx] !== i + 1) {
        t.printf(`${me}: Test 3 error, dst[${idx}] == ${dst[idx]}, expected ${i + 1}`);
        ++errors;
      }
      ++idx;
    }
  }
  await s.finalize();
  return errors !== 0 ? 1 : 0;
}
