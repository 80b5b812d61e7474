// MPICH test/mpi/datatype/darray_pack.c: every rank pretends to be each process of a 3x3 block
// distribution of a 3x3 int array and of a 6x3x2x2 array on a 6x3x1x1 grid (the last two
// dimensions not distributed); packing and unpacking the darray type restores exactly that
// process's elements and leaves the rest zero.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Datatype, Mpi } from '../../../runtime/mpi/mpi.ts';

/** pack_and_unpack of the original: pack `count` of `datatype`, zero the buffer, unpack. */
function packAndUnpack(mt: MTest, mpi: Mpi, typebuf: Int32Array, count: number, datatype: Datatype): number {
  let errs = 0;
  const typeSize = mpi.typeSize(datatype) * count;
  const packbuf = new Uint8Array(mpi.packSize(count, datatype));
  let position = mpi.pack(typebuf, count, datatype, packbuf, 0);
  if (position !== typeSize) {
    errs++;
    mt.printf(`position = ${position}; should be ${typeSize} (pack)`);
  }
  typebuf.fill(0);
  position = mpi.unpack(packbuf.subarray(0, typeSize), 0, typebuf, count, datatype);
  if (position !== typeSize) {
    errs++;
    mt.printf(`position = ${position}; should be ${typeSize} (unpack)`);
  }
  return errs;
}

function darray2dCTest1(mt: MTest, mpi: Mpi): number {
  const array = new Int32Array(9);
  let errs = 0;
  for (let rank = 0; rank < 9; rank++) {
    for (let i = 0; i < 9; i++) array[i] = i;
    const darray = mpi.typeCommit(mpi.typeCreateDarray(9, rank, 2, [3, 3], [mpi.DISTRIBUTE_BLOCK, mpi.DISTRIBUTE_BLOCK], [mpi.DISTRIBUTE_DFLT_DARG, mpi.DISTRIBUTE_DFLT_DARG], [3, 3], mpi.ORDER_C, mpi.INT));
    const sizeoftype = mpi.typeSize(darray);
    if (sizeoftype !== 4) {
      mt.printf(`size of type = ${sizeoftype}; should be 4`);
      return errs + 1;
    }
    errs += packAndUnpack(mt, mpi, array, 1, darray);
    for (let i = 0; i < 9; i++) {
      const want = i === rank ? rank : 0;
      if (array[i] !== want) {
        errs++;
        mt.printf(`[2d array rank=${rank}]:array[${i}] = ${array[i]}; should be ${want}`);
      }
    }
    mpi.typeFree(darray);
  }
  return errs;
}

function darray4dCTest1(mt: MTest, mpi: Mpi): number {
  const array = new Int32Array(72);
  let errs = 0;
  const D = mpi.DISTRIBUTE_DFLT_DARG;
  for (let rank = 0; rank < 18; rank++) {
    for (let i = 0; i < 72; i++) array[i] = i;
    const darray = mpi.typeCommit(
      mpi.typeCreateDarray(18, rank, 4, [6, 3, 2, 2], [mpi.DISTRIBUTE_BLOCK, mpi.DISTRIBUTE_BLOCK, mpi.DISTRIBUTE_NONE, mpi.DISTRIBUTE_NONE], [D, D, D, D], [6, 3, 1, 1], mpi.ORDER_C, mpi.INT),
    );
    const sizeoftype = mpi.typeSize(darray);
    if (sizeoftype !== 4 * 4) {
      mt.printf(`size of type = ${sizeoftype}; should be ${4 * 4}`);
      return errs + 1;
    }
    errs += packAndUnpack(mt, mpi, array, 1, darray);
    for (let i = 0; i < 72; i++) {
      const want = i >= 4 * rank && i < 4 * rank + 4 ? i : 0;
      if (array[i] !== want) {
        errs++;
        mt.printf(`[4d array rank=${rank}]:array[${i}] = ${array[i]}; should be ${want}`);
      }
    }
    mpi.typeFree(darray);
  }
  return errs;
}

export default async function darrayPack(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  mpi.setErrhandler(mpi.ERRORS_RETURN);
  let errs = 0;
  let err = darray2dCTest1(mt, mpi);
  if (err) mt.printf(`${err} errors in 2d darray c test 1.`);
  errs += err;
  err = darray4dCTest1(mt, mpi);
  if (err) mt.printf(`${err} errors in 4d darray c test 1.`);
  errs += err;
  return mt.finalize(errs);
}
