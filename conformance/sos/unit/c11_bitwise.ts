// SOS test/unit/c11_test_shmem_atomic_and.c, c11_test_shmem_atomic_or.c and
// c11_test_shmem_atomic_xor.c (and their cxx_test_shmem_atomic_*.cpp twins): for every bitwise atomic type (skipped when npes-1 exceeds its
// size in bytes, as the tests do) and each form (blocking, fetching, fetching nbi; default and
// SHMEM_CTX_DEFAULT), every PE applies its bit (1 << mype; for and, all but it) to a static on
// every PE, checking each fetched old value; after a barrier the static holds the npes bits
// set (or) or cleared (and, xor). One port for the six, told apart by the test's name.
import type { ShmemTest } from '../../shmem/harness.ts';
import { atomic, ATOMIC_BITWISE_TYPES, carray, cast, cget, cset, ctype, cview, eq, type CType, type CValue } from '../../shmem/ctypes.ts';

type Which = 'and' | 'or' | 'xor';
const OPNAMES: Readonly<Record<Which, string>> = { and: 'AND', or: 'OR', xor: 'XOR' };

/** C's bitwise operators on values of T. */
const band = (T: CType, a: CValue, b: CValue): CValue => cast(T, BigInt(a) & BigInt(b));
const bxor = (T: CType, a: CValue, b: CValue): CValue => cast(T, BigInt(a) ^ BigInt(b));
const bnot = (T: CType, a: CValue): CValue => cast(T, ~BigInt(a));

export default async function c11Bitwise(t: ShmemTest): Promise<number> {
  const which = t.name.replace(/^(c11|cxx)_test_shmem_atomic_/, '') as Which;
  const NAME = OPNAMES[which];
  const ops = ['', 'CTX_', 'FETCH_', 'CTX_FETCH_', 'FETCH_NBI', 'CTX_FETCH_NBI'].map((f) => (f.endsWith('NBI') ? f.replace('NBI', `${NAME}_NBI`) : `${f}${NAME}`));
  const s = t.shmem;
  // static TYPE remote = ~(TYPE)0 for and and xor, (TYPE)0 for or: one per macro expansion
  const remotes = await t.statics(
    ops.flatMap(() => ATOMIC_BITWISE_TYPES.map(() => 8)),
    (vs) => ops.forEach((_, o) => ATOMIC_BITWISE_TYPES.forEach((n, k) => cset(ctype(n), cview(ctype(n), vs[o * ATOMIC_BITWISE_TYPES.length + k]!), 0, which === 'or' ? 0 : -1))),
  );
  s.init();
  let rc = 0;
  let k = 0;
  for (const op of ops) {
    for (const name of ATOMIC_BITWISE_TYPES) {
      const T = ctype(name);
      const remote = remotes[k++]!;
      const mype = s.myPe();
      const npes = s.nPes();
      const old = carray(T, 1);
      // avoid overflow
      if (npes - 1 > T.bytes) continue;
      const bit = cast(T, 1n << BigInt(mype));
      const operand = which === 'and' ? bnot(T, bit) : bit;
      const fetching = op.includes('FETCH');
      for (let i = 0; i < npes; i++) {
        const c = op.startsWith('CTX') ? s.CTX_DEFAULT : s;
        if (!fetching) await atomic[which](c, T, remote, operand, i);
        else if (op.endsWith('NBI')) {
          await atomic[which === 'and' ? 'fetchAndNbi' : which === 'or' ? 'fetchOrNbi' : 'fetchXorNbi'](c, T, old, 0, remote, operand, i);
          await s.quiet();
        } else cset(T, old, 0, await atomic[which === 'and' ? 'fetchAnd' : which === 'or' ? 'fetchOr' : 'fetchXor'](c, T, remote, operand, i));
        if (fetching) {
          const o = cget(T, old, 0);
          // and: my bit still set before my and; or: not yet set before my or; xor: still set before my xor
          const bad = which === 'and' ? eq(band(T, o, bit), 0) : which === 'or' ? !eq(band(T, o, bit), 0) : !eq(band(T, bxor(T, o, bit), bit), 0);
          if (bad) {
            t.printf(`PE ${mype} error inconsistent value of old (${op}, ${name})`);
            rc = 1;
          }
        }
      }
      await s.barrierAll();
      const mask = cast(T, (1n << BigInt(npes)) - 1n);
      const want = which === 'or' ? mask : bnot(T, mask);
      if (!eq(cget(T, cview(T, remote), 0), want)) {
        t.printf(`PE ${mype} observed error with TEST_SHMEM_${NAME}(${op}, ${name})`);
        rc = 1;
      }
    }
  }
  await s.finalize();
  return rc;
}
