// SOS test/unit/alltoalls.c: int32 strided alltoalls (dst, sst, nelem of 1/1/1, 1/1/0, 2/2/8, 2/1/8, 1/2/7) on teams of all PEs, PE 0 alone, the even PEs, all but the last, all but the first and the odd PEs.
import type { ShmemTest } from '../../shmem/harness.ts';
import type { Symmetric } from '../../../runtime/shmem/shmem.ts';

const NELEM = 16;

const peGroupToWorld = (groupPe: number, peStart: number, peStride: number, peSize: number): number => (groupPe >= peSize ? -1 : peStart + groupPe * peStride);

async function alltoallsTest(t: ShmemTest, outSym: Symmetric, inSym: Symmetric, dst: number, sst: number, nelem: number, peStart: number, peStride: number, peSize: number): Promise<void> {
  const s = t.shmem;
  const me = s.myPe();
  const npes = s.nPes();
  const out = outSym.int32();
  const inp = inSym.int32();
  let failed = false;
  const p2 = (v: number): string => String(v).padStart(2);
  if (me === peStart) t.printf(`A2AS: dst = ${p2(dst)}, sst = ${p2(sst)}, nelem = ${p2(nelem)}, pe_start = ${p2(peStart)}, pe_stride = ${p2(peStride)}, pe_size = ${p2(peSize)}`);
  for (let i = 0; i < NELEM * npes; i++) {
    inp[i] = me;
    out[i] = -1;
  }
  await s.barrierAll();
  const newTeam = await t.split(s.TEAM_WORLD, peStart, peStride, peSize);
  if (newTeam !== s.TEAM_INVALID) await s.alltoalls(newTeam, outSym, inSym, dst, sst, nelem, 'int32');
  for (let i = 0; i < npes; i++) {
    for (let j = 0; j < nelem; j++) {
      for (let k = 0; k < dst; k++) {
        const idx = i * dst * nelem + j * dst + k;
        const expected = newTeam !== s.TEAM_INVALID ? (k % dst === 0 ? peGroupToWorld(i, peStart, peStride, peSize) : -1) : -1;
        if (out[idx] !== expected) {
          t.printf(`[${me}] out[${idx}] = ${out[idx]}, expected ${expected}`);
          failed = true;
        }
      }
    }
  }
  if (failed) await s.globalExit(1);
}

export default async function alltoalls(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  s.init();
  const npes = s.nPes();
  const inSym = await s.malloc(4 * NELEM * npes);
  const outSym = await s.malloc(4 * NELEM * npes);
  const sets: [number, number, number][] = [[0, 1, npes], [0, 13, 1], [0, 2, Math.trunc(npes / 2) + (npes % 2)]];
  if (npes > 1) sets.push([0, 1, npes - 1], [1, 1, npes - 1], [1, 2, Math.trunc(npes / 2)]);
  for (const [start, stride, size] of sets) {
    await alltoallsTest(t, outSym, inSym, 1, 1, 1, start, stride, size); // same as alltoall
    await alltoallsTest(t, outSym, inSym, 1, 1, 0, start, stride, size); // no op
    await alltoallsTest(t, outSym, inSym, 2, 2, NELEM / 2, start, stride, size); // alternate elements
    await alltoallsTest(t, outSym, inSym, 2, 1, NELEM / 2, start, stride, size); // dst != sst
    await alltoallsTest(t, outSym, inSym, 1, 2, NELEM / 2 - 1, start, stride, size); // dst != sst
  }
  await s.finalize();
  return 0;
}
