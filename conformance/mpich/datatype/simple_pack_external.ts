// MPICH test/mpi/datatype/simple_pack_external.c: MPI_FLOAT's envelope is named; MPI_Pack_external
// and MPI_Unpack_external in "external32" of a vector of vectors (the corners of a 3x3 int array),
// of a vector of 10 blocks of 2 ints with stride 2 and of a struct of 10 blocks of 2 ints (both a
// contiguous run of 20) give MPI_Pack_external_size's size (4 bytes an int) and restore exactly
// the selected elements. The C test builds the struct with MPI-1's MPI_Type_struct, whose
// semantics MPI_Type_create_struct has unchanged (MPI-2.0 §4.14.1): it is built with that here.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Datatype, Mpi } from '../../../runtime/mpi/mpi.ts';

const EXT = 'external32';

function builtinFloatTest(mpi: Mpi): number {
  return mpi.typeGetEnvelope(mpi.FLOAT).combiner !== mpi.COMBINER_NAMED ? 1 : 0;
}

function vectorOfVectorsTest(mt: MTest, mpi: Mpi): number {
  const array = Int32Array.of(1, -1, 2, -2, -3, -4, 3, -5, 4);
  let errs = 0;
  const innerVector = mpi.typeVector(2, 1, 2, mpi.INT);
  const outerVector = mpi.typeCommit(mpi.typeVector(2, 1, 2, innerVector));
  const sizeoftype = mpi.packExternalSize(EXT, 1, outerVector);
  if (sizeoftype !== 4 * 4) {
    mt.printf(`size of type = ${sizeoftype}; should be ${4 * 4}`);
    return errs + 1;
  }
  const buf = new Uint8Array(sizeoftype);
  let position = mpi.packExternal(EXT, array, 1, outerVector, buf, 0);
  if (position !== sizeoftype) {
    errs++;
    mt.printf(`position = ${position}; should be ${sizeoftype} (pack)`);
  }
  array.fill(0);
  position = mpi.unpackExternal(EXT, buf, 0, array, 1, outerVector);
  if (position !== sizeoftype) {
    errs++;
    mt.printf(`position = ${position}; should be ${sizeoftype} (unpack)`);
  }
  const good: Record<number, number> = { 0: 1, 2: 2, 6: 3, 8: 4 };
  for (let i = 0; i < 9; i++) {
    const goodval = good[i] ?? 0;
    if (array[i] !== goodval) {
      errs++;
      mt.printf(`array[${i}] = ${array[i]}; should be ${goodval}`);
    }
  }
  mpi.typeFree(innerVector);
  mpi.typeFree(outerVector);
  return errs;
}

/** Packs and unpacks one `parentType` (20 ints' worth) of 0..19 in external32: the size, positions and values. */
function twentyIntsTest(mt: MTest, mpi: Mpi, sizeofint: number, parentType: Datatype): number {
  let errs = 0;
  const array = Int32Array.from({ length: 20 }, (_, i) => i);
  const sizeoftype = mpi.packExternalSize(EXT, 1, parentType);
  if (sizeoftype !== 20 * sizeofint) {
    errs++;
    mt.printf(`size of vector = ${sizeoftype}; should be ${20 * sizeofint}`);
  }
  const buf = new Uint8Array(sizeoftype);
  let position = mpi.packExternal(EXT, array, 1, parentType, buf, 0);
  if (position !== sizeoftype) {
    errs++;
    mt.printf(`position = ${position}; should be ${sizeoftype} (pack)`);
  }
  array.fill(0);
  position = mpi.unpackExternal(EXT, buf, 0, array, 1, parentType);
  if (position !== sizeoftype) {
    errs++;
    mt.printf(`position = ${position}; should be ${sizeoftype} (unpack)`);
  }
  for (let i = 0; i < 20; i++)
    if (array[i] !== i) {
      errs++;
      mt.printf(`array[${i}] = ${array[i]}; should be ${i}`);
    }
  mpi.typeFree(parentType);
  return errs;
}

/** The external32 size of MPI_INT, which must be 4. */
function sizeofInt(mt: MTest, mpi: Mpi): { sizeofint: number; errs: number } {
  const sizeofint = mpi.packExternalSize(EXT, 1, mpi.INT);
  if (sizeofint === 4) return { sizeofint, errs: 0 };
  mt.printf(`size of external32 MPI_INT = ${sizeofint}; should be 4`);
  return { sizeofint, errs: 1 };
}

function optimizableVectorOfBasicsTest(mt: MTest, mpi: Mpi): number {
  const { sizeofint, errs } = sizeofInt(mt, mpi);
  return errs + twentyIntsTest(mt, mpi, sizeofint, mpi.typeCommit(mpi.typeVector(10, 2, 2, mpi.INT)));
}

function structOfBasicsTest(mt: MTest, mpi: Mpi): number {
  const { sizeofint, errs } = sizeofInt(mt, mpi);
  const blocks = new Array<number>(10).fill(2);
  const indices = Array.from({ length: 10 }, (_, i) => 2 * i * sizeofint);
  const types = new Array<Datatype>(10).fill(mpi.INT);
  return errs + twentyIntsTest(mt, mpi, sizeofint, mpi.typeCommit(mpi.typeCreateStruct(10, blocks, indices, types)));
}

export default async function simplePackExternal(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  mpi.setErrhandler(mpi.ERRORS_RETURN);
  let errs = builtinFloatTest(mpi);
  errs += vectorOfVectorsTest(mt, mpi);
  errs += optimizableVectorOfBasicsTest(mt, mpi);
  errs += structOfBasicsTest(mt, mpi);
  return mt.finalize(errs);
}
