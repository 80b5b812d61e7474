// MPICH test/mpi/datatype/contigstruct.c: MPI_Pack_size of 2 of a contiguous type of 65,536 structs
// of 8 longs in reverse order (a regression test of the dataloop code).
import type { MTest, MTestResult } from '../mtest.ts';

export default async function contigstruct(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const blocklens: number[] = [];
  const displs: number[] = [];
  const oldtypes = [];
  for (let i = 0; i < 8; i++) {
    blocklens[i] = 1;
    displs[i] = (7 - i) * 8;
    oldtypes[i] = mpi.LONG;
  }
  const ntype1 = mpi.typeCreateStruct(8, blocklens, displs, oldtypes);
  const ntype2 = mpi.typeContiguous(65536, ntype1);
  mpi.typeCommit(ntype2);
  mpi.packSize(2, ntype2);
  mpi.typeFree(ntype2);
  mpi.typeFree(ntype1);
  return mt.finalize(0);
}
