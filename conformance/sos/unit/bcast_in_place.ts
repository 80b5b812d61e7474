// SOS test/unit/bcast_in_place.c: a team broadcast whose source and destination are the same array.
import type { ShmemTest } from '../../shmem/harness.ts';

const NELEM = 10;

export default async function bcastInPlace(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const [srcSym] = await t.statics([8 * NELEM]);
  const src = srcSym!.int64();
  let errors = 0;
  s.init();
  const me = s.myPe();
  for (let i = 0; i < NELEM; i++) src[i] = BigInt(me + i);
  await s.barrierAll();
  await s.broadcast(s.TEAM_WORLD, srcSym!, srcSym!, NELEM, 0, 'int64');
  // validate broadcast data
  for (let j = 0; j < NELEM; j++) {
    const expected = BigInt(j);
    if (src[j] !== expected) {
      t.printf(`${me}: Expected src[${j}] = ${expected}, got src[${j}] = ${src[j]}`);
      errors++;
    }
  }
  await s.finalize();
  return errors !== 0 ? 1 : 0;
}
