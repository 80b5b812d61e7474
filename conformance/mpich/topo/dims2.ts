// MPICH test/mpi/topo/dims2.c: edge cases of MPI_Dims_create: some dimensions given, or all.
import type { MTest, MTestResult } from '../mtest.ts';

const prodof = (dims: readonly number[]): number => dims.reduce((a, b) => a * b, 1);

export default async function dims2(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  // 2-dimensional tests
  for (let nnodes = 1; nnodes <= 32; nnodes = nnodes * 2) {
    let dims = mpi.dimsCreate(nnodes, [0, nnodes]);
    if (prodof(dims) !== nnodes) {
      errs++;
      mt.printf(`Dims_create returned the wrong decomposition.  Is [${dims[0]} x ${dims[1]}], should be 1 x ${nnodes}`);
    }
    // nothing to do: all dimensions given
    dims = mpi.dimsCreate(nnodes, [1, nnodes]);
    if (prodof(dims) !== nnodes) {
      errs++;
      mt.printf(`Dims_create returned the wrong decomposition (all given).  Is [${dims[0]} x ${dims[1]}], should be 1 x ${nnodes}`);
    }
  }
  // 4-dimensional tests
  for (let nnodes = 4; nnodes <= 32; nnodes = nnodes * 2) {
    let dims = mpi.dimsCreate(nnodes, [0, nnodes / 2, 0, 2]);
    if (prodof(dims) !== nnodes) {
      errs++;
      mt.printf(`Dims_create returned the wrong decomposition.  Is [${dims.join(' x ')}], should be 1 x ${nnodes / 2} x 1 x 2`);
    }
    dims = mpi.dimsCreate(nnodes, [1, nnodes / 2, 1, 2]);
    if (prodof(dims) !== nnodes) {
      errs++;
      mt.printf(`Dims_create returned the wrong decomposition (all given).  Is [${dims.join(' x ')}], should be 1 x ${nnodes / 2} x 1 x 2`);
    }
  }
  return mt.finalize(errs);
}
