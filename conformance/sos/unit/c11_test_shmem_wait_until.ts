// SOS test/unit/c11_test_shmem_wait_until.c (and cxx_test_shmem_wait_until.cpp): for each wait type, a p of mype+1 to the right neighbour, then shmem_wait_until(NE 0) on its own copy.
import type { ShmemTest } from '../../shmem/harness.ts';
import { cast, ctype, cview, eq, p, waitOf, type CTypeName } from '../../shmem/ctypes.ts';

const TYPES: readonly CTypeName[] = ['short', 'int', 'long', 'long long', 'unsigned short', 'unsigned int', 'unsigned long', 'unsigned long long', 'int32_t', 'int64_t', 'uint32_t', 'uint64_t', 'size_t', 'ptrdiff_t'];

export default async function c11TestShmemWaitUntil(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const remotes = await t.statics(TYPES.map(() => 8));
  s.init();
  let rc = 0;
  // cxx_ (the same checks with the typed C names) has no short or unsigned short
  const types = t.name.startsWith('cxx_') ? TYPES.filter((n) => !n.endsWith('short')) : TYPES;
  for (const [k, name] of types.entries()) {
    const T = ctype(name);
    const remote = remotes[k]!;
    const mype = s.myPe();
    const npes = s.nPes();
    await p(s, T, remote, cast(T, mype + 1), (mype + 1) % npes);
    await s.waitUntil(remote, 'ne', 0, waitOf(T));
    if (!eq(cview(T, remote)[0]!, cast(T, ((mype + npes - 1) % npes) + 1))) {
      t.printf(`PE ${mype} received incorrect value with TEST_SHMEM_WAIT_UNTIL(${name})`);
      rc = 1;
    }
  }
  await s.finalize();
  return rc;
}
