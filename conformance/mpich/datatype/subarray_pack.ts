// MPICH test/mpi/datatype/subarray_pack.c: subarray types of ints in 1, 2 and 4 dimensions, in C
// and Fortran order: each type's size, and its data back in place after pack_and_unpack, the rest
// of the array zeroed (errors returned and counted).
import { rc, type MTest, type MTestResult } from '../mtest.ts';
import { packAndUnpack } from './pack-and-unpack.ts';

const SIZEOF_INT = 4;

/** One of the C's tests: the array, the subarray's arguments, and where the values 1, 2, ... sit. */
interface Case {
  readonly label: string;
  readonly array: readonly number[];
  readonly sizes: readonly number[];
  readonly subsizes: readonly number[];
  readonly starts: readonly number[];
  readonly fortran: boolean;
  /** The indices that keep their values 1, 2, ... in order; every other element must become 0. */
  readonly kept: readonly number[];
}

const ARRAY_4D = [
    -1111, -1112, -1113, -1114, -1115, -1116,
    -1121, -1122, -1123, -1124, -1125, -1126,
    -1131, -1132, -1133, -1134, -1135, -1136,
    -1211, -1212, -1213, -1214, -1215, -1216,
    -1221, -1222, -1223, -1224, -1225, -1226,
    -1231, -1232, -1233, -1234, -1235, -1236,
    -2111, -2112, -2113, -2114, 1, -2116,
    -2121, -2122, -2123, -2124, 2, -2126,
    -2131, -2132, -2133, -2134, 3, -2136,
    -2211, -2212, -2213, -2214, 4, -2216,
    -2221, -2222, -2223, -2224, 5, -2226,
    -2231, -2232, -2233, -2234, 6, -2236,
];

// in the C's order of calls
const CASES: readonly Case[] = [
  { label: '1d subarray c test 1', array: [-1, 1, 2, 3, -2, -3, -4, -5, -6], sizes: [9], subsizes: [3], starts: [1], fortran: false, kept: [1, 2, 3] },
  { label: '1d subarray fortran test 1', array: [-1, 1, 2, 3, -2, -3, -4, -5, -6], sizes: [9], subsizes: [3], starts: [1], fortran: true, kept: [1, 2, 3] },
  { label: '2d subarray c test 1', array: [-1, -2, -3, -4, 1, 2, -5, 3, 4], sizes: [3, 3], subsizes: [2, 2], starts: [1, 1], fortran: false, kept: [4, 5, 7, 8] },
  { label: '2d subarray fortran test 1', array: [-1, -2, -3, -4, 1, 2, -5, -6, -7, -8, -9, -10], sizes: [6, 2], subsizes: [2, 1], starts: [4, 0], fortran: true, kept: [4, 5] },
  { label: '2d subarray c test 2', array: [-1, -2, -3, -4, 1, 2, -5, -6, -7, -8, -9, -10], sizes: [2, 6], subsizes: [1, 2], starts: [0, 4], fortran: false, kept: [4, 5] },
  { label: '4d subarray c test 1', array: ARRAY_4D, sizes: [2, 2, 3, 6], subsizes: [1, 2, 3, 1], starts: [1, 0, 0, 4], fortran: false, kept: [40, 46, 52, 58, 64, 70] },
  { label: '4d subarray fortran test 1', array: ARRAY_4D, sizes: [6, 3, 2, 2], subsizes: [1, 3, 2, 1], starts: [4, 0, 0, 1], fortran: true, kept: [40, 46, 52, 58, 64, 70] },
];

export default async function subarrayPack(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const verbose = mt.argv[0] === '-v';
  mpi.setErrhandler(mpi.ERRORS_RETURN);

  const runCase = async (c: Case): Promise<number> => {
    let e = 0;
    const array = Int32Array.from(c.array);
    let subarray = mpi.INT;
    if (
      await rc(() => {
        subarray = mpi.typeCreateSubarray(c.sizes.length, c.sizes, c.subsizes, c.starts, c.fortran ? mpi.ORDER_FORTRAN : mpi.ORDER_C, mpi.INT);
      })
    ) {
      e++;
      if (verbose) mt.printf(`error in MPI_Type_create_subarray call; aborting after ${e} errors`);
      return e;
    }
    mpi.typeCommit(subarray);
    const sizeoftype = mpi.typeSize(subarray);
    if (sizeoftype !== c.kept.length * SIZEOF_INT) {
      e++;
      if (verbose) mt.printf(`size of type = ${sizeoftype}; should be ${c.kept.length * SIZEOF_INT}`);
      return e;
    }
    // the C does not count pack_and_unpack's own errors here: the data check does
    await packAndUnpack(mt, array, 1, subarray, verbose);
    for (let i = 0; i < array.length; i++) {
      // pack_and_unpack() zeros before unpacking
      const goodval = c.kept.indexOf(i) + 1;
      if (array[i] !== goodval) {
        e++;
        if (verbose) mt.printf(`array[${i}] = ${array[i]}; should be ${goodval}`);
      }
    }
    mpi.typeFree(subarray);
    return e;
  };

  for (const c of CASES) {
    const err = await runCase(c);
    if (err && verbose) mt.printf(`${err} errors in ${c.label}.`);
    errs += err;
  }
  return mt.finalize(errs);
}
