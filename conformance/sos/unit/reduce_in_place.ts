// SOS test/unit/reduce_in_place.c: a team max reduction whose source and destination are the same array.
import type { ShmemTest } from '../../shmem/harness.ts';

const NELEM = 10;

export default async function reduceInPlace(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const [srcSym] = await t.statics([8 * NELEM]);
  const src = srcSym!.int64();
  let errors = 0;
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  for (let i = 0; i < NELEM; i++) src[i] = BigInt(me);
  await s.barrierAll();
  await s.maxReduce(s.TEAM_WORLD, srcSym!, srcSym!, NELEM, 'int64');
  // validate reduced data
  for (let j = 0; j < NELEM; j++) {
    const expected = BigInt(npes - 1);
    if (src[j] !== expected) {
      t.printf(`${me}: Expected src[${j}] = ${expected}, got src[${j}] = ${src[j]}`);
      errors++;
    }
  }
  await s.finalize();
  return errors !== 0 ? 1 : 0;
}
