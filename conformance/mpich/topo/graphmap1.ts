// MPICH test/mpi/topo/graphmap1.c: MPI_Graph_map of a singleton graph gives the ranks outside it
// MPI_UNDEFINED (errors returned rather than fatal). MPI reads index[nnodes - 1] entries of edges:
// the arrays passed are those entries of C's.
import { rc, type MTest, type MTestResult } from '../mtest.ts';

export default async function graphmap1(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  mpi.setErrhandler(mpi.ERRORS_RETURN);
  // a singleton graph, containing only the root process: index[0] = 0, so MPI reads none of edges
  const index = [0];
  const edges = [0, 0];
  let newrank = mpi.UNDEFINED;
  const merr = await rc(() => {
    newrank = mpi.graphMap(index.slice(0, 1), edges.slice(0, index[0]));
  });
  if (merr) {
    errs++;
    mt.printf('Graph map returned an error');
  }
  if (rank !== 0 && newrank !== mpi.UNDEFINED) {
    errs++;
    mt.printf('Graph map with no local nodes did not return MPI_UNDEFINED');
  }
  return mt.finalize(errs);
}
