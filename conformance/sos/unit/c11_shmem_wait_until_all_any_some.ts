// SOS test/unit/c11_shmem_wait_until_all_any_some.c: for each wait type, a p of mype+1 to the right neighbour, then shmem_wait_until_all, _any or _some(NE 0) on the one-element array of its own copy.
import type { ShmemTest } from '../../shmem/harness.ts';
import { cast, ctype, cview, eq, p, waitOf, type CTypeName } from '../../shmem/ctypes.ts';

const TYPES: readonly CTypeName[] = ['short', 'int', 'long', 'long long', 'unsigned short', 'unsigned int', 'unsigned long', 'unsigned long long', 'int32_t', 'int64_t', 'uint32_t', 'uint64_t', 'size_t', 'ptrdiff_t'];
const OPS = ['ALL', 'ANY', 'SOME'] as const;

export default async function c11ShmemWaitUntilAllAnySome(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const remotes = await t.statics(OPS.flatMap(() => TYPES.map(() => 8)));
  s.init();
  let rc = 0;
  let k = 0;
  for (const op of OPS) {
    for (const name of TYPES) {
      const T = ctype(name);
      const remote = remotes[k++]!;
      const mype = s.myPe();
      const npes = s.nPes();
      const status = [0];
      await p(s, T, remote, cast(T, mype + 1), (mype + 1) % npes);
      if (op === 'ALL') await s.waitUntilAll(remote, 1, status, 'ne', 0, waitOf(T));
      else if (op === 'ANY') await s.waitUntilAny(remote, 1, status, 'ne', 0, waitOf(T));
      else await s.waitUntilSome(remote, 1, [0], status, 'ne', 0, waitOf(T));
      if (!eq(cview(T, remote)[0]!, cast(T, ((mype + npes - 1) % npes) + 1))) {
        t.printf(`PE ${mype} received incorrect value with TEST_SHMEM_WAIT_UNTIL_${op}(${name})`);
        rc = 1;
      }
    }
  }
  await s.finalize();
  return rc;
}
