// SOS test/unit/shmem_team_ptr.c: shmem_team_ptr on TEAM_WORLD and on the team of the odd PEs, to a static and a heap int of every PE: readable where not NULL (the PEs of this node), never NULL for this PE.
import type { ShmemTest } from '../../shmem/harness.ts';
import type { ShmemTeam, Symmetric } from '../../../runtime/shmem/shmem.ts';

export default async function shmemTeamPtr(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  let errors = 0;
  const [shrWorldData, shrTeamData] = await t.statics([4, 4], ([, d]) => (d!.int32()[0] = -1));
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  if (npes === 1) {
    if (me === 0) t.printf('Error, this test requires more than 1 process');
    await s.finalize();
    return 0;
  }
  const p2 = (v: number): string => String(v).padStart(2);
  // every PE i of `team` (count of them), through shmem_team_ptr: n found, available NULL
  const scan = (team: ShmemTeam, sym: Symmetric, count: number, myIdx: number, what: string, who: number, nullWho: number): { n: number; available: number } => {
    let n = 0;
    let available = 0;
    for (let i = 0; i < count; i++) {
      const ptr = s.teamPtr(team, sym, i);
      if (ptr !== null) {
        const peer = new Int32Array(ptr.buffer, ptr.byteOffset, 1)[0]!;
        ++n;
        if (peer !== i) {
          t.printf(`${p2(who)}: Error, ${what}(${i}) = ${peer}, expected ${i}`);
          errors++;
        }
      } else if (i === myIdx) {
        t.printf(`${p2(nullWho)}: Error, shmem_team_ptr returned NULL for my PE`);
        errors++;
      } else {
        // NULL for remotely inaccessible data objects (XPMEM reaches the PEs of this node only)
        ++available;
      }
    }
    return { n, available };
  };
  shrWorldData!.int32()[0] = me;
  await s.barrierAll();
  // shmem_team_ptr on the data segment
  let r = scan(s.TEAM_WORLD, shrWorldData!, npes, me, 'shr_world_data', me, me);
  t.printf(`${p2(me)}: Found ${r.n} world team data segment peer(s) (${r.available} were inaccessible)`);
  await s.barrierAll();
  // shmem_team_ptr on the heap segment
  const shrHeap = await s.malloc(4);
  shrHeap.int32()[0] = me;
  await s.syncAll();
  r = scan(s.TEAM_WORLD, shrHeap, npes, me, 'shr_world_heap', me, me);
  t.printf(`${p2(me)}: Found ${r.n} world team heap segment peer(s) (${r.available} were inaccessible)`);
  await s.barrierAll();
  // a team of the PEs with odd numbers
  const newTeam = await t.split(s.TEAM_WORLD, 1, 2, Math.trunc(npes / 2));
  if (newTeam !== s.TEAM_INVALID) {
    const teamMe = s.teamMyPe(newTeam);
    shrTeamData!.int32()[0] = teamMe;
    await s.teamSync(newTeam);
    r = scan(newTeam, shrTeamData!, Math.trunc(npes / 2), teamMe, 'shr_team_data', teamMe, teamMe);
    t.printf(`${p2(me)}: Found ${r.n} world team data segment peer(s) (${r.available} were inaccessible)`);
  }
  // shmem_team_ptr on the heap segment
  const shrTeamHeap = await s.malloc(4);
  if (newTeam !== s.TEAM_INVALID) {
    const teamMe = s.teamMyPe(newTeam);
    shrTeamHeap.int32()[0] = teamMe;
    await s.teamSync(newTeam);
    r = scan(newTeam, shrTeamHeap, Math.trunc(npes / 2), teamMe, 'shr_team_heap', me, teamMe);
    t.printf(`${p2(me)}: Found ${r.n} world team heap segment peer(s) (${r.available} were inaccessible)`);
  }
  s.teamDestroy(newTeam);
  await s.finalize();
  return errors !== 0 ? 1 : 0;
}
