// MPICH test/mpi/coll/uoplong.c: a user-defined op on up to 1,048,576 items (a talk at EuroMPI'12
// claimed such ops failed beyond 64k elements): each item is a triple of doubles (a contiguous
// type of 3 doubles: one op item of 3 elements here) combined as (sum, max, min).
import { userOp, type MTest, type MTestResult } from '../mtest.ts';

const MAX_ERRS = 10;
const MAX_COUNT = 1200000;

/** cout = (cin + cout, max, min) for each of count triples. */
function myop(cin: Float64Array, cout: Float64Array, count: number): void {
  for (let i = 0, k = 0; i < count; i++, k += 3) {
    cout[k]! += cin[k]!;
    cout[k + 1] = cout[k + 1]! > cin[k + 1]! ? cout[k + 1]! : cin[k + 1]!;
    cout[k + 2] = cout[k + 2]! < cin[k + 2]! ? cout[k + 2]! : cin[k + 2]!;
  }
}

export default async function uoplong(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const op = userOp(mpi, myop, false, 3);
  const wsize = mpi.size;
  const wrank = mpi.rank;
  for (let count = 1; count < MAX_COUNT; count += count) {
    if (wrank === 0) mt.printfMsg(1, `Count = ${count}`);
    const inVal = new Float64Array(3 * count);
    const outVal = new Float64Array(3 * count);
    for (let i = 0; i < count * 3; i++) {
      outVal[i] = -1;
      inVal[i] = 1 + (i & 0x3);
    }
    await mpi.reduce(inVal, outVal, op, 0);
    if (wrank === 0) {
      for (let i = 0; i < 3 * count; i += 3) {
        const sumval = wsize * (1 + (i & 0x3));
        const maxval = 1 + ((i + 1) & 0x3);
        const minval = 1 + ((i + 2) & 0x3);
        for (const [k, want, what] of [
          [i, sumval, 'sum'],
          [i + 1, maxval, 'max'],
          [i + 2, minval, 'min'],
        ] as const) {
          if (outVal[k] !== want) {
            if (errs < MAX_ERRS) mt.printf(`${count}: outval[${k}] = ${outVal[k]}, expected ${want} (${what})`);
            errs++;
          }
        }
      }
    }
  }
  return mt.finalize(errs);
}
