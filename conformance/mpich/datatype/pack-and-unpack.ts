// pack_and_unpack() of MPICH's test/mpi/datatype tests (blockindexed_misc.c, indexed_misc.c,
// hindexed_block.c, subarray_pack.c, ...): packs a buffer with its type, zeros the buffer, unpacks
// it again; the data the type describes must be back in place and the rest of the buffer zero.
import { rc, type MTest } from '../mtest.ts';
import type { Datatype } from '../../../runtime/mpi/mpi.ts';

/**
 * Packs `count` of `datatype` from `typebuf` (the pack buffer of MPI_Pack_size, with outsize the
 * type's size times count), zeros `typebuf`, unpacks into it; the errors it found (a position that
 * is not the packed size, a failed call), printed when `verbose`.
 */
export async function packAndUnpack(mt: MTest, typebuf: ArrayBufferView, count: number, datatype: Datatype, verbose: boolean): Promise<number> {
  const { mpi } = mt;
  let errs = 0;
  let typeSize = 0;
  if (
    await rc(() => {
      typeSize = mpi.typeSize(datatype);
    })
  ) {
    errs++;
    if (verbose) mt.printf(`error in MPI_Type_size call; aborting after ${errs} errors`);
    return errs;
  }
  typeSize *= count;
  let packSize = 0;
  if (
    await rc(() => {
      packSize = mpi.packSize(count, datatype);
    })
  ) {
    errs++;
    if (verbose) mt.printf(`error in MPI_Pack_size call; aborting after ${errs} errors`);
    return errs;
  }
  const packbuf = new Uint8Array(packSize);
  let position = 0;
  // MPI_Pack's outsize is type_size (its error code is not checked, its position is)
  await rc(() => {
    position = mpi.pack(typebuf, count, datatype, packbuf.subarray(0, typeSize), 0);
  });
  if (position !== typeSize) {
    errs++;
    if (verbose) mt.printf(`position = ${position}; should be ${typeSize} (pack)`);
  }
  new Uint8Array(typebuf.buffer, typebuf.byteOffset, typebuf.byteLength).fill(0);
  position = 0;
  if (
    await rc(() => {
      position = mpi.unpack(packbuf.subarray(0, typeSize), 0, typebuf, count, datatype);
    })
  ) {
    errs++;
    if (verbose) mt.printf(`error in MPI_Unpack call; aborting after ${errs} errors`);
    return errs;
  }
  if (position !== typeSize) {
    errs++;
    if (verbose) mt.printf(`position = ${position}; should be ${typeSize} (unpack)`);
  }
  return errs;
}
