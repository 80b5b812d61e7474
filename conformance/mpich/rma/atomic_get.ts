// MPICH test/mpi/rma/atomic_get.c, built as atomic_get_<pairtype>: while rank 2 keeps replacing
// (MPI_Accumulate with MPI_REPLACE) rank 0's pair struct { A a; int b; } with (v, v), one pair
// 10,000 times a loop or ten pairs 1,000 times, rank 1 reads it atomically, 100 times a loop, by
// MPI_Fetch_and_op and MPI_Get_accumulate with MPI_NO_OP (with an origin buffer, a null one, a zero
// origin count and a null origin datatype), 600 loops in fence epochs; every pair read must have
// a == b. The long double build is left out (no long double in TypeScript).
import type { Datatype } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';

const LOOP = 100;
const DATA_SIZE = 100;
const OPS_NUM = 10000;
const GACC_SZ = 10;

/** One build's pair: MTEST_MPI_PAIRTYPE, sizeof(pair_struct_t), and the a field's load and store. */
interface PairType {
  readonly type: (mt: MTest) => Datatype;
  readonly size: number;
  readonly get: (v: DataView, at: number) => number;
  readonly set: (v: DataView, at: number, x: number) => void;
  /** Where b sits in the struct. */
  readonly bAt: number;
}

const PAIRS = {
  short_int: { type: (mt) => mt.mpi.SHORT_INT, size: 8, bAt: 4, get: (v, at) => v.getInt16(at, true), set: (v, at, x) => v.setInt16(at, x, true) },
  '2int': { type: (mt) => mt.mpi.TWO_INT, size: 8, bAt: 4, get: (v, at) => v.getInt32(at, true), set: (v, at, x) => v.setInt32(at, x, true) },
  long_int: { type: (mt) => mt.mpi.LONG_INT, size: 16, bAt: 8, get: (v, at) => Number(v.getBigInt64(at, true)), set: (v, at, x) => v.setBigInt64(at, BigInt(x), true) },
  float_int: { type: (mt) => mt.mpi.FLOAT_INT, size: 8, bAt: 4, get: (v, at) => v.getFloat32(at, true), set: (v, at, x) => v.setFloat32(at, x, true) },
  double_int: { type: (mt) => mt.mpi.DOUBLE_INT, size: 16, bAt: 8, get: (v, at) => v.getFloat64(at, true), set: (v, at, x) => v.setFloat64(at, x, true) },
} satisfies Record<string, PairType>;

/** (MTEST_PAIRTYPE_A) v, as C converts an int to A. */
function cast(p: PairType, v: number): number {
  const d = new DataView(new ArrayBuffer(8));
  p.set(d, 0, v);
  return p.get(d, 0);
}

