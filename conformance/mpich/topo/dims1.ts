// MPICH test/mpi/topo/dims1.c: MPI_Dims_create decompositions multiply to nnodes and do not
// increase (MPI-1 section 6.5), for six cases in 2 and 4 dimensions.
import type { MTest, MTestResult } from '../mtest.ts';

const prodof = (dims: readonly number[]): number => dims.reduce((a, b) => a * b, 1);

export default async function dims1(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const increasing = (dims: readonly number[]): boolean => {
    let err = false;
    for (let i = 1; i < dims.length; i++) {
      if (dims[i]! > dims[i - 1]!) {
        mt.printf(`${dims[i]} = dims[${i}] > dims[${i - 1}] = ${dims[i - 1]}`);
        err = true;
      }
    }
    return err;
  };
  const cases: [number, number][] = [
    [2 * 3 * 5 * 7 * 11, 2],
    [2 * 7, 2],
    [2 * 2 * 3 * 3 * 5 * 7 * 11, 2],
    [11, 2],
    [5 * 7 * 11, 4],
    [64, 4],
  ];
  for (const [nnodes, ndims] of cases) {
    const dims = mpi.dimsCreate(nnodes, new Array<number>(ndims).fill(0));
    if (prodof(dims) !== nnodes) {
      errs++;
      mt.printf(`dims create returned the wrong decomposition for ${nnodes} in ${ndims} dims`);
    }
    if (increasing(dims)) {
      errs++;
      mt.printf('dims create returned a decomposition with increasing dimensions (see MPI-1 standard section 6.5)');
      mt.printf(`dims create returned the wrong decomposition for ${nnodes} in ${ndims} dims`);
    }
  }
  return mt.finalize(errs);
}
