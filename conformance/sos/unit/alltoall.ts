// SOS test/unit/alltoall.c: an int32 alltoall of one element on teams of all PEs, PE 0 alone, the even PEs, all but the last, all but the first and the odd PEs.
import type { ShmemTest } from '../../shmem/harness.ts';
import type { Symmetric } from '../../../runtime/shmem/shmem.ts';

const peGroupToWorld = (groupPe: number, peStart: number, peStride: number, peSize: number): number => (groupPe >= peSize ? -1 : peStart + groupPe * peStride);

async function alltoallTest(t: ShmemTest, outSym: Symmetric, inSym: Symmetric, peStart: number, peStride: number, peSize: number): Promise<void> {
  const s = t.shmem;
  const me = s.myPe();
  const npes = s.nPes();
  const out = outSym.int32();
  const inp = inSym.int32();
  let failed = false;
  if (me === peStart) t.printf(`A2A: pe_start = ${peStart}, pe_stride = ${peStride}, pe_size = ${peSize}`);
  for (let i = 0; i < npes; i++) {
    inp[i] = me;
    out[i] = -1;
  }
  await s.barrierAll();
  const newTeam = await t.split(s.TEAM_WORLD, peStart, peStride, peSize);
  if (newTeam !== s.TEAM_INVALID) await s.alltoall(newTeam, outSym, inSym, 1, 'int32');
  for (let i = 0; i < npes; i++) {
    const expected = newTeam !== s.TEAM_INVALID ? peGroupToWorld(i, peStart, peStride, peSize) : -1;
    if (out[i] !== expected) {
      t.printf(`[${me}] out[${i}] = ${out[i]}, expected ${expected}`);
      failed = true;
    }
  }
  if (failed) await s.globalExit(1);
}

export default async function alltoall(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  s.init();
  const npes = s.nPes();
  const inSym = await s.malloc(4 * npes);
  const outSym = await s.malloc(4 * npes);
  // all PEs
  await alltoallTest(t, outSym, inSym, 0, 1, npes);
  // only PE 0, stride is invalid (should be ignored if NPES < 13)
  await alltoallTest(t, outSym, inSym, 0, 13, 1);
  // only even PEs
  await alltoallTest(t, outSym, inSym, 0, 2, Math.trunc(npes / 2) + (npes % 2));
  if (npes > 1) {
    // remove PE n-1
    await alltoallTest(t, outSym, inSym, 0, 1, npes - 1);
    // remove PE 0
    await alltoallTest(t, outSym, inSym, 1, 1, npes - 1);
    // only odd PEs
    await alltoallTest(t, outSym, inSym, 1, 2, Math.trunc(npes / 2));
  }
  await s.finalize();
  return 0;
}