function atomicGet(kind: keyof typeof PAIRS): (mt: MTest) => Promise<MTestResult> {
  const P: PairType = PAIRS[kind];
  return async (mt) => {
    const { mpi } = mt;
    const TYPE = P.type(mt);
    const SZ = P.size;
    let errs = 0;
    let currErrors = 0;
    const rank = mpi.rank;
    const origMem = mpi.allocMem(SZ * DATA_SIZE, mpi.INFO_NULL);
    const resultMem = mpi.allocMem(SZ * DATA_SIZE, mpi.INFO_NULL);
    const { win, buf: tarMem } = await mpi.winAllocate(SZ * DATA_SIZE, SZ, mpi.INFO_NULL);
    const orig = new DataView(origMem.buffer, origMem.byteOffset, origMem.byteLength);
    const result = new DataView(resultMem.buffer, resultMem.byteOffset, resultMem.byteLength);
    const tar = new DataView(tarMem.buffer, tarMem.byteOffset, tarMem.byteLength);
    const setPair = (v: DataView, i: number, a: number, b: number): void => {
      P.set(v, i * SZ, a);
      v.setInt32(i * SZ + P.bAt, b, true);
    };
    const resultAt = (i: number): Uint8Array => resultMem.subarray(i * SZ);
    for (let j = 0; j < LOOP * 6; j++) {
      await win.lock(mpi.LOCK_EXCLUSIVE, rank, 0);
      // initialize data
      for (let i = 0; i < DATA_SIZE; i++) {
        setPair(tar, i, 0, 0);
        setPair(result, i, 0, 0);
      }
      await win.unlock(rank);
      await mpi.barrier();
      await win.fence(0);
      if (rank === 2) {
        if (j < 2 * LOOP) {
          // work with the FOP tests (#1 and #2)
          for (let i = 0; i < OPS_NUM; i++) {
            const currVal = j * OPS_NUM + i;
            setPair(orig, 0, currVal, currVal);
            await win.accumulate(origMem, 1, TYPE, 0, 0, 1, TYPE, mpi.REPLACE);
          }
        } else {
          // work with the GACC tests (#3 to #6)
          for (let i = 0; i < OPS_NUM / GACC_SZ; i++) {
            for (let k = 0; k < GACC_SZ; k++) {
              const currVal = j * OPS_NUM + i * GACC_SZ + k;
              setPair(orig, k, currVal, currVal);
            }
            await win.accumulate(origMem, GACC_SZ, TYPE, 0, 0, GACC_SZ, TYPE, mpi.REPLACE);
          }
        }
      } else if (rank === 1) {
        // equals to an atomic GET
        if (j < LOOP) {
          // test #1: FOP + MPI_NO_OP
          for (let i = 0; i < DATA_SIZE; i++) await win.fetchAndOp(origMem, resultAt(i), TYPE, 0, 0, mpi.NO_OP);
        } else if (j < 2 * LOOP) {
          // test #2: FOP + MPI_NO_OP + NULL origin buffer address
          for (let i = 0; i < DATA_SIZE; i++) await win.fetchAndOp(null, resultAt(i), TYPE, 0, 0, mpi.NO_OP);
        } else if (j < 3 * LOOP) {
          // test #3: GACC + MPI_NO_OP
          for (let i = 0; i < DATA_SIZE / GACC_SZ; i++) await win.getAccumulate(origMem, GACC_SZ, TYPE, resultAt(i * GACC_SZ), GACC_SZ, TYPE, 0, 0, GACC_SZ, TYPE, mpi.NO_OP);
        } else if (j < 4 * LOOP) {
          // test #4: GACC + MPI_NO_OP + NULL origin buffer address
          for (let i = 0; i < DATA_SIZE / GACC_SZ; i++) await win.getAccumulate(null, GACC_SZ, TYPE, resultAt(i * GACC_SZ), GACC_SZ, TYPE, 0, 0, GACC_SZ, TYPE, mpi.NO_OP);
        } else if (j < 5 * LOOP) {
          // test #5: GACC + MPI_NO_OP + zero origin count
          for (let i = 0; i < DATA_SIZE / GACC_SZ; i++) await win.getAccumulate(origMem, 0, TYPE, resultAt(i * GACC_SZ), GACC_SZ, TYPE, 0, 0, GACC_SZ, TYPE, mpi.NO_OP);
        } else if (j < 6 * LOOP) {
          // test #6: GACC + MPI_NO_OP + NULL origin datatype (phit has no MPI_DATATYPE_NULL; NO_OP ignores the origin's arguments)
          for (let i = 0; i < DATA_SIZE / GACC_SZ; i++) await win.getAccumulate(origMem, GACC_SZ, null as unknown as Datatype, resultAt(i * GACC_SZ), GACC_SZ, TYPE, 0, 0, GACC_SZ, TYPE, mpi.NO_OP);
        }
      }
      await win.fence(0);
      // check results
      if (rank === 1) {
        for (let i = 0; i < DATA_SIZE; i++) {
          const a = P.get(result, i * SZ);
          const b = result.getInt32(i * SZ + P.bAt, true);
          if (a !== cast(P, b)) {
            if (currErrors < 10) mt.printf(`LOOP ${j}: result_buf[${i}].a = ${a}, result_buf[${i}].b = ${b}`);
            currErrors++;
          }
        }
      }
      if (j % LOOP === 0) {
        errs += currErrors;
        currErrors = 0;
      }
    }
    await win.free();
    mpi.freeMem(origMem);
    mpi.freeMem(resultMem);
    return mt.finalize(errs);
  };
}

export const atomicGetShortInt = atomicGet('short_int');
export const atomicGet2int = atomicGet('2int');
export const atomicGetLongInt = atomicGet('long_int');
export const atomicGetFloatInt = atomicGet('float_int');
export const atomicGetDoubleInt = atomicGet('double_int');
export default atomicGetShortInt;
