// SOS test/unit/shmem_team_get_config.c: the configuration a team was split with (num_contexts, when its mask says so) is what shmem_team_get_config gives; TEAM_INVALID is an error.
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function shmemTeamGetConfig(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  let errors = 0;
  s.init();
  const myPe = s.myPe();
  const npes = s.nPes();
  if (npes < 2) {
    if (myPe === 0) t.printf('Test requires 2 or more PEs');
    await s.finalize();
    return 0;
  }
  let r = await t.ret(() => s.teamGetConfig(s.TEAM_WORLD));
  if (r.ret !== 0) {
    t.printf(`PE ${myPe}: unexpected return value (${r.ret})`);
    ++errors;
  }
  r = await t.ret(() => s.teamGetConfig(s.TEAM_INVALID));
  if (r.ret === 0) {
    t.printf(`PE ${myPe}: unexpected (SHMEM_TEAM_INVALID) return value (${r.ret})`);
    ++errors;
  }
  const config = { numContexts: 3 };
  // mask SHMEM_TEAM_NUM_CONTEXTS: the configuration is used
  const evenTeam = await t.split(s.TEAM_WORLD, 0, 2, Math.trunc((npes - 1) / 2) + 1, config);
  r = await t.ret(() => s.teamGetConfig(evenTeam));
  let newConfig = r.value ?? { numContexts: 0 };
  if (s.teamMyPe(evenTeam) !== -1 && (newConfig.numContexts !== 3 || r.ret !== 0)) {
    t.printf(`PE ${myPe}: unexpected num_contexts (${newConfig.numContexts})`);
    ++errors;
  }
  if (s.teamMyPe(evenTeam) === -1 && r.ret === 0) {
    t.printf(`PE ${myPe}: unexpected return value from non-team members (${r.ret})`);
    ++errors;
  }
  // mask 0: the configuration is ignored
  const oddTeam = await t.split(s.TEAM_WORLD, 1, 2, Math.trunc(npes / 2), {});
  r = await t.ret(() => s.teamGetConfig(oddTeam));
  newConfig = r.value ?? newConfig;
  if (s.teamMyPe(oddTeam) !== -1 && (newConfig.numContexts !== 0 || r.ret !== 0)) {
    t.printf(`PE ${myPe}: unexpected num_contexts (${newConfig.numContexts})`);
    ++errors;
  }
  if (s.teamMyPe(oddTeam) === -1 && r.ret === 0) {
    t.printf(`PE ${myPe}: unexpected return value from non-team members (${r.ret})`);
    ++errors;
  }
  await s.finalize();
  return errors !== 0 ? 1 : 0;
}
