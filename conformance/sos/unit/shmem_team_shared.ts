// SOS test/unit/shmem_team_shared.c: each PE lists the PEs of SHMEM_TEAM_SHARED (under a lock) and checks their count.
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function shmemTeamShared(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const [lock] = await t.statics([8]);
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  const teamSharedNpes = s.teamNPes(s.TEAM_SHARED);
  const peers: number[] = [];
  let numPeers = 0;
  // print the team members on SHMEM_TEAM_SHARED, under a lock for cleaner output
  await s.setLock(lock!);
  let line = `[PE: ${me}] SHMEM_TEAM_SHARED peers: { `;
  for (let i = 0; i < npes; i++) {
    if (s.teamTranslatePe(s.TEAM_WORLD, i, s.TEAM_SHARED) !== -1) {
      peers[numPeers++] = i;
      line += `${i} `;
    }
  }
  t.printf(`${line}} (num_peers: ${numPeers})`);
  await s.clearLock(lock!);
  if (numPeers !== teamSharedNpes) await s.globalExit(1);
  await s.finalize();
  return 0;
}
