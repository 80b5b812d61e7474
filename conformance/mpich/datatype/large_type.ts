// MPICH test/mpi/datatype/large_type.c: types of more than 2 GiB built from int-count calls (1 MiB
// chunks of MPI_BYTE: a contiguous of chunks, a struct of chunks plus a remainder with
// displacements past 2 GiB, an hindexed of chunks), checked with MPI_Type_size_x and
// MPI_Type_get_true_extent_x: size as expected, true lower bound 0, true extent the size. phit's
// sizes are numbers exact to 2^53, so its typeSize and typeGetTrueExtent are the `_x` forms too.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Datatype, Mpi } from '../../../runtime/mpi/mpi.ts';
import { testtype } from './type_large.ts';

/** make_largexfer_type_struct: chunks of 1 MiB, plus a struct for the remainder. */
function makeLargexferTypeStruct(mpi: Mpi, nbytes: number): Datatype {
  const typechunkSize = 1024 * 1024;
  const chunkCount = Math.floor(nbytes / typechunkSize);
  const remainder = nbytes % typechunkSize;
  const chunktype = mpi.typeCommit(mpi.typeContiguous(typechunkSize, mpi.BYTE));
  let memtype: Datatype;
  if (remainder === 0) {
    // a zero remainder means we can just count contigs
    memtype = mpi.typeContiguous(chunkCount, chunktype);
  } else {
    // some number of chunks plus remaining bytes tacked on at the end
    memtype = mpi.typeCreateStruct(2, [chunkCount, remainder], [0, typechunkSize * chunkCount], [chunktype, mpi.BYTE]);
  }
  mpi.typeFree(chunktype);
  return mpi.typeCommit(memtype);
}

/** make_largexfer_type_hindexed: ceil(nbytes / 1 MiB) blocks of bytes. */
function makeLargexferTypeHindexed(mpi: Mpi, nbytes: number): Datatype {
  const chunkSize = 1024 * 1024;
  const count = 1 + Math.floor((nbytes - 1) / chunkSize);
  const blocklens = new Array<number>(count).fill(0);
  const disp = new Array<number>(count).fill(0);
  let i = 0;
  for (; i < count - 1; i++) {
    blocklens[i] = chunkSize;
    disp[i] = chunkSize * i;
  }
  blocklens[count - 1] = nbytes - chunkSize * i;
  disp[count - 1] = chunkSize * (count - 1);
  return mpi.typeCommit(mpi.typeCreateHindexed(count, blocklens, disp, mpi.BYTE));
}

export default async function largeType(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const expectedSizes = [1024 * 1024 * 2400, 2346319872, 2346319872];
  const types = [
    // a contig type, itself large, but does not need 8 byte aints
    makeLargexferTypeStruct(mpi, expectedSizes[0]!),
    // struct with addresses out past 2 GiB
    makeLargexferTypeStruct(mpi, expectedSizes[1]!),
    // similar, but with hindexed type
    makeLargexferTypeHindexed(mpi, expectedSizes[2]!),
  ];
  for (let i = 0; i < types.length; i++) {
    errs += testtype(mt, types[i]!, expectedSizes[i]!);
    mpi.typeFree(types[i]!);
  }
  return mt.finalize(errs);
}
