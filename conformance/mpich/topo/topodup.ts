// MPICH test/mpi/topo/topodup.c: MPI_Comm_dup keeps a Cartesian topology (dims and periods) and a
// graph topology (index and edges).
import type { MTest, MTestResult } from '../mtest.ts';
import { CartComm, type Comm } from '../../../runtime/mpi/mpi.ts';

export default async function topodup(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const wsize = mpi.size;
  const dims = mpi.dimsCreate(wsize, [0, 0]);
  const periods = [false, false];
  let comm1: Comm = (await mpi.cartCreate(dims, periods, false))!;
  let comm2: Comm = await comm1.dup();
  if (comm2.topoTest() !== 'cart' || !(comm2 instanceof CartComm)) {
    errs++;
    mt.printf('Topo type of duped cart was not cart');
  } else {
    // MPI_Cart_get
    for (let i = 0; i < 2; i++) {
      if (comm2.dims[i] !== dims[i]) {
        errs++;
        mt.printf(`${comm2.dims[i]} = outdims[${i}] != dims[${i}] = ${dims[i]}`);
      }
      if (comm2.periods[i] !== periods[i]) {
        errs++;
        mt.printf(`${comm2.periods[i]} = outperiods[${i}] != periods[${i}] = ${periods[i]}`);
      }
    }
  }
  await comm2.free();
  await comm1.free();
  // the same with a graph topology
  if (wsize >= 3) {
    const index: number[] = [2];
    for (let i = 1; i < wsize; i++) index[i] = 2 + index[i - 1]!;
    const edges: number[] = [];
    for (let i = 0; i < wsize; i++) edges.push((i - 1 + wsize) % wsize, (i + 1) % wsize);
    comm1 = (await mpi.graphCreate(index, edges, false))!;
    comm2 = await comm1.dup();
    if (comm2.topoTest() !== 'graph') {
      errs++;
      mt.printf('Topo type of duped graph was not graph');
    } else {
      const { nnodes, nedges } = comm2.graphdimsGet();
      if (nnodes !== wsize) {
        errs++;
        mt.printf(`Nnodes = ${nnodes}, should be ${wsize}`);
      }
      if (nedges !== 2 * wsize) {
        errs++;
        mt.printf(`Nedges = ${nedges}, should be ${2 * wsize}`);
      }
      const out = comm2.graphGet();
      for (let i = 0; i < wsize; i++) {
        if (index[i] !== out.index[i]) {
          mt.printf(`${index[i]} = index[${i}] != outindex[${i}] = ${out.index[i]}`);
          errs++;
        }
      }
      for (let i = 0; i < 2 * wsize; i++) {
        if (edges[i] !== out.edges[i]) {
          mt.printf(`${edges[i]} = edges[${i}] != outedges[${i}] = ${out.edges[i]}`);
          errs++;
        }
      }
    }
    await comm2.free();
    await comm1.free();
  }
  return mt.finalize(errs);
}
