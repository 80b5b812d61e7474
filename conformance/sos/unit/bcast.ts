// SOS test/unit/bcast.c: 10 long broadcasts from PE 1 over TEAM_WORLD, of 16 bytes growing by 1 KiB, each into a fresh allocation.
import type { ShmemTest } from '../../shmem/harness.ts';

const START_BCAST_SIZE = 16;
const BCAST_INCR = 1024;

export default async function bcast(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const loops = 10;
  let nBytes = START_BCAST_SIZE;
  s.init();
  const mpe = s.myPe();
  const numPes = s.nPes();
  if (numPes === 1) {
    t.printf('bcast: Requires number of PEs > 1');
    await s.finalize();
    return 0;
  }
  for (let cloop = 1; cloop <= loops; cloop++) {
    const nLongs = Math.trunc(nBytes / 8);
    const dstSym = await s.malloc(nBytes * 2);
    const dst = dstSym.int64();
    dst.fill(0n, 0, Math.trunc(nBytes / 8));
    const srcSym = dstSym.element('int64', nLongs);
    const src = dst.subarray(nLongs);
    for (let i = 1; i < nLongs; i++) src[i] = BigInt(i + 1);
    await s.barrierAll();
    await s.broadcast(s.TEAM_WORLD, dstSym, srcSym, nLongs, 1, 'int64');
    for (let i = 0; i < nLongs; i++) {
      if (dst[i] !== src[i]) {
        t.printf(`[${mpe}] dst[${i}] ${dst[i]} != expected ${src[i]}`);
        await s.globalExit(1);
      }
    }
    await s.barrierAll();
    await s.free(dstSym);
    nBytes += BCAST_INCR;
  }
  await s.finalize();
  return 0;
}
