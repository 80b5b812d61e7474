// MPICH test/mpi/topo/distgraph1.c: distributed graph topologies (MPI 2.2) on ten layouts (complete,
// every other edge, self edges only, none, random with C's rand()), made with
// MPI_Dist_graph_create_adjacent and with MPI_Dist_graph_create from outgoing edges, from incoming
// edges and from rank 0 alone, each checked (neighbours, degrees, weights, also on a dup), then the
// empty graph with and without weights. MPI_UNWEIGHTED is null here, MPI_WEIGHTS_EMPTY and C's
// NULL arrays of no entries are empty arrays.
import { assert, CRand, RAND_MAX, type MTest, type MTestResult } from '../mtest.ts';
import type { Comm } from '../../../runtime/mpi/mpi.ts';

const NUM_GRAPHS = 10;
const MAX_WEIGHT = 100;

export default async function distgraph1(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const size = mpi.size;
  const rank = mpi.rank;
  const layout: Int32Array[] = [];
  for (let i = 0; i < size; i++) layout[i] = new Int32Array(size);
  let graphLayoutName = '';

  const createGraphLayout = async (graphNum: number): Promise<void> => {
    if (rank === 0) {
      switch (graphNum) {
        case 0:
          graphLayoutName = 'deterministic complete graph';
          for (let i = 0; i < size; i++) for (let j = 0; j < size; j++) layout[i]![j] = (i + 2) * (j + 1);
          break;
        case 1:
          graphLayoutName = 'every other edge deleted';
          for (let i = 0; i < size; i++) for (let j = 0; j < size; j++) layout[i]![j] = j % 2 ? (i + 2) * (j + 1) : 0;
          break;
        case 2:
          graphLayoutName = 'only self-edges';
          for (let i = 0; i < size; i++) for (let j = 0; j < size; j++) layout[i]![j] = i === rank && j === rank ? 10 * (i + 1) : 0;
          break;
        case 3:
          graphLayoutName = 'no edges';
          for (let i = 0; i < size; i++) layout[i]!.fill(0);
          break;
        default: {
          graphLayoutName = 'a random incomplete graph';
          const c = new CRand(graphNum);
          // layout[i][j] == w: an edge from i to j of weight w; w == 0: no edge
          for (let i = 0; i < size; i++) {
            for (let j = 0; j < size; j++) {
              // disable about a third of the edges
              if ((c.rand() * 1.0) / RAND_MAX < 0.33) layout[i]![j] = 0;
              else layout[i]![j] = c.rand() % MAX_WEIGHT;
            }
          }
          break;
        }
      }
    }
    // because of the randomization the graph is made on rank 0 and sent to all
    const name = new Uint8Array(256);
    name.set(new TextEncoder().encode(graphLayoutName).subarray(0, 255));
    await mpi.bcast(name, 0);
    graphLayoutName = new TextDecoder().decode(name.subarray(0, name.indexOf(0)));
    for (let i = 0; i < size; ++i) await mpi.bcast(layout[i]!, 0);
  };

  const verifyComm = async (orig: Comm): Promise<number> => {
    let localErrs = 0;
    let comm = orig;
    let dupcomm: Comm | null = null;
    let indegree = 0;
    let outdegree = 0;
    let weighted = false;
    for (let useDup = 0; useDup <= 1; ++useDup) {
      if (!useDup) {
        ({ indegree, outdegree, weighted } = comm.distGraphNeighborsCount());
      } else {
        dupcomm = await comm.dup();
        comm = dupcomm;
      }
      if (comm.topoTest() !== 'dist_graph') {
        mt.printf('topo_type != MPI_DIST_GRAPH');
        ++localErrs;
      }
      let j = 0;
      for (let i = 0; i < size; i++) if (layout[i]![rank]) j++;
      if (j !== indegree) {
        mt.printf(`indegree does not match, expected=${indegree} got=${j}, layout='${graphLayoutName}'`);
        ++localErrs;
      }
      j = 0;
      for (let i = 0; i < size; i++) if (layout[rank]![i]) j++;
      if (j !== outdegree) {
        mt.printf(`outdegree does not match, expected=${outdegree} got=${j}, layout='${graphLayoutName}'`);
        ++localErrs;
      }
      if ((indegree || outdegree) && !weighted) {
        mt.printf('MPI_Dist_graph_neighbors_count thinks the graph is not weighted');
        ++localErrs;
      }
      const { sources, sourceWeights, dests, destWeights } = comm.distGraphNeighbors();
      const sweights = sourceWeights ?? [];
      const dweights = destWeights ?? [];
      // each edge of the matrix is among the sources or destinations
      for (let i = 0; i < size; i++) {
        if (layout[i]![rank]) {
          for (j = 0; j < indegree; j++) {
            assert(sources[j]! >= 0, 'sources[j] >= 0');
            assert(sources[j]! < size, 'sources[j] < size');
            if (sources[j] === i) break;
          }
          if (j === indegree) {
            mt.printf(`no edge from ${i} to ${rank} specified`);
            ++localErrs;
          } else if (sweights[j] !== layout[i]![rank]) {
            mt.printf(`incorrect weight for edge (${i},${rank}): ${sweights[j]} instead of ${layout[i]![rank]}`);
            ++localErrs;
          }
        }
        if (layout[rank]![i]) {
          for (j = 0; j < outdegree; j++) {
            assert(dests[j]! >= 0, 'destinations[j] >= 0');
            assert(dests[j]! < size, 'destinations[j] < size');
            if (dests[j] === i) break;
          }
          if (j === outdegree) {
            mt.printf(`no edge from ${rank} to ${i} specified`);
            ++localErrs;
          } else if (dweights[j] !== layout[rank]![i]) {
            mt.printf(`incorrect weight for edge (${rank},${i}): ${dweights[j]} instead of ${layout[rank]![i]}`);
            ++localErrs;
          }
        }
      }
      // each incoming and outgoing edge has an entry in the matrix
      for (let i = 0; i < indegree; i++) {
        if (layout[sources[i]!]![rank] !== sweights[i]) {
          mt.printf(`edge (${i},${rank}) has a weight ${sweights[i]} instead of ${layout[sources[i]!]![rank]}`);
          ++localErrs;
        }
      }
      for (let i = 0; i < outdegree; i++) {
        if (layout[rank]![dests[i]!] !== dweights[i]) {
          mt.printf(`edge (${rank},${i}) has a weight ${dweights[i]} instead of ${layout[rank]![dests[i]!]}`);
          ++localErrs;
        }
      }
    }
    if (dupcomm !== null) await dupcomm.free();
    return localErrs;
  };

  for (let g = 0; g < NUM_GRAPHS; g++) {
    await createGraphLayout(g);
    if (rank === 0) mt.printfMsg(1, `using graph layout '${graphLayoutName}'`);
    // MPI_Dist_graph_create_adjacent
    let sources: number[] = [];
    let sweights: number[] = [];
    let destinations: number[] = [];
    let dweights: number[] = [];
    let degrees: number[];
    for (let j = 0; j < size; j++) {
      if (layout[j]![rank]) {
        sources.push(j);
        sweights.push(layout[j]![rank]!);
      }
    }
    for (let j = 0; j < size; j++) {
      if (layout[rank]![j]) {
        destinations.push(j);
        dweights.push(layout[rank]![j]!);
      }
    }
    let reorder: number;
    for (reorder = 0; reorder <= 1; reorder++) {
      const comm = await mpi.distGraphCreateAdjacent(sources, sweights, destinations, dweights, reorder !== 0);
      await comm.barrier();
      errs += await verifyComm(comm);
      await comm.free();
    }
    // a weak check that MPI_UNWEIGHTED doesn't make create_adjacent explode (no verify: weights won't match)
    let comm = await mpi.distGraphCreateAdjacent(sources, null, destinations, null, reorder !== 0);
    await comm.barrier();
    await comm.free();

    // MPI_Dist_graph_create where each process gives its outgoing edges
    sources = [rank];
    destinations = [];
    dweights = [];
    for (let j = 0; j < size; j++) {
      if (layout[rank]![j]) {
        destinations.push(j);
        dweights.push(layout[rank]![j]!);
      }
    }
    degrees = [destinations.length];
    for (reorder = 0; reorder <= 1; reorder++) {
      comm = await mpi.distGraphCreate(sources, degrees, destinations, dweights, reorder !== 0);
      await comm.barrier();
      errs += await verifyComm(comm);
      await comm.free();
    }

    // MPI_Dist_graph_create where each process gives its incoming edges
    sources = [];
    sweights = [];
    degrees = [];
    destinations = [];
    for (let j = 0; j < size; j++) {
      if (layout[j]![rank]) {
        sources.push(j);
        sweights.push(layout[j]![rank]!);
        degrees.push(1);
        destinations.push(rank);
      }
    }
    for (reorder = 0; reorder <= 1; reorder++) {
      comm = await mpi.distGraphCreate(sources, degrees, destinations, sweights, reorder !== 0);
      await comm.barrier();
      errs += await verifyComm(comm);
      await comm.free();
    }

    // MPI_Dist_graph_create where rank 0 gives the entire graph (twice: the other ranks then pass
    // arrays of no entries, C's NULLs)
    sources = [];
    sweights = [];
    degrees = [];
    destinations = [];
    for (let j = 0; j < size; j++) {
      for (let k = 0; k < size; k++) {
        if (layout[j]![k]) {
          sources.push(j);
          sweights.push(layout[j]![k]!);
          degrees.push(1);
          destinations.push(k);
        }
      }
    }
    for (let pass = 0; pass < 2; pass++) {
      for (reorder = 0; reorder <= 1; reorder++) {
        comm = rank === 0 ? await mpi.distGraphCreate(sources, degrees, destinations, sweights, reorder !== 0) : await mpi.distGraphCreate([], [], [], [], reorder !== 0);
        await comm.barrier();
        errs += await verifyComm(comm);
        await comm.free();
      }
    }
  }

  // tests that don't depend on the layout: MPI_UNWEIGHTED (null) is not C's NULL ([]) here
  const noGraph = async (what: string, make: () => Promise<Comm>, wantWeighted: boolean): Promise<void> => {
    for (let reorder = 0; reorder <= 1; reorder++) {
      const comm = await make();
      const { weighted } = comm.distGraphNeighborsCount();
      if (weighted !== wantWeighted) {
        mt.printf(`expected weighted == ${wantWeighted ? 'TRUE' : 'FALSE'} for the "${what}" case`);
        ++errs;
      }
      await comm.free();
    }
  };
  await noGraph('no graph', () => mpi.distGraphCreate([], [], [], []), true);
  await noGraph('no graph -- MPI_WEIGHTS_EMPTY', () => mpi.distGraphCreate([], [], [], []), true);
  await noGraph('no graph -- NULLs', () => mpi.distGraphCreate([], [], [], []), true);
  await noGraph('no graph -- NULLs+MPI_UNWEIGHTED', () => mpi.distGraphCreate([], [], [], null), false);
  await noGraph('no graph', () => mpi.distGraphCreateAdjacent([], [], [], []), true);
  await noGraph('no graph -- MPI_WEIGHTS_EMPTY', () => mpi.distGraphCreateAdjacent([], [], [], []), true);
  await noGraph('no graph -- NULLs', () => mpi.distGraphCreateAdjacent([], [], [], []), true);
  await noGraph('no graph -- NULLs+MPI_UNWEIGHTED', () => mpi.distGraphCreateAdjacent([], null, [], null), false);
  return mt.finalize(errs);
}
