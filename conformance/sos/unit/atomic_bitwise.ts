// SOS test/unit/atomic_bitwise.c (an even number of PEs; others skip): each PE applies xor, fetch-xor, or, fetch-or, and and fetch-and with fixed masks to its pair neighbour's unsigned int, unsigned long, unsigned long long, int32, int64, uint32 and uint64, asserting each result.
import type { ShmemTest } from '../../shmem/harness.ts';
import { atomic, cast, ctype, cview, eq, type CTypeName, type CValue } from '../../shmem/ctypes.ts';

const XOR_MASK = 0xff;
const XOR_MASK2 = 0xffff;
const OR_MASK = 0xff;
const OR_MASK2 = 0xff0000;
const AND_MASK = 0xffff00;
const AND_MASK2 = 0xff0000;

const TYPES: readonly CTypeName[] = ['unsigned int', 'unsigned long', 'unsigned long long', 'int32_t', 'int64_t', 'uint32_t', 'uint64_t'];

export default async function atomicBitwise(t: ShmemTest): Promise<number> {
  const s = t.shmem;
  const shared = await t.statics(TYPES.map(() => 8));
  s.init();
  const myRank = s.myPe();
  const numRanks = s.nPes();
  if (numRanks === 1) {
    t.printf('ERR - Requires > 1 PEs');
    await s.finalize();
    return 0;
  }
  if (numRanks % 2 !== 0) {
    t.printf('ERR - Requires even number of PEs');
    await s.finalize();
    return 0;
  }
  const neighbor = myRank % 2 === 0 ? myRank + 1 : myRank - 1;
  const Ts = TYPES.map(ctype);
  const value = (k: number): CValue => cview(Ts[k]!, shared[k]!)[0]!;
  const assertAll = (want: number, what: string): void => Ts.forEach((T, k) => t.assert(eq(value(k), cast(T, want)), `shared_${TYPES[k]} == ${what}`));
  // non-fetching xor: each variable becomes XOR_MASK (all start at zero)
  for (const [k, T] of Ts.entries()) await atomic.xor(s, T, shared[k]!, XOR_MASK, neighbor);
  await s.barrierAll();
  assertAll(XOR_MASK, 'XOR_MASK');
  await s.barrierAll();
  // fetching xor with XOR_MASK2
  let fetched: CValue[] = [];
  for (const [k, T] of Ts.entries()) fetched[k] = await atomic.fetchXor(s, T, shared[k]!, XOR_MASK2, neighbor);
  await s.barrierAll();
  Ts.forEach((T, k) => {
    t.assert(eq(fetched[k]!, XOR_MASK), `fetched_${TYPES[k]} == XOR_MASK`);
    t.assert(eq(value(k), cast(T, XOR_MASK ^ XOR_MASK2)), `shared_${TYPES[k]} == (XOR_MASK ^ XOR_MASK2)`);
  });
  await s.barrierAll();
  // non-fetching or with OR_MASK: 0xff00 | 0xff
  for (const [k, T] of Ts.entries()) await atomic.or(s, T, shared[k]!, OR_MASK, neighbor);
  await s.barrierAll();
  assertAll(0xffff, '0xffff');
  await s.barrierAll();
  // fetching or with OR_MASK2
  fetched = [];
  for (const [k, T] of Ts.entries()) fetched[k] = await atomic.fetchOr(s, T, shared[k]!, OR_MASK2, neighbor);
  await s.barrierAll();
  Ts.forEach((T, k) => {
    t.assert(eq(fetched[k]!, 0xffff), `fetched_${TYPES[k]} == 0xffff`);
    t.assert(eq(value(k), cast(T, 0xffffff)), `shared_${TYPES[k]} == 0xffffff`);
  });
  await s.barrierAll();
  // non-fetching and with AND_MASK
  for (const [k, T] of Ts.entries()) await atomic.and(s, T, shared[k]!, AND_MASK, neighbor);
  await s.barrierAll();
  assertAll(AND_MASK, 'AND_MASK');
  await s.barrierAll();
  // fetching and with AND_MASK2
  fetched = [];
  for (const [k, T] of Ts.entries()) fetched[k] = await atomic.fetchAnd(s, T, shared[k]!, AND_MASK2, neighbor);
  await s.barrierAll();
  Ts.forEach((T, k) => {
    t.assert(eq(fetched[k]!, AND_MASK), `fetched_${TYPES[k]} == AND_MASK`);
    t.assert(eq(value(k), cast(T, AND_MASK2)), `shared_${TYPES[k]} == AND_MASK2`);
  });
  await s.finalize();
  if (myRank === 0) t.printf('Passed!');
  return 0;
}
