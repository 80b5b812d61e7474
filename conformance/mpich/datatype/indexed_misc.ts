// MPICH test/mpi/datatype/indexed_misc.c: indexed types with zero-length blocks first, in the
// middle and last (zero-length blocks do not move lb or ub), an indexed type that could be
// compacted, zero-length blocks at huge displacements (indexed and hindexed, alone and inside a
// struct), and equal block lengths at uneven displacements; each packed and unpacked into its
// zeroed buffer, the data back in place (errors returned and counted).
import { rc, type MTest, type MTestResult } from '../mtest.ts';
import type { Datatype } from '../../../runtime/mpi/mpi.ts';
import { packAndUnpack } from './pack-and-unpack.ts';

const SIZEOF_INT = 4;
const INT_MAX = 2147483647;
// the C's LLONG_MAX (MPI_Aint is a long long where MPICH runs): phit's displacements are exact
// integers in a JS number, so the largest it can hold stands for it
const LLONG_MAX = Number.MAX_SAFE_INTEGER;

export default async function indexedMisc(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const verbose = mt.argv[0] === '-v';
  mpi.setErrhandler(mpi.ERRORS_RETURN);

  /** The C's check(cond_): counts a condition that does not hold. */
  const check = (cond: boolean, what: string): number => {
    if (cond) return 0;
    if (verbose) mt.printf(`condition '${what}' does not hold`);
    return 1;
  };
  /** The C's check_err(err_, what_failed_): adds a nonzero error count. */
  const checkErr = (err: number, what: string): number => {
    if (err && verbose) mt.printf(`error: ${what}`);
    return err;
  };
  /** 10 ints 1..10, packed and unpacked with `type`: those at `kept` stay, the others become 0. */
  const roundTrip10 = async (type: Datatype, kept: (i: number) => boolean, what: string): Promise<number> => {
    let e = 0;
    const buf = new Int32Array(10);
    for (let i = 0; i < 10; ++i) buf[i] = i + 1;
    e += checkErr(await packAndUnpack(mt, buf, 1, type, verbose), what);
    for (let i = 0; i < 10; ++i) e += check(buf[i] === (kept(i) ? i + 1 : 0), `buf[${i}] == expected`);
    return e;
  };
  /** lb and ub of `type` must be `lbInts` and `ubInts` ints. */
  const bounds = (type: Datatype, lbInts: number, ubInts: number): number => {
    const { lb, extent } = mpi.typeGetExtent(type);
    return check(lb === lbInts * SIZEOF_INT, `lb == ${lbInts} * sizeof(int)`) + check(lb + extent === ubInts * SIZEOF_INT, `ub == ${ubInts} * sizeof(int)`);
  };

  const zeroblockTest = async (len: number[], disp: number[]): Promise<number> => {
    let e = 0;
    let type = mpi.INT;
    if (
      await rc(() => {
        type = mpi.typeIndexed(3, len, disp, mpi.INT);
      })
    ) {
      if (verbose) mt.printf('error creating indexed type');
      e += 1;
    }
    const { lb, extent } = mpi.typeGetExtent(type);
    if (lb !== SIZEOF_INT) {
      if (verbose) mt.printf(`lb mismatch; is ${lb}, should be ${SIZEOF_INT}`);
      e++;
    }
    const ub = lb + extent;
    if (ub !== 5 * SIZEOF_INT) {
      if (verbose) mt.printf(`ub mismatch; is ${ub}, should be ${5 * SIZEOF_INT}`);
      e++;
    }
    mpi.typeFree(type);
    return e;
  };

  // an indexed array that can be compacted but should continue to be stored as an indexed type
  const indexedContigTest = async (): Promise<number> => {
    let e = 0;
    const buf = Int32Array.of(-1, 1, 2, 3, -2, 4, 5, -3, 6);
    let newtype = mpi.INT;
    if (
      await rc(() => {
        newtype = mpi.typeIndexed(5, [1, 2, 1, 1, 1], [1, 2, 5, 6, 8], mpi.INT);
      })
    ) {
      if (verbose) mt.printf('error creating indexed type in indexed_contig_test()');
      e++;
    }
    const intSize = mpi.typeSize(mpi.INT);
    let size = -1;
    if (
      await rc(() => {
        size = mpi.typeSize(newtype);
      })
    ) {
      if (verbose) mt.printf('error obtaining type size in indexed_contig_test()');
      e++;
    }
    if (size !== 6 * intSize) {
      if (verbose) mt.printf('error: size != 6 * int_size in indexed_contig_test()');
      e++;
    }
    mpi.typeCommit(newtype);
    const err = await packAndUnpack(mt, buf, 1, newtype, verbose);
    if (err !== 0) {
      if (verbose) mt.printf('error packing/unpacking in indexed_contig_test()');
      e += err;
    }
    // pack_and_unpack() zeros before unpack
    const good = [0, 1, 2, 3, 0, 4, 5, 0, 6];
    for (let i = 0; i < 9; i++) {
      if (buf[i] !== good[i]) {
        e++;
        if (verbose) mt.printf(`buf[${i}] = ${buf[i]}; should be ${good[i]}`);
      }
    }
    mpi.typeFree(newtype);
    return e;
  };

  // very similar to the zeroblock-first test, with a single contig (an optimization path in MPICH)
  const indexedContigLeadingZeroTest = async (): Promise<number> => {
    let e = 0;
    const contig4 = (i: number): boolean => i >= 2 && i < 6;
    const withStructInt = (i: number): boolean => contig4(i) || i === 8;
    let type = mpi.INT;
    e += checkErr(
      await rc(() => {
        type = mpi.typeIndexed(3, [0, 4, 0], [INT_MAX, 2, INT_MAX], mpi.INT);
      }),
      'creating indexed type in indexed_contig_leading_zero_test()',
    );
    e += checkErr(await rc(() => mpi.typeCommit(type)), 'committing indexed type in indexed_contig_leading_zero_test()');
    e += bounds(type, 2, 6);
    // packing/unpacking hits a simple "is_contig" case in MPICH's pack/unpack routines
    e += await roundTrip10(type, contig4, 'packing/unpacking in indexed_contig_leading_zero_test()');
    // a hard-to-optimize struct type: layout xx0123xx4x ('x' a hole, one char an MPI_INT)
    let structType = mpi.INT;
    await rc(() => {
      structType = mpi.typeCreateStruct(2, [1, 1], [0, 8 * SIZEOF_INT], [type, mpi.INT]);
    });
    e += checkErr(await rc(() => mpi.typeCommit(structType)), 'committing struct type in indexed_contig_leading_zero_test()');
    e += await roundTrip10(structType, withStructInt, 'packing/unpacking in indexed_contig_test()');
    mpi.typeFree(structType);
    const indexedType = type;
    // the same with hindexed, at huge displacements to catch pointer-casting bugs
    e += checkErr(
      await rc(() => {
        type = mpi.typeCreateHindexed(3, [0, 4, 0], [LLONG_MAX, 2 * SIZEOF_INT, LLONG_MAX], mpi.INT);
      }),
      'creating hindexed type in indexed_contig_leading_zero_test()',
    );
    e += checkErr(await rc(() => mpi.typeCommit(type)), 'committing hindexed type in indexed_contig_leading_zero_test()');
    e += bounds(type, 2, 6);
    e += await roundTrip10(type, contig4, 'packing/unpacking in indexed_contig_test()');
    // the struct again (its first type still the indexed one, as in the C, whose types[] is unchanged)
    e += checkErr(
      await rc(() => {
        structType = mpi.typeCreateStruct(2, [1, 1], [0, 8 * SIZEOF_INT], [indexedType, mpi.INT]);
      }),
      'committing struct type in indexed_contig_leading_zero_test()',
    );
    e += checkErr(await rc(() => mpi.typeCommit(structType)), 'committing struct type in indexed_contig_leading_zero_test()');
    // fails in old MPICH (3.0rc1 and earlier), despite correct ub/lb determination
    e += await roundTrip10(structType, withStructInt, 'packing/unpacking in indexed_contig_test()');
    mpi.typeFree(structType);
    mpi.typeFree(type);
    return e;
  };

  // equal block lengths at displacements no vector has, after a dummy zero-length element
  const indexedSameLengths = async (): Promise<number> => {
    let e = 0;
    const kept = (i: number): boolean => i === 1 || i === 3 || i === 8;
    let type = mpi.INT;
    e += checkErr(
      await rc(() => {
        type = mpi.typeIndexed(4, [0, 1, 1, 1], [0, 1, 3, 8], mpi.INT);
      }),
      'creating indexed type in indexed_same_lengths()',
    );
    e += checkErr(await rc(() => mpi.typeCommit(type)), 'committing indexed type in indexed_same_lengths()');
    e += bounds(type, 1, 9);
    e += await roundTrip10(type, kept, 'packing/unpacking in indexed_same_lengths()');
    mpi.typeFree(type);
    // the same with hindexed
    e += checkErr(
      await rc(() => {
        type = mpi.typeCreateHindexed(4, [0, 1, 1, 1], [0, 1 * SIZEOF_INT, 3 * SIZEOF_INT, 8 * SIZEOF_INT], mpi.INT);
      }),
      'creating hindexed type in indexed_same_lengths()',
    );
    e += checkErr(await rc(() => mpi.typeCommit(type)), 'committing hindexed type in indexed_same_lengths()');
    e += bounds(type, 1, 9);
    e += await roundTrip10(type, kept, 'packing/unpacking in indexed_same_lengths()');
    mpi.typeFree(type);
    return e;
  };

  const tests: [string, () => Promise<number>][] = [
    ['indexed_contig_test', indexedContigTest],
    ['indexed_zeroblock_first_test', () => zeroblockTest([0, 1, 1], [0, 1, 4])],
    ['indexed_zeroblock_middle_test', () => zeroblockTest([1, 0, 1], [1, 2, 4])],
    ['indexed_zeroblock_last_test', () => zeroblockTest([1, 1, 0], [1, 4, 8])],
    ['indexed_contig_leading_zero_test', indexedContigLeadingZeroTest],
    // the C prints the name of the test before it for this one
    ['indexed_contig_leading_zero_test', indexedSameLengths],
  ];
  for (const [name, test] of tests) {
    const err = await test();
    if (err && verbose) mt.printf(`${err} errors in ${name}.`);
    errs += err;
  }
  return mt.finalize(errs);
}
