// MPICH test/mpi/datatype/contents.c: MPI_Type_get_envelope and MPI_Type_get_contents on
// MPI_FLOAT (named), a vector of vectors (decoded down to the inner vector through the returned
// handle), a vector of 10 blocks of 2 ints with stride 2 (MPI-2 returns the arguments as given,
// not an optimised contiguous type), an indexed type of ints, an indexed type of vectors, and a
// struct of char, int and float. The original is verbose only with -v; its messages are kept.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Datatype, Mpi } from '../../../runtime/mpi/mpi.ts';

/** Checks the envelope; returns the number of mismatches. */
function checkEnvelope(mt: MTest, t: Datatype, what: string, nints: number, nadds: number, ntypes: number, combiner: number): number {
  const e = mt.mpi.typeGetEnvelope(t);
  let errs = 0;
  if (e.numIntegers !== nints) errs++;
  if (e.numAddresses !== nadds) errs++;
  if (e.numDatatypes !== ntypes) errs++;
  if (e.combiner !== combiner) errs++;
  if (errs) mt.printf(`${what}: envelope ${e.numIntegers}, ${e.numAddresses}, ${e.numDatatypes}, combiner ${e.combiner}; should be ${nints}, ${nadds}, ${ntypes}, ${combiner}`);
  return errs;
}

function countMismatches(mt: MTest, what: string, got: readonly unknown[], want: readonly unknown[]): number {
  let errs = 0;
  for (let i = 0; i < want.length; i++) if (got[i] !== want[i]) errs++;
  if (errs) mt.printf(`${what}: got [${got.join(', ')}], should be [${want.join(', ')}]`);
  return errs;
}

function builtinFloatTest(mt: MTest): number {
  return mt.mpi.typeGetEnvelope(mt.mpi.FLOAT).combiner !== mt.mpi.COMBINER_NAMED ? 1 : 0;
}

function vectorOfVectorsTest(mt: MTest, mpi: Mpi): number {
  const innerVector = mpi.typeVector(2, 1, 2, mpi.INT);
  const outerVector = mpi.typeVector(2, 1, 2, innerVector);
  let errs = checkEnvelope(mt, outerVector, 'outer vector', 3, 0, 1, mpi.COMBINER_VECTOR);
  if (errs) return errs;
  let c = mpi.typeGetContents(outerVector);
  errs += countMismatches(mt, 'outer vector', c.integers, [2, 1, 2]);
  if (errs) return errs;
  const innerVectorCopy = c.datatypes[0]!;
  errs += checkEnvelope(mt, innerVectorCopy, 'inner vector', 3, 0, 1, mpi.COMBINER_VECTOR);
  if (errs) return errs;
  c = mpi.typeGetContents(innerVectorCopy);
  errs += countMismatches(mt, 'inner vector', c.integers, [2, 1, 2]);
  if (errs) return errs;
  mpi.typeFree(innerVectorCopy);
  mpi.typeFree(innerVector);
  mpi.typeFree(outerVector);
  return 0;
}

function optimizableVectorOfBasicsTest(mt: MTest, mpi: Mpi): number {
  const parentType = mpi.typeVector(10, 2, 2, mpi.INT);
  let errs = checkEnvelope(mt, parentType, 'vector', 3, 0, 1, mpi.COMBINER_VECTOR);
  const c = mpi.typeGetContents(parentType);
  errs += countMismatches(mt, 'vector', [...c.integers, c.datatypes[0]], [10, 2, 2, mpi.INT]);
  mpi.typeFree(parentType);
  return errs;
}

function indexedOfBasicsTest(mt: MTest, mpi: Mpi): number {
  const sCount = 3;
  const sBlocklengths = [3, 2, 1];
  const sDisplacements = [10, 20, 30];
  const parentType = mpi.typeIndexed(sCount, sBlocklengths, sDisplacements, mpi.INT);
  let errs = checkEnvelope(mt, parentType, 'indexed', 7, 0, 1, mpi.COMBINER_INDEXED);
  const c = mpi.typeGetContents(parentType);
  errs += countMismatches(mt, 'indexed', [...c.integers, c.datatypes[0]], [sCount, ...sBlocklengths, ...sDisplacements, mpi.INT]);
  mpi.typeFree(parentType);
  return errs;
}

function indexedOfVectorsTest(mt: MTest, mpi: Mpi): number {
  const iCount = 3;
  const iBlocklengths = [3, 2, 1];
  const iDisplacements = [10, 20, 30];
  const innerVector = mpi.typeVector(2, 1, 2, mpi.INT);
  const outerIndexed = mpi.typeIndexed(iCount, iBlocklengths, iDisplacements, innerVector);
  let errs = checkEnvelope(mt, outerIndexed, 'outer indexed', 7, 0, 1, mpi.COMBINER_INDEXED);
  if (errs) return errs;
  let c = mpi.typeGetContents(outerIndexed);
  errs += countMismatches(mt, 'outer indexed', c.integers, [iCount, ...iBlocklengths, ...iDisplacements]);
  if (errs) return errs;
  const innerVectorCopy = c.datatypes[0]!;
  errs += checkEnvelope(mt, innerVectorCopy, 'inner vector', 3, 0, 1, mpi.COMBINER_VECTOR);
  if (errs) return errs;
  c = mpi.typeGetContents(innerVectorCopy);
  errs += countMismatches(mt, 'inner vector', c.integers, [2, 1, 2]);
  if (errs) return errs;
  mpi.typeFree(innerVectorCopy);
  mpi.typeFree(innerVector);
  mpi.typeFree(outerIndexed);
  return 0;
}

function structOfBasicsTest(mt: MTest, mpi: Mpi): number {
  const sCount = 3;
  const sBlocklengths = [3, 2, 1];
  const sDisplacements = [10, 20, 30];
  const sTypes = [mpi.CHAR, mpi.INT, mpi.FLOAT];
  const parentType = mpi.typeCreateStruct(sCount, sBlocklengths, sDisplacements, sTypes);
  let errs = checkEnvelope(mt, parentType, 'struct', 4, 3, 3, mpi.COMBINER_STRUCT);
  const c = mpi.typeGetContents(parentType);
  errs += countMismatches(mt, 'struct', [...c.integers, ...c.addresses, ...c.datatypes], [sCount, ...sBlocklengths, ...sDisplacements, ...sTypes]);
  mpi.typeFree(parentType);
  return errs;
}

export default async function contents(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  mpi.setErrhandler(mpi.ERRORS_RETURN);
  let errs = 0;
  const tests: [string, () => number][] = [
    ['builtin float', () => builtinFloatTest(mt)],
    ['vector of vectors', () => vectorOfVectorsTest(mt, mpi)],
    ['vector of basics', () => optimizableVectorOfBasicsTest(mt, mpi)],
    ['indexed of basics', () => indexedOfBasicsTest(mt, mpi)],
    ['indexed of vectors', () => indexedOfVectorsTest(mt, mpi)],
  ];
  for (const [name, test] of tests) {
    const err = test();
    errs += err;
    if (err) mt.printf(`Found ${err} errors in ${name} test.`);
  }
  errs += structOfBasicsTest(mt, mpi);
  return mt.finalize(errs);
}
