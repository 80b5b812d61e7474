// SOS test/unit/broadcast_active_set.c: int64 broadcasts over the teams (deprecated build: active sets) of PEs i..npes-1, then over all PEs with every root in turn.
import type { ShmemTest } from '../../shmem/harness.ts';

const NELEM = 10;

export default async function broadcastActiveSet(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const deprecated = t.has('deprecated');
  const [srcSym, dstSym, bcastPsync, barrierPsync0, barrierPsync1] = await t.statics([8 * NELEM, 8 * NELEM, ...(deprecated ? [8 * s.BCAST_SYNC_SIZE, 8 * s.BARRIER_SYNC_SIZE, 8 * s.BARRIER_SYNC_SIZE] : [])]);
  const src = srcSym!.int64();
  const dst = dstSym!.int64();
  let errors = 0;
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  const validateData = (i: number): number => {
    let e = 0;
    for (let j = 0; j < NELEM; j++) {
      // the 1.4 broadcast leaves the root's dst alone: it holds the previous test's
      const expected = BigInt(deprecated && me === i ? i - 1 : i);
      if (dst[j] !== expected) {
        t.printf(`${me}: Expected dst[${j}] = ${expected}, got dst[${j}] = ${dst[j]}, iteration ${i}`);
        e++;
      }
    }
    return e;
  };
  for (let i = 0; i < NELEM; i++) {
    src[i] = BigInt(me);
    dst[i] = -1n;
  }
  if (deprecated) {
    bcastPsync!.int64().fill(s.SYNC_VALUE, 0, s.BCAST_SYNC_SIZE);
    barrierPsync0!.int64().fill(s.SYNC_VALUE, 0, s.BARRIER_SYNC_SIZE);
    barrierPsync1!.int64().fill(s.SYNC_VALUE, 0, s.BARRIER_SYNC_SIZE);
  }
  if (me === 0) t.printf('Shrinking active set test');
  await s.barrierAll();
  // npes tests: the active set of test i holds PEs i..npes-1
  if (deprecated) {
    for (let i = 0; i <= me; i++) {
      if (me === i) t.printf(`+ active set size ${npes - i}`);
      await s.broadcast64(dstSym!, srcSym!, NELEM, 0, i, 0, npes - i, bcastPsync!);
      errors += validateData(i);
      await s.barrier(i, 0, npes - i, i % 2 ? barrierPsync0! : barrierPsync1!);
    }
  } else {
    for (let i = 0; i < npes; i++) {
      if (me === i) t.printf(` + active set size ${npes - i}`);
      const newTeam = await t.split(s.TEAM_WORLD, i, 1, npes - i);
      if (newTeam !== s.TEAM_INVALID) {
        await s.broadcast(newTeam, dstSym!, srcSym!, NELEM, 0, 'int64');
        errors += validateData(i);
      }
      await s.barrierAll();
    }
  }
  await s.barrierAll();
  dst.fill(-1n, 0, NELEM);
  if (me === 0) t.printf('Changing root test');
  await s.barrierAll();
  // npes tests, the root changing each time
  for (let i = 0; i < npes; i++) {
    if (me === i) t.printf(` + root ${i}`);
    if (deprecated) await s.broadcast64(dstSym!, srcSym!, NELEM, i, 0, 0, npes, bcastPsync!);
    else await s.broadcast(s.TEAM_WORLD, dstSym!, srcSym!, NELEM, i, 'int64');
    errors += validateData(i);
    await s.barrierAll();
  }
  await s.finalize();
  return errors !== 0 ? 1 : 0;
}
