// SOS test/unit/shmem_team_split_2d.c: 2-D splits of TEAM_WORLD and of the even PEs with x ranges 1, 2, 3; every row and column PE translated to the parent and world and checked.
import type { ShmemTest } from '../../shmem/harness.ts';
import type { ShmemTeam } from '../../../runtime/shmem/shmem.ts';

async function check2d(t: ShmemTest, parentTeam: ShmemTeam | null, xdim: number): Promise<number> {
  const s = t.shmem;
  const me = s.teamMyPe(parentTeam);
  let xteam: ShmemTeam | null = s.TEAM_INVALID;
  let yteam: ShmemTeam | null = s.TEAM_INVALID;
  const r = await t.ret(() => s.teamSplit2d(parentTeam, xdim));
  let errors = 0;
  if (r.ret === 0) {
    xteam = r.value!.xTeam;
    yteam = r.value!.yTeam;
    const meX = s.teamMyPe(xteam);
    const meY = s.teamMyPe(yteam);
    const npesX = s.teamNPes(xteam);
    const npesY = s.teamNPes(yteam);
    if (xteam === s.TEAM_INVALID || yteam === s.TEAM_INVALID) {
      t.printf(`${s.myPe()}: Error, received an invalid team`);
      ++errors;
    }
    // the PE numbers of xteam and yteam as parent and world PEs, against those expected
    for (let i = 0; i < npesX; i++) {
      const expectedParent = meY * xdim + i; // row (fixed) + column
      const peParent = s.teamTranslatePe(xteam, i, parentTeam);
      const peWorld = s.teamTranslatePe(xteam, i, s.TEAM_WORLD);
      const expectedWorld = s.teamTranslatePe(parentTeam, expectedParent, s.TEAM_WORLD);
      if (expectedParent !== peParent) {
        t.printf(`${me}: xteam[${i}] expected parent PE id ${expectedParent}, got ${peParent}`);
        errors++;
      }
      if (expectedWorld !== peWorld) {
        t.printf(`${me}: xteam[${i}] expected world PE id ${expectedWorld}, got ${peWorld}`);
        errors++;
      }
    }
    for (let i = 0; i < npesY; i++) {
      const expectedParent = i * xdim + meX; // row + column (fixed)
      const peParent = s.teamTranslatePe(yteam, i, parentTeam);
      const peWorld = s.teamTranslatePe(yteam, i, s.TEAM_WORLD);
      const expectedWorld = s.teamTranslatePe(parentTeam, expectedParent, s.TEAM_WORLD);
      if (expectedParent !== peParent) {
        t.printf(`${me}: yteam[${i}] expected parent PE id ${expectedParent}, got ${peParent}`);
        errors++;
      }
      if (expectedWorld !== peWorld) {
        t.printf(`${me}: yteam[${i}] expected world PE id ${expectedWorld}, got ${peWorld}`);
        errors++;
      }
    }
  } else {
    t.printf(`${s.myPe()}: 2d split failed`);
  }
  if (xteam !== s.TEAM_INVALID) s.teamDestroy(xteam);
  if (yteam !== s.TEAM_INVALID) s.teamDestroy(yteam);
  return errors !== 0 ? 1 : 0;
}

export default async function shmemTeamSplit2d(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  let errors = 0;
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  if (me === 0) t.printf('Performing 2d split test on SHMEM_TEAM_WORLD');
  errors += await check2d(t, s.TEAM_WORLD, 1);
  errors += await check2d(t, s.TEAM_WORLD, 2);
  errors += await check2d(t, s.TEAM_WORLD, 3);
  const r = await t.ret(() => s.teamSplitStrided(s.TEAM_WORLD, 0, 2, Math.trunc((npes - 1) / 2) + 1));
  if (r.ret === 0) {
    if (me === 0) t.printf('Performing 2d split test on even team');
    // the odd PEs hold TEAM_INVALID: their 2-D splits fail at once (and count no error)
    errors += await check2d(t, r.value, 1);
    errors += await check2d(t, r.value, 2);
    errors += await check2d(t, r.value, 3);
  } else if (me === 0) t.printf('Unable to create even team');
  await s.finalize();
  return errors !== 0 ? 1 : 0;
}
