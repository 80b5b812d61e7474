// SOS test/unit/shmem_team_reuse_teams.c: a team split from its parent (less its first PE) npes-1 times, each parent destroyed after its child is made.
import type { ShmemTest } from '../../shmem/harness.ts';
import type { ShmemTeam } from '../../../runtime/shmem/shmem.ts';

export default async function shmemTeamReuseTeams(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  let errors = 0;
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  if (me === 0) t.printf('Reuse teams test');
  const first = await t.ret(() => s.teamSplitStrided(s.TEAM_WORLD, 0, 1, npes));
  if (first.ret) ++errors;
  let oldTeam: ShmemTeam | null = first.value;
  // npes-1 iterations: the team of iteration i holds PEs i..npes-1
  for (let i = 1; i < npes; i++) {
    if (me === i) t.printf(`${String(me).padStart(3)}: creating new team (start, stride, size): ${String(s.teamTranslatePe(oldTeam, 1, s.TEAM_WORLD)).padStart(3)}, ${String(1).padStart(3)}, ${String(s.teamNPes(oldTeam) - 1).padStart(3)}`);
    // PEs outside the old team (TEAM_INVALID) get an error and no team, as in C
    const r = await t.ret(() => s.teamSplitStrided(oldTeam, 1, 1, s.teamNPes(oldTeam) - 1));
    if (oldTeam !== s.TEAM_INVALID && r.ret) ++errors;
    s.teamDestroy(oldTeam);
    oldTeam = r.value;
  }
  s.teamDestroy(oldTeam);
  await s.finalize();
  return errors !== 0 ? 1 : 0;
}
