// MPICH test/mpi/topo/dgraph_unwgt.c: an unweighted distributed graph of a bidirectional ring, made
// with MPI_Dist_graph_create and MPI_Dist_graph_create_adjacent, is a dist-graph topology whose
// neighbours are each rank's ring neighbours; a failed check aborts.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Comm } from '../../../runtime/mpi/mpi.ts';

const RING_NUM_NEIGHBORS = 2;

export default async function dgraphUnwgt(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const errs = 0;
  const worldSize = mpi.size;
  const worldRank = mpi.rank;
  const validate = (g: Comm): boolean => {
    if (g.topoTest() !== 'dist_graph') mt.printf('dgraph_comm is NOT of type MPI_DIST_GRAPH');
    const { indegree: srcSz, outdegree: destSz, weighted } = g.distGraphNeighborsCount();
    if (weighted) {
      mt.printf('dgraph_comm is NOT created with MPI_UNWEIGHTED');
      return false;
    }
    if (srcSz !== RING_NUM_NEIGHBORS || destSz !== RING_NUM_NEIGHBORS) {
      mt.printf(`source or destination edge array is not of size ${RING_NUM_NEIGHBORS}.`);
      mt.printf(`src_sz = ${srcSz}, dest_sz = ${destSz}`);
      return false;
    }
    const { sources, dests } = g.distGraphNeighbors();
    for (const [what, list] of [
      ['srcs', sources],
      ['dests', dests],
    ] as const) {
      for (let idx = 0; idx < list.length; idx++) {
        const sep = Math.abs(list[idx]! - worldRank);
        if (sep !== 1 && sep !== worldSize - 1) {
          mt.printf(`${what}[${idx}]=${list[idx]} is NOT a neighbor of my rank ${worldRank}.`);
          return false;
        }
      }
    }
    return true;
  };
  const left = worldRank - 1 < 0 ? worldSize - 1 : worldRank - 1;
  const right = worldRank + 1 >= worldSize ? 0 : worldRank + 1;
  let g = await mpi.distGraphCreate([worldRank], [2], [left, right], null, true);
  if (!validate(g)) throw new Error('MPI_Dist_graph_create() does NOT create a bidirectional ring graph!');
  await g.free();
  g = await mpi.distGraphCreateAdjacent([left, right], null, [left, right], null, true);
  if (!validate(g)) throw new Error('MPI_Dist_graph_create_adjacent() does NOT create a bidirectional ring graph!');
  await g.free();
  return mt.finalize(errs);
}
