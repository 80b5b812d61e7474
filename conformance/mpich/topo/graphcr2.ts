// MPICH test/mpi/topo/graphcr2.c: graphs with self edges and with duplicate edges (both permitted
// as of MPI 2.1).
import type { MTest, MTestResult } from '../mtest.ts';

export default async function graphcr2(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const size = mpi.size;
  let index: number[] = [];
  let edges: number[] = [];
  for (let i = 0; i < size; i++) {
    index[i] = 1;
    edges[i] = i;
  }
  // MPI reads the first index[size - 1] entries of edges: here index is 1 for every rank, so rank 0
  // has the one self edge and the others none
  let comm = (await mpi.graphCreate(index, edges.slice(0, index[size - 1]), false))!;
  if (comm.size !== size) {
    errs++;
    mt.printf(`Graph create with self links has size ${comm.size} should be ${size}`);
  }
  await comm.free();
  // a graph with duplicate links
  index = [];
  edges = [];
  let j = 0;
  for (let i = 0; i < size; i++) {
    index[i] = j + 2;
    edges[j++] = (i + 1) % size;
    edges[j++] = (i + 1) % size;
  }
  comm = (await mpi.graphCreate(index, edges, false))!;
  if (comm.size !== size) {
    errs++;
    mt.printf(`Graph create with duplicate links has size ${comm.size} should be ${size}`);
  }
  await comm.free();
  return mt.finalize(errs);
}
