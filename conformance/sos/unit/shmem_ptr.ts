// SOS test/unit/shmem_ptr.c: shmem_ptr to every PE's copy of a static and a heap int: readable where not NULL (the PEs of this node), never NULL for this PE.
import type { ShmemTest } from '../../shmem/harness.ts';
import type { Symmetric } from '../../../runtime/shmem/shmem.ts';

export default async function shmemPtr(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const [shrData] = await t.statics([4], ([d]) => (d!.int32()[0] = -1));
  let errors = 0;
  s.init();
  const me = s.myPe();
  const npes = s.nPes();
  const shrHeap = await s.malloc(4);
  shrData!.int32()[0] = me;
  shrHeap.int32()[0] = me;
  await s.barrierAll();
  const check = (sym: Symmetric, what: string): { n: number; available: number } => {
    let n = 0;
    let available = 0;
    for (let i = 0; i < npes; i++) {
      const ptr = s.ptr(sym, i);
      if (ptr !== null) {
        const shrPeer = new Int32Array(ptr.buffer, ptr.byteOffset, 1)[0]!;
        ++n;
        if (shrPeer !== i) {
          t.printf(`${String(me).padStart(2)}: Error, shr_${what}(${i}) = ${shrPeer}, expected ${i}`);
          errors++;
        }
      } else if (i === me) {
        t.printf(`${String(me).padStart(2)}: Error, shmem_ptr(${what}) returned NULL for my PE`);
        errors++;
      } else {
        // NULL for remotely inaccessible data objects (XPMEM reaches the PEs of this node only)
        ++available;
      }
    }
    return { n, available };
  };
  // shmem_ptr on the data segment
  let r = check(shrData!, 'data');
  t.printf(`${String(me).padStart(2)}: Found ${r.n} data segment peer(s) (${r.available} were inaccessible)`);
  await s.barrierAll();
  // shmem_ptr on the heap segment
  r = check(shrHeap, 'heap');
  t.printf(`${String(me).padStart(2)}: Found ${r.n} heap segment peer(s) (${r.available} were inaccessible)`);
  await s.finalize();
  return errors !== 0 ? 1 : 0;
}
