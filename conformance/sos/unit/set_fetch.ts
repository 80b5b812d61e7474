// SOS test/unit/set_fetch.c: a token passed around the ring with atomic set, each PE spinning on an atomic fetch of its own copy, for int, long, long long, float and double.
import type { ShmemTest } from '../../shmem/harness.ts';
import { atomic, cset, ctype, cview, num, type CTypeName } from '../../shmem/ctypes.ts';

const TYPES: readonly [string, CTypeName][] = [
  ['int', 'int'],
  ['long', 'long'],
  ['longlong', 'long long'],
  ['float', 'float'],
  ['double', 'double'],
];

export default async function setFetch(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const vars = await t.statics(
    TYPES.map(() => 8),
    (vs) => TYPES.forEach(([, c], i) => cset(ctype(c), cview(ctype(c), vs[i]!), 0, -1)),
  );
  s.init();
  const me = s.myPe();
  const nproc = s.nPes();
  for (const [i, [typename, c]] of TYPES.entries()) {
    const T = ctype(c);
    const v = vars[i]!;
    t.printf(`${me}: Entering ${typename} test`);
    if (me === 0) await atomic.set(s, T, v, nproc - 1, me);
    while (0 > num(await atomic.fetch(s, T, v, me)));
    await atomic.set(s, T, v, me, (me + 1) % nproc);
    const got = num(cview(T, v)[0]!);
    if (got - ((me + (nproc - 1)) % nproc) > 0.01) {
      t.printf(`[${me}] Type '${typename}' expected ${me + ((nproc - 1) % nproc)}, got ${got}`);
      await s.globalExit(1);
    }
    t.printf(`${me}: Finished ${typename} test`);
  }
  await s.finalize();
  return 0;
}
