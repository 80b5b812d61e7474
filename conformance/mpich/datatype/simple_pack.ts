// MPICH test/mpi/datatype/simple_pack.c: MPI_FLOAT's envelope is named; MPI_Pack and MPI_Unpack
// of a vector of vectors (the corners of a 3x3 int array) and of a vector of 10 blocks of 2 ints
// with stride 2 (a contiguous run of 20) restore exactly the selected elements.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Mpi } from '../../../runtime/mpi/mpi.ts';

function builtinFloatTest(mpi: Mpi): number {
  return mpi.typeGetEnvelope(mpi.FLOAT).combiner !== mpi.COMBINER_NAMED ? 1 : 0;
}

function vectorOfVectorsTest(mt: MTest, mpi: Mpi): number {
  const array = Int32Array.of(1, -1, 2, -2, -3, -4, 3, -5, 4);
  let errs = 0;
  const innerVector = mpi.typeVector(2, 1, 2, mpi.INT);
  const outerVector = mpi.typeCommit(mpi.typeVector(2, 1, 2, innerVector));
  const sizeoftype = mpi.typeSize(outerVector);
  if (sizeoftype !== 4 * 4) {
    mt.printf(`size of type = ${sizeoftype}; should be ${4 * 4}`);
    return errs + 1;
  }
  const buf = new Uint8Array(sizeoftype);
  let position = mpi.pack(array, 1, outerVector, buf, 0);
  if (position !== sizeoftype) {
    errs++;
    mt.printf(`position = ${position}; should be ${sizeoftype} (pack)`);
  }
  array.fill(0);
  position = mpi.unpack(buf, 0, array, 1, outerVector);
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

function optimizableVectorOfBasicsTest(mt: MTest, mpi: Mpi): number {
  const array = Int32Array.from({ length: 20 }, (_, i) => i);
  let errs = 0;
  const sizeofint = mpi.typeSize(mpi.INT);
  if (sizeofint !== 4) {
    errs++;
    mt.printf(`size of MPI_Int = ${sizeofint}; should be 4`);
  }
  const parentType = mpi.typeCommit(mpi.typeVector(10, 2, 2, mpi.INT));
  const sizeoftype = mpi.typeSize(parentType);
  if (sizeoftype !== 20 * 4) {
    errs++;
    mt.printf(`size of vector = ${sizeoftype}; should be ${20 * 4}`);
  }
  const buf = new Uint8Array(sizeoftype);
  let position = mpi.pack(array, 1, parentType, buf, 0);
  if (position !== sizeoftype) {
    errs++;
    mt.printf(`position = ${position}; should be ${sizeoftype} (pack)`);
  }
  array.fill(0);
  position = mpi.unpack(buf, 0, array, 1, parentType);
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

export default async function simplePack(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  mpi.setErrhandler(mpi.ERRORS_RETURN);
  let errs = builtinFloatTest(mpi);
  errs += vectorOfVectorsTest(mt, mpi);
  errs += optimizableVectorOfBasicsTest(mt, mpi);
  return mt.finalize(errs);
}
