// MPICH test/mpi/datatype/struct_derived_zeros.c: a struct of hvectors of 0, 1 and 2 ints (then of
// three empty hvectors) at displacements 0, -100 and -200 commits and frees.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Datatype } from '../../../runtime/mpi/mpi.ts';

export default async function structDerivedZeros(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const errs = 0;
  const stride = 5;
  const vecs: Datatype[] = [];
  const blockcount: number[] = [];
  // the first time with i ints, the second with none
  for (const count of [(i: number) => i, () => 0]) {
    for (let i = 0; i < 3; i++) {
      vecs[i] = mpi.typeCreateHvector(count(i), 1, stride, mpi.INT);
      mpi.typeCommit(vecs[i]!);
      blockcount[i] = 1;
    }
    // the third displacement is irrelevant
    const displs = [0, -100, -200];
    const mystruct = mpi.typeCreateStruct(3, blockcount, displs, vecs);
    mpi.typeCommit(mystruct);
    mpi.typeFree(mystruct);
    for (let i = 0; i < 3; i++) mpi.typeFree(vecs[i]!);
  }
  return mt.finalize(errs);
}
