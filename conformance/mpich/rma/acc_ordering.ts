// MPICH test/mpi/rma/acc_ordering.c: the last rank issues two MPI_2INT accumulates in a row to
// rank 0 (one pair, then 1024 pairs) in fence epochs: two REPLACEs under the default
// accumulate_ordering (the second must win) and under accumulate_ordering=none (either may), then
// MAXLOC followed by REPLACE and REPLACE followed by MINLOC (the later one acts last).
import type { Op, Win } from '../../../runtime/mpi/mpi.ts';
import type { MTest, MTestResult } from '../mtest.ts';

/** twoint_t { int val; int loc; }. */
interface TwoInt {
  loc: number;
  val: number;
}

const ARRAY_LEN = 8192 / 8;
const INT_MAX = 2147483647;

export default async function accOrdering(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const me = mpi.rank;
  const nproc = mpi.size;
  if (nproc < 2) throw new Error('MPI_Abort: Run this program with 2 or more processes');
  // val at 2i, loc at 2i + 1
  const data = new Int32Array(2 * ARRAY_LEN);
  const expected: TwoInt[] = [
    { loc: 0, val: 0 },
    { loc: 0, val: 0 },
  ];
  const mine = new Int32Array(2 * ARRAY_LEN);
  const minePlus = new Int32Array(2 * ARRAY_LEN);
  if (me === nproc - 1) {
    for (let i = 0; i < ARRAY_LEN; i++) {
      mine[2 * i] = me + 1;
      mine[2 * i + 1] = me;
      minePlus[2 * i] = me + 2;
      minePlus[2 * i + 1] = me + 1;
    }
  }
  const verifyResult = (len: number, exp: TwoInt, testName: string): void => {
    for (let i = 0; i < len; i++) {
      if (data[2 * i] !== exp.val || data[2 * i + 1] !== exp.loc) {
        errs++;
        mt.printf(`${testName}: Expected: { loc = ${exp.loc}, val = ${exp.val} }  Actual: { loc = ${data[2 * i + 1]}, val = ${data[2 * i]} }`);
      }
    }
  };
  const verifyNondeterministicResult = (len: number, exp: TwoInt[], testName: string): void => {
    for (let i = 0; i < len; i++) {
      // as in the C source, the first alternative compares data[0].val
      if (!((data[2 * i + 1] === exp[0]!.loc && data[0] === exp[0]!.val) || (data[2 * i + 1] === exp[1]!.loc && data[2 * i] === exp[1]!.val))) {
        errs++;
        mt.printf(`${testName}: Expected: { loc = ${exp[0]!.loc}, val = ${exp[0]!.val} } or { loc = ${exp[1]!.loc}, val = ${exp[1]!.val} }; Actual: { loc = ${data[2 * i + 1]}, val = ${data[2 * i]} }`);
      }
    }
  };
  const twoAccs = async (win: Win, n: number, first: Int32Array, firstOp: Op, second: Int32Array, secondOp: Op): Promise<void> => {
    if (me === nproc - 1) {
      await win.accumulate(first, n, mpi.TWO_INT, 0, 0, n, mpi.TWO_INT, firstOp);
      await win.accumulate(second, n, mpi.TWO_INT, 0, 0, n, mpi.TWO_INT, secondOp);
    }
  };

  // 1. default ordering
  let win = await mpi.winCreate(data, 1, mpi.INFO_NULL);
  await win.fence(0);
  // 1.a. single data test
  await twoAccs(win, 1, mine, mpi.REPLACE, minePlus, mpi.REPLACE);
  await win.fence(0);
  if (me === 0) {
    expected[0] = { loc: nproc, val: nproc + 1 };
    verifyResult(1, expected[0], 'Single data test case for default ordering');
  }
  if (me === 0) [data[0], data[1]] = [0, 0];
  await win.fence(0);
  // 1.b. large array test
  await twoAccs(win, ARRAY_LEN, mine, mpi.REPLACE, minePlus, mpi.REPLACE);
  await win.fence(0);
  if (me === 0) verifyResult(ARRAY_LEN, expected[0]!, 'Large array test case for default ordering');
  await win.free();

  // 2. none ordering
  if (me === 0) data.fill(0);
  const infoIn = mpi.infoCreate();
  infoIn.set('accumulate_ordering', 'none');
  win = await mpi.winCreate(data, 1, infoIn);
  infoIn.free();
  await win.fence(0);
  // 2.a. single data test
  await twoAccs(win, 1, mine, mpi.REPLACE, minePlus, mpi.REPLACE);
  await win.fence(0);
  if (me === 0) {
    expected[0] = { loc: nproc - 1, val: nproc };
    expected[1] = { loc: nproc, val: nproc + 1 };
    verifyNondeterministicResult(1, expected, 'Single data test case for none ordering');
  }
  if (me === 0) [data[0], data[1]] = [0, 0];
  await win.fence(0);
  // 2.b. large array test
  await twoAccs(win, ARRAY_LEN, mine, mpi.REPLACE, minePlus, mpi.REPLACE);
  await win.fence(0);
  if (me === 0) verifyNondeterministicResult(ARRAY_LEN, expected, 'Large array test case for none ordering');
  await win.free();

  // 3. mix MAXLOC/MINLOC and MPI_REPLACE
  if (me === 0) data.fill(0);
  win = await mpi.winCreate(data, 1, mpi.INFO_NULL);
  await win.fence(0);
  // test MAXLOC; 3.a. single data test
  await twoAccs(win, 1, minePlus, mpi.MAXLOC, mine, mpi.REPLACE);
  await win.fence(0);
  if (me === 0) {
    expected[0] = { loc: nproc - 1, val: nproc };
    verifyResult(1, expected[0], 'Single data test case for MAXLOC and REPLACE');
  }
  if (me === 0) [data[0], data[1]] = [0, 0];
  await win.fence(0);
  // 3.b. large array test
  await twoAccs(win, ARRAY_LEN, minePlus, mpi.MAXLOC, mine, mpi.REPLACE);
  await win.fence(0);
  if (me === 0) verifyResult(ARRAY_LEN, expected[0]!, 'Large array test case for MAXLOC and REPLACE');
  // test MINLOC
  if (me === 0) data.fill(INT_MAX);
  await win.fence(0);
  // 3.c. single data test
  await twoAccs(win, 1, minePlus, mpi.REPLACE, mine, mpi.MINLOC);
  await win.fence(0);
  if (me === 0) {
    expected[0] = { loc: nproc - 1, val: nproc };
    verifyResult(1, expected[0], 'Single data test case for REPLACE and MINLOC');
  }
  if (me === 0) [data[0], data[1]] = [INT_MAX, INT_MAX];
  await win.fence(0);
  // 3.d. large array test
  await twoAccs(win, ARRAY_LEN, minePlus, mpi.REPLACE, mine, mpi.MINLOC);
  await win.fence(0);
  if (me === 0) verifyResult(ARRAY_LEN, expected[0]!, 'Single data test case for REPLACE and MINLOC');
  await win.free();
  return mt.finalize(errs);
}
