// SOS test/unit/shmem_team_collect_active_set.c: a team shrunk by one PE per iteration (split from the last); each PE contributes PE-id int64 elements to a collect, every element of dst checked.
import type { ShmemTest } from '../../shmem/harness.ts';
import type { ShmemTeam } from '../../../runtime/shmem/shmem.ts';

const MAX_NPES = 32;

export default async function shmemTeamCollectActiveSet(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const [srcSym, dstSym] = await t.statics([8 * MAX_NPES, 8 * MAX_NPES * MAX_NPES]);
  const src = srcSym!.int64();
  const dst = dstSym!.int64();
  let errors = 0;
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  if (npes > MAX_NPES) {
    if (me === 0) t.printf(`Test requires fewer than ${MAX_NPES} PEs`);
    await s.finalize();
    return 0;
  }
  src.fill(BigInt(me), 0, MAX_NPES);
  dst.fill(-1n, 0, MAX_NPES * MAX_NPES);
  if (me === 0) t.printf('Shrinking team size test');
  let oldTeam: ShmemTeam | null = await t.split(s.TEAM_WORLD, 0, 1, npes);
  // npes-1 tests: the team of test i holds PEs i..npes-1, each contributing PE-id elements
  for (let i = 1; i < npes; i++) {
    let idx = 0;
    if (me === i) t.printf(` + team size ${s.teamNPes(oldTeam) - 1}`);
    // PEs outside the old team get an error and no team
    const { value: newTeam } = await t.ret(() => s.teamSplitStrided(oldTeam, 1, 1, s.teamNPes(oldTeam) - 1));
    if (newTeam !== s.TEAM_INVALID && newTeam !== null) {
      await s.collect(newTeam, dstSym!, srcSym!, me, 'int64');
      // validate the destination buffer's data
      for (let j = 0; j < npes - i; j++) {
        for (let k = 0; k < i + j; k++, idx++) {
          if (dst[idx] !== BigInt(i + j)) {
            t.printf(`${me}: Expected dst[${idx}] = ${i + j}, got dst[${idx}] = ${dst[idx]}, iteration ${i}`);
            errors++;
          }
        }
      }
      // validate the unused destination buffer
      for (; idx < MAX_NPES * MAX_NPES; idx++) {
        if (dst[idx] !== -1n) {
          t.printf(`${me}: Expected dst[${idx}] = -1, got dst[${idx}] = ${dst[idx]}, iteration ${i}`);
          errors++;
        }
      }
      // reset for the next iteration
      dst.fill(-1n, 0, MAX_NPES * MAX_NPES);
      await s.sync(newTeam);
    }
    oldTeam = newTeam;
  }
  s.teamDestroy(oldTeam);
  await s.finalize();
  return errors !== 0 ? 1 : 0;
}
