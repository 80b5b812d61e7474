// SOS test/unit/c11_shmem_test_vector.c: for each wait type, every PE atomically sets its slot of a calloc'd array on every PE to its PE number; each PE polls test_all_vector, _any_vector (status updated) or _some_vector (EQ slot index) and sums the array.
import type { ShmemTest } from '../../shmem/harness.ts';
import { atomic, ctype, cview, num, waitOf, type CTypeName } from '../../shmem/ctypes.ts';

const TYPES: readonly CTypeName[] = ['int', 'long', 'long long', 'unsigned int', 'unsigned long', 'unsigned long long', 'int32_t', 'int64_t', 'uint32_t', 'uint64_t', 'size_t', 'ptrdiff_t'];

export default async function c11ShmemTestVector(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  s.init();
  let rc = 0;
  for (const op of ['ALL', 'ANY', 'SOME'] as const) {
    for (const name of TYPES) {
      const T = ctype(name);
      const myPe = s.myPe();
      const npes = s.nPes();
      const ivarsSym = await s.calloc(npes, T.bytes);
      const ivars = cview(T, ivarsSym);
      const status = new Array<number>(npes).fill(0);
      const cmpValues: bigint[] = [];
      let totalSum = 0;
      for (let i = 0; i < npes; i++) {
        await atomic.set(s, T, ivarsSym.at(myPe * T.bytes), myPe, i);
        cmpValues[i] = BigInt(i);
      }
      const expectedSum = ((npes - 1) * npes) / 2;
      if (op === 'ALL') {
        let ncompleted = false;
        while (!ncompleted) ncompleted = await s.testAllVector(ivarsSym, npes, status, 'eq', cmpValues, waitOf(T));
        for (let i = 0; i < npes; i++) totalSum += num(ivars[i]!);
      } else if (op === 'ANY') {
        let ncompleted = 0;
        while (ncompleted < npes) {
          const ndone = await s.testAnyVector(ivarsSym, npes, status, 'eq', cmpValues, waitOf(T));
          if (ndone !== -1) {
            status[ndone] = 1;
            totalSum += num(ivars[ndone]!);
            ncompleted++;
          }
        }
      } else {
        const indices = new Array<number>(npes).fill(0);
        let ncompleted = 0;
        while (ncompleted < npes) {
          const ndone = await s.testSomeVector(ivarsSym, npes, indices, status, 'eq', cmpValues, waitOf(T));
          for (let j = 0; j < ndone; j++) {
            totalSum += num(ivars[indices[j]!]!);
            status[indices[j]!] = 1;
          }
          ncompleted += ndone;
        }
      }
      if (expectedSum !== totalSum) rc = 1;
    }
  }
  await s.finalize();
  return rc;
}
