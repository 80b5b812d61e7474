// MPICH test/mpi/coll/neighb_alltoallw2.c: MPI_Neighbor_alltoallw on a distributed graph where
// rank 0 sends one int to ranks 1 and 2 and nobody sends to rank 0; the arrays of the ranks
// without neighbours hold -1 entries that MPI never reads (MPI_DATATYPE_NULL: MPI_INT stands for
// it, phit having no null datatype).
import type { MTest, MTestResult } from '../mtest.ts';

export default async function neighbAlltoallw2(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  const size = mpi.size;
  if (size !== 3) {
    mt.printf('This test require exactly 3 processes');
    return mt.finalize(errs);
  }
  // a distributed graph where rank 0 sends to ranks 1 and 2
  const indegree = [0, 1, 1];
  const sources = [[-1], [0], [0]];
  const outdegree = [2, 0, 0];
  const destinations = [
    [1, 2],
    [-1, -1],
    [-1, -1],
  ];
  const reorder = false;
  const neighComm = await mpi.distGraphCreateAdjacent(sources[rank]!.slice(0, indegree[rank]), null, destinations[rank]!.slice(0, outdegree[rank]), null, reorder);
  // a single int from rank 0 to ranks 1 and 2
  const sendBuf = [Int32Array.of(0), Int32Array.of(-1), Int32Array.of(-2)];
  const sendcounts = [
    [1, 1],
    [-1, -1],
    [-1, -1],
  ];
  const sdispls = [
    [0, 0],
    [-1, -1],
    [-1, -1],
  ];
  const DATATYPE_NULL = mpi.INT;
  const sendtypes = [
    [mpi.INT, mpi.INT],
    [DATATYPE_NULL, DATATYPE_NULL],
    [DATATYPE_NULL, DATATYPE_NULL],
  ];
  const recvBuf = [Int32Array.of(-3), Int32Array.of(-4), Int32Array.of(-5)];
  const recvcounts = [[-1], [1], [1]];
  const rdispls = [[-1], [0], [0]];
  const recvtypes = [[DATATYPE_NULL], [mpi.INT], [mpi.INT]];
  await neighComm.neighborAlltoallw(sendBuf[rank]!, sendcounts[rank]!, sdispls[rank]!, sendtypes[rank]!, recvBuf[rank]!, recvcounts[rank]!, rdispls[rank]!, recvtypes[rank]!);
  // check the receive buffer
  const refRecvBuf = [-3, 0, 0];
  if (recvBuf[rank]![0] !== refRecvBuf[rank]) {
    errs++;
    mt.printf(`rank: ${rank}, expected: ${refRecvBuf[rank]}, actual value: ${recvBuf[rank]![0]}`);
  }
  await neighComm.free();
  return mt.finalize(errs);
}
