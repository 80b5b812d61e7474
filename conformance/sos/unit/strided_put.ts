// SOS test/unit/strided_put.c: on 2 PEs, PE 0 puts every second short of its 10 to PE 1 with shmem_short_iput.
import type { ShmemTest } from '../../shmem/harness.ts';

export default async function stridedPut(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const source = Int16Array.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
  const [targetSym] = await t.statics([2 * 10]);
  const target = new Int16Array(targetSym!.local.buffer, targetSym!.local.byteOffset, 10);
  let ret = 0;
  s.init();
  const me = s.myPe();
  const numPes = s.nPes();
  if (numPes !== 2) {
    t.printf('strided_put: Requires 2 PEs');
    await s.finalize();
    return 0;
  }
  if (me === 0) {
    // put 10 words into target on PE 1
    await s.iputInt16(targetSym!, source, 1, 2, 5, 1);
  }
  await s.barrierAll(); // sync sender and receiver
  if (me === 1) {
    if (!(target[0] === source[0] && target[1] === source[2] && target[2] === source[4] && target[3] === source[6] && target[4] === source[8])) {
      t.printf(`target on PE ${me} is ${target[0]} ${target[1]} ${target[2]} ${target[3]} ${target[4]}`);
      ret = 1;
    }
  }
  await s.finalize();
  return ret;
}
