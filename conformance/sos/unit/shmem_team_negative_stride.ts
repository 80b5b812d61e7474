// SOS test/unit/shmem_team_negative_stride.c: teams split with strides -1 and -2 from the last PE; PE numbers and an int sum reduction over them checked.
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function shmemTeamNegativeStride(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  let errors = 0;
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  if (npes < 2) {
    if (me === 0) t.printf('Test requires 2 or more PEs');
    await s.finalize();
    return 0;
  }
  const srcSym = await s.malloc(npes * 4);
  const dstSym = await s.malloc(npes * 4);
  const src = srcSym.int32();
  const dst = dstSym.int32();
  for (let i = 0; i < npes; i++) src[i] = i;
  for (let i = 0; i < npes; i++) dst[i] = -1;
  if (me === 0) t.printf('-1 stride:');
  let newTeam = await t.split(s.TEAM_WORLD, npes - 1, -1, npes);
  if (newTeam !== s.TEAM_INVALID) {
    const newTeamId = s.teamTranslatePe(s.TEAM_WORLD, me, newTeam);
    if (newTeamId !== -1 && newTeamId === Math.abs(me - npes + 1)) t.printf(`world team ID = ${me}, new team ID = ${newTeamId}`);
    else errors++;
    await s.sumReduce(newTeam, dstSym, srcSym, npes, 'int32');
    for (let i = 0; i < npes; i++) {
      if (dst[i] !== i * npes) {
        t.printf(`ERROR: dst[i] = ${dst[i]}, expected ${i * npes}`);
        errors++;
      }
    }
  }
  s.teamDestroy(newTeam);
  for (let i = 0; i < npes; i++) dst[i] = -1;
  if (me === 0) t.printf('-2 stride:');
  newTeam = await t.split(s.TEAM_WORLD, npes - 1, -2, Math.trunc(npes / 2));
  if (newTeam !== s.TEAM_INVALID) {
    const newTeamId = s.teamTranslatePe(s.TEAM_WORLD, me, newTeam);
    if (newTeamId !== -1 && newTeamId === Math.abs(Math.trunc((npes - me - 1) / 2))) t.printf(`world team ID = ${me}, new team ID = ${newTeamId}`);
    else errors++;
    await s.sumReduce(newTeam, dstSym, srcSym, npes, 'int32');
    for (let i = 0; i < npes; i++) {
      if (dst[i] !== i * Math.trunc(npes / 2)) {
        t.printf(`ERROR: dst[i] = ${dst[i]}, expected ${i * Math.trunc(npes / 2)}`);
        errors++;
      }
    }
  }
  s.teamDestroy(newTeam);
  await s.free(srcSym);
  await s.free(dstSym);
  await s.finalize();
  return errors !== 0 ? 1 : 0;
}
