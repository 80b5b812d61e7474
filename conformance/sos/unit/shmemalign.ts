// SOS test/unit/shmemalign.c (defaults: 257 longs, 1 loop): shmem_align with alignments 2 .. 2^23, each allocation checked for its alignment and freed.
import type { ShmemTest } from '../../shmem/harness.ts';

const DFLT_NWORDS = 257;
const DFLT_INCR = 31;
const DFLT_LOOPS = 1;

export default async function shmemalign(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  s.init();
  const me = s.myPe();
  let nWords = DFLT_NWORDS;
  const loops = DFLT_LOOPS;
  const incWords = DFLT_INCR;
  for (let l = 0; l < loops; l++) {
    // align 2**1 ... 2**23; 24 exceeds the symmetric heap's max
    for (let j = 0, c = 2; j < 23; j++, c <<= 1) {
      const targetSz = nWords * 8;
      const target = await s.align(c, targetSz);
      if (!target) {
        t.printf('Failed target memory allocation');
        t.exit(1);
      }
      // the address: the segment's base (aligned to any power of two) plus the object's offset
      if (target.offset & (c - 1)) {
        t.printf(`PE${me} Unaligned? align[0x${c.toString(16).padStart(7, '0')}]target at byte offset ${target.offset}`);
        await s.globalExit(1);
      }
      await s.barrierAll();
      await s.free(target);
    }
    nWords += incWords;
  }
  await s.finalize();
  return 0;
}
