// SOS test/unit/shmem_ctx_get_team.c: the team of SHMEM_CTX_INVALID (an error, TEAM_INVALID), of SHMEM_CTX_DEFAULT (TEAM_WORLD), and of a context made on a team of the even PEs.
import type { ShmemTest } from '../../shmem/harness.ts';
import type { ShmemCtx } from '../../../runtime/shmem/shmem.ts';

export default async function shmemCtxGetTeam(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  s.init();
  if (s.nPes() < 2) {
    t.printf('ERR - Requires at least 2 PEs');
    await s.finalize();
    return 0;
  }
  // an invalid context (SHMEM_CTX_INVALID): an error, and TEAM_INVALID
  const CTX_INVALID = null as unknown as ShmemCtx;
  let r = await t.ret(() => s.ctxGetTeam(CTX_INVALID));
  let retrievedTeam = r.value ?? s.TEAM_INVALID;
  if (r.ret === 0 || retrievedTeam !== s.TEAM_INVALID) {
    t.printf('Error in return values for SHMEM_CTX_INVALID');
    await s.globalExit(1);
  }
  // the default context
  r = await t.ret(() => s.ctxGetTeam(s.CTX_DEFAULT));
  retrievedTeam = r.value ?? s.TEAM_INVALID;
  if (r.ret !== 0 || retrievedTeam !== s.TEAM_WORLD) {
    t.printf('Error in return values for SHMEM_CTX_DEFAULT');
    await s.globalExit(2);
  }
  // a context made on a user-defined team
  const npes = s.nPes();
  const newTeam = await t.split(s.TEAM_WORLD, 0, 2, Math.trunc((npes + 1) / 2));
  if (newTeam !== s.TEAM_INVALID) {
    const c = await t.ret(() => s.teamCreateCtx(newTeam, {}));
    if (!c.ret) {
      r = await t.ret(() => s.ctxGetTeam(c.value!));
      if (r.ret !== 0 || r.value !== newTeam) {
        t.printf('Error in return values for a team context');
        await s.globalExit(3);
      }
    }
  }
  await s.finalize();
  return 0;
}
