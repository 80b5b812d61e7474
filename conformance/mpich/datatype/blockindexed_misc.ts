// MPICH test/mpi/datatype/blockindexed_misc.c: an indexed-block type of one int (size and extent
// of an int), and one of three 2-int vectors at 1, 4 and 5 vector extents (size 6 ints): each
// packed and unpacked into its zeroed buffer, the data back in place (errors returned and counted).
import { rc, type MTest, type MTestResult } from '../mtest.ts';
import { packAndUnpack } from './pack-and-unpack.ts';

export default async function blockindexedMisc(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const verbose = mt.argv[0] === '-v';
  mpi.setErrhandler(mpi.ERRORS_RETURN);

  // a blockindexed that can be converted to a contig easily (for coverage)
  const blockindexedContigTest = async (): Promise<number> => {
    let e = 0;
    const buf = Int32Array.of(7, -1, -2, -3);
    let newtype = mpi.INT;
    if (
      await rc(() => {
        newtype = mpi.typeCreateIndexedBlock(1, 1, [0], mpi.INT);
      })
    ) {
      if (verbose) mt.printf('error creating struct type in blockindexed_contig_test()');
      e++;
    }
    const intSize = mpi.typeSize(mpi.INT);
    let size = -1;
    if (
      await rc(() => {
        size = mpi.typeSize(newtype);
      })
    ) {
      if (verbose) mt.printf('error obtaining type size in blockindexed_contig_test()');
      e++;
    }
    if (size !== intSize) {
      if (verbose) mt.printf('error: size != int_size in blockindexed_contig_test()');
      e++;
    }
    let extent = -1;
    if (
      await rc(() => {
        extent = mpi.typeGetExtent(newtype).extent;
      })
    ) {
      if (verbose) mt.printf('error obtaining type extent in blockindexed_contig_test()');
      e++;
    }
    if (extent !== intSize) {
      if (verbose) mt.printf('error: extent != int_size in blockindexed_contig_test()');
      e++;
    }
    mpi.typeCommit(newtype);
    const err = await packAndUnpack(mt, buf, 1, newtype, verbose);
    if (err !== 0) {
      if (verbose) mt.printf('error packing/unpacking in blockindexed_contig_test()');
      e += err;
    }
    for (let i = 0; i < 4; i++) {
      // pack_and_unpack() zeros before unpack
      const goodval = i === 0 ? 7 : 0;
      if (buf[i] !== goodval) {
        e++;
        if (verbose) mt.printf(`buf[${i}] = ${buf[i]}; should be ${goodval}`);
      }
    }
    mpi.typeFree(newtype);
    return e;
  };

  // a blockindexed of some vector types: not easily convertible into anything else
  const blockindexedVectorTest = async (): Promise<number> => {
    let e = 0;
    const NELT = 18;
    const buf = Int32Array.of(-1, -1, -1, 1, -2, 2, -3, -3, -3, -4, -4, -4, 3, -5, 4, 5, -6, 6);
    const expected = [0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 0, 3, 0, 4, 5, 0, 6];
    // a vector type of 2 ints, skipping one in between
    let vectype = mpi.INT;
    if (
      await rc(() => {
        vectype = mpi.typeVector(2, 1, 2, mpi.INT);
      })
    ) {
      if (verbose) mt.printf('error creating vector type in blockindexed_contig_test()');
      e++;
    }
    let newtype = mpi.INT;
    if (
      await rc(() => {
        newtype = mpi.typeCreateIndexedBlock(3, 1, [1, 4, 5], vectype);
      })
    ) {
      if (verbose) mt.printf('error creating blockindexed type in blockindexed_contig_test()');
      e++;
    }
    const intSize = mpi.typeSize(mpi.INT);
    let size = -1;
    if (
      await rc(() => {
        size = mpi.typeSize(newtype);
      })
    ) {
      if (verbose) mt.printf('error obtaining type size in blockindexed_contig_test()');
      e++;
    }
    if (size !== 6 * intSize) {
      if (verbose) mt.printf('error: size != 6 * int_size in blockindexed_contig_test()');
      e++;
    }
    mpi.typeCommit(newtype);
    const err = await packAndUnpack(mt, buf, 1, newtype, verbose);
    if (err !== 0) {
      if (verbose) mt.printf('error packing/unpacking in blockindexed_vector_test()');
      e += err;
    }
    for (let i = 0; i < NELT; i++) {
      if (buf[i] !== expected[i]) {
        e++;
        if (verbose) mt.printf(`buf[${i}] = ${buf[i]}; should be ${expected[i]}`);
      }
    }
    mpi.typeFree(vectype);
    mpi.typeFree(newtype);
    return e;
  };

  let err = await blockindexedContigTest();
  if (err && verbose) mt.printf(`${err} errors in blockindexed test.`);
  errs += err;
  err = await blockindexedVectorTest();
  if (err && verbose) mt.printf(`${err} errors in blockindexed vector test.`);
  errs += err;
  return mt.finalize(errs);
}
