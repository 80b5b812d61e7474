// SOS test/unit/c11_shmem_team_collective_types.c: the typed team collectives over TEAM_WORLD on
// every standard RMA type (float, double, long double, the char, short, int, long and long long
// types, the fixed-width integers, size_t, ptrdiff_t), src[i] = (TYPE)mype: broadcast of 32
// elements from PE npes-1 (checked on the other PEs: the C test's braces put every other check
// inside `if (mype != npes-1)`, so the root checks nothing), collect and fcollect of 32 elements
// (element i is i / 32), alltoall of 1 element and alltoalls with strides 1 (element i is i),
// each checked after a barrier.
import type { ShmemTest } from '../../shmem/harness.ts';
import { cast, cget, cset, ctype, cview, eq, RMA_TYPES } from '../../shmem/ctypes.ts';

const MAX_NPES = 32;
const OPS = ['BCAST', 'COLLECT', 'FCOLLECT', 'ALLTOALL', 'ALLTOALLS'] as const;

export default async function c11ShmemTeamCollectiveTypes(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  // static TYPE src[MAX_NPES], dest[MAX_NPES * MAX_NPES] per macro expansion
  const vars = await t.statics(OPS.flatMap(() => RMA_TYPES.flatMap((n) => [MAX_NPES * ctype(n).bytes, MAX_NPES * MAX_NPES * ctype(n).bytes])));
  s.init();
  let rc = 0;
  const mype = s.myPe();
  const npes = s.nPes();
  if (npes > MAX_NPES) {
    if (mype === 0) t.printf(`ERR - Requires at least ${MAX_NPES} PEs`);
    await s.finalize();
    return 0;
  }
  let k = 0;
  for (const op of OPS) {
    for (const name of RMA_TYPES) {
      const T = ctype(name);
      const src = vars[k++]!;
      const dest = vars[k++]!;
      const srcV = cview(T, src);
      for (let i = 0; i < MAX_NPES; i++) cset(T, srcV, i, mype);
      if (op === 'BCAST') await s.broadcast(s.TEAM_WORLD, dest, src, MAX_NPES, npes - 1, T.coll);
      else if (op === 'COLLECT') await s.collect(s.TEAM_WORLD, dest, src, MAX_NPES, T.coll);
      else if (op === 'FCOLLECT') await s.fcollect(s.TEAM_WORLD, dest, src, MAX_NPES, T.coll);
      else if (op === 'ALLTOALL') await s.alltoall(s.TEAM_WORLD, dest, src, 1, T.coll);
      else await s.alltoalls(s.TEAM_WORLD, dest, src, 1, 1, 1, T.coll);
      await s.barrierAll();
      if (mype === npes - 1) continue;
      const d = cview(T, dest);
      const n = op === 'BCAST' ? MAX_NPES : op === 'COLLECT' || op === 'FCOLLECT' ? MAX_NPES * npes : npes;
      for (let i = 0; i < n; i++) {
        const want = op === 'BCAST' ? cast(T, npes - 1) : op === 'COLLECT' || op === 'FCOLLECT' ? cast(T, Math.trunc(i / MAX_NPES)) : cast(T, i);
        if (!eq(cget(T, d, i), want)) {
          t.printf(`PE ${mype} received incorrect value with TEST_SHMEM_COLLECTIVE(${op}, ${name})`);
          rc = 1;
        }
      }
    }
  }
  await s.finalize();
  return rc;
}
