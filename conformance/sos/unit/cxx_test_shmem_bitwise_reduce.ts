// SOS test/unit/cxx_test_shmem_bitwise_reduce.cpp: shmem_TYPE_and_reduce, _or_reduce and _xor_reduce over TEAM_WORLD of npes elements of 1, for every integer type of the bitwise reductions; each result checked after a barrier.
import type { ShmemTest } from '../../shmem/harness.ts';
import { cast, cget, cset, ctype, cview, eq, type CTypeName } from '../../shmem/ctypes.ts';

const MAX_NPES = 32;
const TYPES: readonly CTypeName[] = ['unsigned char', 'unsigned short', 'unsigned int', 'unsigned long', 'unsigned long long', 'int8_t', 'int16_t', 'int32_t', 'int64_t', 'uint8_t', 'uint16_t', 'uint32_t', 'uint64_t', 'size_t'];
const OPS = ['OP_AND', 'OP_OR', 'OP_XOR'] as const;

export default async function cxxTestShmemBitwiseReduce(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  // static TYPE src[MAX_NPES], dest[MAX_NPES] per macro expansion
  const vars = await t.statics(OPS.flatMap(() => TYPES.flatMap((n) => [MAX_NPES * ctype(n).bytes, MAX_NPES * ctype(n).bytes])));
  s.init();
  let rc = 0;
  const mype = s.myPe();
  const npes = s.nPes();
  if (npes > MAX_NPES) {
    if (mype === 0) t.printf(`ERR - Requires less than ${MAX_NPES} PEs`);
    await s.globalExit(1);
  }
  let k = 0;
  for (const op of OPS) {
    for (const name of TYPES) {
      const T = ctype(name);
      const src = vars[k++]!;
      const dest = vars[k++]!;
      const srcV = cview(T, src);
      for (let i = 0; i < MAX_NPES; i++) cset(T, srcV, i, 1);
      const r = await t.ret(() => (op === 'OP_AND' ? s.andReduce : op === 'OP_OR' ? s.orReduce : s.xorReduce).call(s, s.TEAM_WORLD, dest, src, npes, T.reduce!));
      if (r.ret !== 0) {
        t.printf(`Reduction returned non-zero value (${r.ret}) on PE (${mype}) with TEST_SHMEM_REDUCE(${op}, ${name})`);
        rc = 1;
      }
      await s.barrierAll();
      const want = cast(T, op === 'OP_XOR' ? npes % 2 : 1);
      const destV = cview(T, dest);
      for (let i = 0; i < npes; i++) {
        if (!eq(cget(T, destV, i), want)) {
          t.printf(`PE ${mype} received incorrect value with TEST_SHMEM_REDUCE(${op}, ${name})`);
          rc = 1;
        }
      }
    }
  }
  await s.finalize();
  return rc;
}
