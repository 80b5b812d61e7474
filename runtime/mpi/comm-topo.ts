import { PersistentCollComm } from './comm-persistent-coll.ts';
import type { CommShape } from './comm-base.ts';
import { describe, isReduceArray, UNDEFINED } from './constants.ts';
import { neighborExchange, neighborReceives, type NeighborBlocks } from './coll/neighbor.ts';
import type { Coll, Step } from './coll/transport.ts';
import type { Datatype } from './datatype.ts';
import * as typed from './datatype-coll.ts';
import type { Landing } from './datatype-pack.ts';
import { bytes } from './coll/util.ts';
import type { ReduceArray } from './ops.ts';
import { MpiError, type Request } from './request.ts';
import { checkNeighbors, DistGraphTopology, GraphTopology, type Topology } from './topology.ts';

/**
 * A communicator's virtual topologies (MPI chapter 7: graph and distributed-graph topologies,
 * the Cartesian grid's data, topoTest, cartMap, graphMap) and the neighbourhood collectives that
 * run over them, with what making a child communicator needs. `Comm` adds communicator
 * management and makes the communicators (`sub`).
 */
export abstract class TopoComm<C extends TopoComm<C>> extends PersistentCollComm {
  /** Communicators made from this one so far: all members make them in the same order. */
  private children = 0;
  /** The virtual topology attached (MPI_Topo_test), or null. */
  protected topology: Topology | null = null;

  /** A communicator of `members` (world ranks) with the context named `key`, this one's error handler. */
  protected abstract sub(members: readonly number[], key: string): C;

  /** Key naming this rank's next communicator made from this one (the same on every member). */
  protected childKey(what: string): string {
    return `${this.shape.ctx}/${this.children++}/${what}`;
  }

  /** The shape of a communicator of `members` (world ranks) with the context named `key`. */
  protected shapeOf(members: ArrayLike<number>, key: string): CommShape {
    const c = this.world.registry.commFor(key, members);
    return { ...c, rank: c.inv[this.proc.rank]! };
  }

  // ---------------------------------------------------------------- topologies

  /** The kind of topology attached (MPI_Topo_test): 'cart', 'graph', 'dist_graph', or null for none. */
  topoTest(): 'cart' | 'graph' | 'dist_graph' | null {
    this.live('topoTest');
    return this.topology?.kind ?? null;
  }

  /** The rank this one would have in a grid of `dims` made from this communicator, or UNDEFINED (MPI_Cart_map; local). */
  cartMap(dims: readonly number[], periods: readonly boolean[]): number {
    this.live('cartMap');
    if (!Array.isArray(dims) || dims.some((d) => !Number.isInteger(d) || d < 1)) throw new MpiError('MPI_ERR_DIMS', `cartMap: dims=${JSON.stringify(dims)} must be positive integers`);
    if (!Array.isArray(periods) || periods.length !== dims.length) throw new MpiError('MPI_ERR_ARG', `cartMap: periods must have one entry per dimension (${dims.length})`);
    const n = dims.reduce((a, b) => a * b, 1);
    if (n > this.size) throw new MpiError('MPI_ERR_DIMS', `cartMap: the grid ${dims.join('x')} has ${n} ranks, more than the communicator's ${this.size}`);
    return this.rank < n ? this.rank : UNDEFINED;
  }

  /**
   * A communicator with a graph topology (MPI_Graph_create; collective): `index[r]` counts the
   * edges of ranks 0..r, `edges` lists each rank's neighbours in turn. Ranks beyond the graph
   * get null; `reorder` is accepted and ignored.
   */
  async graphCreate(index: readonly number[], edges: readonly number[], reorder = false): Promise<C | null> {
    void reorder;
    this.live('graphCreate');
    const nnodes = Array.isArray(index) ? index.length : 0;
    if (nnodes > this.size) throw new MpiError('MPI_ERR_ARG', `graphCreate: the graph has ${nnodes} ranks, more than the communicator's ${this.size}`);
    GraphTopology.check('graphCreate', nnodes, index, edges);
    const key = this.childKey('graph');
    this.agree({ call: 'graphCreate', counts: [...index, ...edges], countsName: 'index and edges' });
    await this.barrier();
    if (this.rank >= nnodes) return null;
    const c = this.sub(Array.from(this.shape.members.subarray(0, nnodes)), key);
    c.topology = new GraphTopology([...index], [...edges]);
    return c;
  }

  /** The rank this one would have in a graph of `index.length` ranks, or UNDEFINED (MPI_Graph_map; local). */
  graphMap(index: readonly number[], edges: readonly number[]): number {
    this.live('graphMap');
    GraphTopology.check('graphMap', Array.isArray(index) ? index.length : 0, index, edges);
    return this.rank < index.length ? this.rank : UNDEFINED;
  }

  /** Number of ranks and edges of the graph (MPI_Graphdims_get). */
  graphdimsGet(): { nnodes: number; nedges: number } {
    const g = this.graph('graphdimsGet');
    return { nnodes: g.index.length, nedges: g.edges.length };
  }

  /** The graph's index and edges (MPI_Graph_get). */
  graphGet(): { index: number[]; edges: number[] } {
    const g = this.graph('graphGet');
    return { index: [...g.index], edges: [...g.edges] };
  }

  /** Number of neighbours of `rank` in the graph (MPI_Graph_neighbors_count). */
  graphNeighborsCount(rank: number): number {
    return this.neighborsOf('graphNeighborsCount', rank).length;
  }

  /** Neighbours of `rank` in the graph, in the order of edges (MPI_Graph_neighbors). */
  graphNeighbors(rank: number): number[] {
    return this.neighborsOf('graphNeighbors', rank);
  }

  private neighborsOf(call: string, rank: number): number[] {
    const g = this.graph(call);
    if (!Number.isInteger(rank) || rank < 0 || rank >= g.index.length) throw new MpiError('MPI_ERR_RANK', `${call}: rank=${rank} is not a rank of the graph (0..${g.index.length - 1})`);
    return g.neighbors(rank);
  }

  /**
   * A communicator with a distributed graph topology (MPI_Dist_graph_create_adjacent;
   * collective): this rank receives from `sources` and sends to `dests`, with weights or null
   * (MPI_UNWEIGHTED). The ranks keep their order; `reorder` is accepted and ignored.
   */
  async distGraphCreateAdjacent(sources: readonly number[], sourceWeights: readonly number[] | null, dests: readonly number[], destWeights: readonly number[] | null, reorder = false): Promise<C> {
    void reorder;
    const call = 'distGraphCreateAdjacent';
    this.live(call);
    checkNeighbors(call, 'sources', sources, sourceWeights, this.size);
    checkNeighbors(call, 'dests', dests, destWeights, this.size);
    const key = this.childKey('distGraph');
    this.agree({ call });
    await this.barrier();
    return this.distGraph(key, [...sources], sourceWeights && [...sourceWeights], [...dests], destWeights && [...destWeights]);
  }

  /**
   * A distributed graph from edges any rank may give (MPI_Dist_graph_create; collective): for
   * each i, `degrees[i]` edges from `sources[i]` to the next entries of `destinations` (weights
   * alike, or null). Each rank's neighbours are the edges that touch it, in the order of the
   * giving ranks, then of their lists.
   */
  async distGraphCreate(sources: readonly number[], degrees: readonly number[], destinations: readonly number[], weights: readonly number[] | null, reorder = false): Promise<C> {
    void reorder;
    const call = 'distGraphCreate';
    this.live(call);
    checkNeighbors(call, 'sources', sources, null, this.size);
    if (!Array.isArray(degrees) || degrees.length !== sources.length || degrees.some((d) => !Number.isInteger(d) || d < 0)) throw new MpiError('MPI_ERR_ARG', `${call}: degrees must be ${sources.length} non-negative integers, one per source`);
    const total = degrees.reduce((a, b) => a + b, 0);
    if (!Array.isArray(destinations) || destinations.length !== total) throw new MpiError('MPI_ERR_ARG', `${call}: destinations must have the ${total} entries degrees add up to`);
    checkNeighbors(call, 'destinations', destinations, weights, this.size);
    const key = this.childKey('distGraph');
    this.agree({ call, counts: [weights === null ? 0 : 1], countsName: 'weighted (weights given or null on every rank)' });
    // every rank's edges as (source, destination, weight) triples, gathered everywhere
    const mine = new Int32Array(3 * total);
    let e = 0;
    sources.forEach((s, i) => {
      for (let k = 0; k < degrees[i]!; k++, e++) mine.set([s, destinations[e]!, weights ? weights[e]! : 1], 3 * e);
    });
    const lengths = new Int32Array(this.size);
    await this.allgather(Int32Array.of(mine.length), lengths);
    const displs = new Int32Array(this.size);
    for (let r = 1; r < this.size; r++) displs[r] = displs[r - 1]! + lengths[r - 1]!;
    const all = new Int32Array(displs[this.size - 1]! + lengths[this.size - 1]!);
    await this.allgatherv(mine, all, lengths, displs);
    const ins: number[] = [];
    const inW: number[] = [];
    const outs: number[] = [];
    const outW: number[] = [];
    for (let k = 0; k < all.length; k += 3) {
      if (all[k + 1] === this.rank) {
        ins.push(all[k]!);
        inW.push(all[k + 2]!);
      }
      if (all[k] === this.rank) {
        outs.push(all[k + 1]!);
        outW.push(all[k + 2]!);
      }
    }
    return this.distGraph(key, ins, weights ? inW : null, outs, weights ? outW : null);
  }

  /** In- and out-degree of this rank in the distributed graph, and whether it is weighted (MPI_Dist_graph_neighbors_count). */
  distGraphNeighborsCount(): { indegree: number; outdegree: number; weighted: boolean } {
    const g = this.distGraphTopology('distGraphNeighborsCount');
    return { indegree: g.inRanks.length, outdegree: g.outRanks.length, weighted: g.inWeights !== null };
  }

  /** This rank's sources and destinations in the distributed graph, with their weights or null (MPI_Dist_graph_neighbors). */
  distGraphNeighbors(): { sources: number[]; sourceWeights: number[] | null; dests: number[]; destWeights: number[] | null } {
    const g = this.distGraphTopology('distGraphNeighbors');
    return { sources: [...g.inRanks], sourceWeights: g.inWeights && [...g.inWeights], dests: [...g.outRanks], destWeights: g.outWeights && [...g.outWeights] };
  }

  private distGraph(key: string, ins: number[], inW: number[] | null, outs: number[], outW: number[] | null): C {
    const c = this.sub(Array.from(this.shape.members), key);
    c.topology = new DistGraphTopology(this.rank, ins, outs, inW, outW);
    return c;
  }

  private graph(call: string): GraphTopology {
    this.live(call);
    if (!(this.topology instanceof GraphTopology)) throw new MpiError('MPI_ERR_TOPOLOGY', `${call}: the communicator has ${this.topology ? `a ${this.topology.kind} topology` : 'no topology'}, not a graph (make one with graphCreate)`);
    return this.topology;
  }

  private distGraphTopology(call: string): DistGraphTopology {
    this.live(call);
    if (!(this.topology instanceof DistGraphTopology)) throw new MpiError('MPI_ERR_TOPOLOGY', `${call}: the communicator has ${this.topology ? `a ${this.topology.kind} topology` : 'no topology'}, not a distributed graph (make one with distGraphCreateAdjacent or distGraphCreate)`);
    return this.topology;
  }

  // ---------------------------------------------------------------- neighbourhood collectives

  /** `sendBuf` to every destination; the block of source i into `recvBuf` at i x sendBuf.length (MPI_Neighbor_allgather). */
  async neighborAllgather(sendBuf: ReduceArray, recvBuf: ReduceArray): Promise<void> {
    await this.finish(this.neighborAllgatherIn('neighborAllgather', sendBuf, recvBuf, true));
  }

  /** Nonblocking neighborAllgather (MPI_Ineighbor_allgather). */
  ineighborAllgather(sendBuf: ReduceArray, recvBuf: ReduceArray): Request {
    return this.neighborAllgatherIn('ineighborAllgather', sendBuf, recvBuf, false);
  }

  /** `sendBuf` to every destination; source i's block into `recvBuf` at `displs[i]`, `counts[i]` elements (MPI_Neighbor_allgatherv). */
  async neighborAllgatherv(sendBuf: ReduceArray, recvBuf: ReduceArray, counts: ArrayLike<number>, displs: ArrayLike<number>): Promise<void> {
    await this.finish(this.neighborAllgathervIn('neighborAllgatherv', sendBuf, recvBuf, counts, displs, true));
  }

  /** Nonblocking neighborAllgatherv (MPI_Ineighbor_allgatherv). */
  ineighborAllgatherv(sendBuf: ReduceArray, recvBuf: ReduceArray, counts: ArrayLike<number>, displs: ArrayLike<number>): Request {
    return this.neighborAllgathervIn('ineighborAllgatherv', sendBuf, recvBuf, counts, displs, false);
  }

  /** Block j of `sendBuf` to destination j; source i's block into block i of `recvBuf` (MPI_Neighbor_alltoall; equal blocks). */
  async neighborAlltoall(sendBuf: ReduceArray, recvBuf: ReduceArray): Promise<void> {
    await this.finish(this.neighborAlltoallIn('neighborAlltoall', sendBuf, recvBuf, true));
  }

  /** Nonblocking neighborAlltoall (MPI_Ineighbor_alltoall). */
  ineighborAlltoall(sendBuf: ReduceArray, recvBuf: ReduceArray): Request {
    return this.neighborAlltoallIn('ineighborAlltoall', sendBuf, recvBuf, false);
  }

  /** `sendCounts[j]` elements from `sendDispls[j]` to destination j; source i's into `recvDispls[i]` (MPI_Neighbor_alltoallv). */
  async neighborAlltoallv(sendBuf: ReduceArray, sendCounts: ArrayLike<number>, sendDispls: ArrayLike<number>, recvBuf: ReduceArray, recvCounts: ArrayLike<number>, recvDispls: ArrayLike<number>): Promise<void> {
    await this.finish(this.neighborAlltoallvIn('neighborAlltoallv', sendBuf, sendCounts, sendDispls, recvBuf, recvCounts, recvDispls, true));
  }

  /** Nonblocking neighborAlltoallv (MPI_Ineighbor_alltoallv). */
  ineighborAlltoallv(sendBuf: ReduceArray, sendCounts: ArrayLike<number>, sendDispls: ArrayLike<number>, recvBuf: ReduceArray, recvCounts: ArrayLike<number>, recvDispls: ArrayLike<number>): Request {
    return this.neighborAlltoallvIn('ineighborAlltoallv', sendBuf, sendCounts, sendDispls, recvBuf, recvCounts, recvDispls, false);
  }

  /**
   * `sendCounts[j]` elements of `sendTypes[j]` from byte `sendDispls[j]` of `sendBuf` to
   * destination j; source i's block into `recvCounts[i]` elements of `recvTypes[i]` at byte
   * `recvDispls[i]` of `recvBuf` (MPI_Neighbor_alltoallw). Non-contiguous blocks are packed at
   * the call and unpacked as they land, at the library's packing cost.
   */
  async neighborAlltoallw(sendBuf: ArrayBufferView, sendCounts: ArrayLike<number>, sendDispls: ArrayLike<number>, sendTypes: readonly Datatype[], recvBuf: ArrayBufferView, recvCounts: ArrayLike<number>, recvDispls: ArrayLike<number>, recvTypes: readonly Datatype[]): Promise<void> {
    await this.finish(this.neighborAlltoallwIn('neighborAlltoallw', [sendBuf, sendCounts, sendDispls, sendTypes, recvBuf, recvCounts, recvDispls, recvTypes], true));
  }

  /** Nonblocking neighborAlltoallw (MPI_Ineighbor_alltoallw): blocks are packed at the call and unpacked when the schedule ends. */
  ineighborAlltoallw(sendBuf: ArrayBufferView, sendCounts: ArrayLike<number>, sendDispls: ArrayLike<number>, sendTypes: readonly Datatype[], recvBuf: ArrayBufferView, recvCounts: ArrayLike<number>, recvDispls: ArrayLike<number>, recvTypes: readonly Datatype[]): Request {
    return this.neighborAlltoallwIn('ineighborAlltoallw', [sendBuf, sendCounts, sendDispls, sendTypes, recvBuf, recvCounts, recvDispls, recvTypes], false);
  }

  /** Persistent neighborAllgather (MPI_Neighbor_allgather_init): each `start` runs one ineighborAllgather with these arguments. */
  neighborAllgatherInit(sendBuf: ReduceArray, recvBuf: ReduceArray): Request {
    return this.collInit('neighborAllgatherInit', () => this.ineighborAllgather(sendBuf, recvBuf));
  }

  /** Persistent neighborAllgatherv (MPI_Neighbor_allgatherv_init). */
  neighborAllgathervInit(sendBuf: ReduceArray, recvBuf: ReduceArray, counts: ArrayLike<number>, displs: ArrayLike<number>): Request {
    return this.collInit('neighborAllgathervInit', () => this.ineighborAllgatherv(sendBuf, recvBuf, counts, displs));
  }

  /** Persistent neighborAlltoall (MPI_Neighbor_alltoall_init). */
  neighborAlltoallInit(sendBuf: ReduceArray, recvBuf: ReduceArray): Request {
    return this.collInit('neighborAlltoallInit', () => this.ineighborAlltoall(sendBuf, recvBuf));
  }

  /** Persistent neighborAlltoallv (MPI_Neighbor_alltoallv_init). */
  neighborAlltoallvInit(sendBuf: ReduceArray, sendCounts: ArrayLike<number>, sendDispls: ArrayLike<number>, recvBuf: ReduceArray, recvCounts: ArrayLike<number>, recvDispls: ArrayLike<number>): Request {
    return this.collInit('neighborAlltoallvInit', () => this.ineighborAlltoallv(sendBuf, sendCounts, sendDispls, recvBuf, recvCounts, recvDispls));
  }

  /** Persistent neighborAlltoallw (MPI_Neighbor_alltoallw_init): the blocks are packed at each start. */
  neighborAlltoallwInit(sendBuf: ArrayBufferView, sendCounts: ArrayLike<number>, sendDispls: ArrayLike<number>, sendTypes: readonly Datatype[], recvBuf: ArrayBufferView, recvCounts: ArrayLike<number>, recvDispls: ArrayLike<number>, recvTypes: readonly Datatype[]): Request {
    return this.collInit('neighborAlltoallwInit', () => this.ineighborAlltoallw(sendBuf, sendCounts, sendDispls, sendTypes, recvBuf, recvCounts, recvDispls, recvTypes));
  }

  private neighborAllgatherIn(call: string, sendBuf: ReduceArray, recvBuf: ReduceArray, blocking: boolean): Request {
    const { send, recv, sources, dests, slotAtDest } = this.neighborhood(call, sendBuf, recvBuf);
    const k = send.length;
    if (recv.length !== sources.length * k) throw new MpiError('MPI_ERR_COUNT', `${call}: recvBuf must hold ${sources.length} sources x sendBuf (${k}) elements, got ${recv.length}`);
    return this.exchange(call, { sources, dests, slotAtDest, send: () => bytes(send), recv: (i) => bytes(recv, i * k, k) }, send, blocking);
  }

  private neighborAllgathervIn(call: string, sendBuf: ReduceArray, recvBuf: ReduceArray, counts: ArrayLike<number>, displs: ArrayLike<number>, blocking: boolean): Request {
    const { send, recv, sources, dests, slotAtDest } = this.neighborhood(call, sendBuf, recvBuf);
    blocksOf(call, 'counts', 'displs', counts, displs, sources.length, recv.length);
    return this.exchange(call, { sources, dests, slotAtDest, send: () => bytes(send), recv: (i) => bytes(recv, displs[i]!, counts[i]!) }, send, blocking);
  }

  private neighborAlltoallIn(call: string, sendBuf: ReduceArray, recvBuf: ReduceArray, blocking: boolean): Request {
    const { send, recv, sources, dests, slotAtDest } = this.neighborhood(call, sendBuf, recvBuf);
    const k = dests.length > 0 ? send.length / dests.length : sources.length > 0 ? recv.length / sources.length : 0;
    if (!Number.isInteger(k) || send.length !== dests.length * k || recv.length !== sources.length * k) {
      throw new MpiError('MPI_ERR_COUNT', `${call}: sendBuf (${send.length} elements) and recvBuf (${recv.length}) must hold equal blocks for the ${dests.length} destinations and ${sources.length} sources`);
    }
    return this.exchange(call, { sources, dests, slotAtDest, send: (j) => bytes(send, j * k, k), recv: (i) => bytes(recv, i * k, k) }, send, blocking);
  }

  private neighborAlltoallvIn(call: string, sendBuf: ReduceArray, sendCounts: ArrayLike<number>, sendDispls: ArrayLike<number>, recvBuf: ReduceArray, recvCounts: ArrayLike<number>, recvDispls: ArrayLike<number>, blocking: boolean): Request {
    const { send, recv, sources, dests, slotAtDest } = this.neighborhood(call, sendBuf, recvBuf);
    blocksOf(call, 'sendCounts', 'sendDispls', sendCounts, sendDispls, dests.length, send.length);
    blocksOf(call, 'recvCounts', 'recvDispls', recvCounts, recvDispls, sources.length, recv.length);
    return this.exchange(call, { sources, dests, slotAtDest, send: (j) => bytes(send, sendDispls[j]!, sendCounts[j]!), recv: (i) => bytes(recv, recvDispls[i]!, recvCounts[i]!) }, send, blocking);
  }

  private neighborAlltoallwIn(call: string, a: readonly unknown[], blocking: boolean): Request {
    const { sources, dests, slotAtDest } = this.neighbors(call);
    const { send, recv } = typed.neighborSides(this.packer, call, a, dests.length, sources.length);
    this.agree({ call });
    const exchange = neighborReceives(this.transport, { sources, dests, slotAtDest, send: (j) => send[j]!, recv: (i) => recv[i]!.bytes }, call);
    return this.launch(landAll(call, exchange, sources, recv), call, blocking);
  }

  /** This rank's neighbours in the communicator's topology (MPI_ERR_TOPOLOGY without one). */
  private neighbors(call: string): Omit<NeighborBlocks, 'send' | 'recv'> {
    this.live(call);
    const t = this.topology;
    if (!t) throw new MpiError('MPI_ERR_TOPOLOGY', `${call}: the communicator has no topology (make one with cartCreate, graphCreate or distGraphCreateAdjacent)`);
    // on a grid the block sent down a dimension arrives from above at the neighbour (slot 2d+1), and up, from below
    return { sources: t.sources(this.rank), dests: t.dests(this.rank), slotAtDest: t.kind === 'cart' ? (j) => j ^ 1 : null };
  }

  /** The topology's neighbours of this rank, and the call's buffers checked. */
  private neighborhood(call: string, sendBuf: ReduceArray, recvBuf: ReduceArray): Omit<NeighborBlocks, 'send' | 'recv'> & { send: ReduceArray; recv: ReduceArray } {
    const n = this.neighbors(call);
    for (const [name, v] of [['sendBuf', sendBuf], ['recvBuf', recvBuf]] as const) {
      if (!isReduceArray(v)) throw new MpiError('MPI_ERR_BUFFER', `${call}: ${name} must be a numeric typed array, got ${describe(v)}`);
    }
    if (sendBuf.constructor !== recvBuf.constructor) throw new MpiError('MPI_ERR_TYPE', `${call}: sendBuf and recvBuf must have the same element type (got ${sendBuf.constructor.name} and ${recvBuf.constructor.name})`);
    return { ...n, send: sendBuf, recv: recvBuf };
  }

  private exchange(call: string, blocks: NeighborBlocks, send: ReduceArray, blocking: boolean): Request {
    this.agree({ call, type: send.constructor.name });
    return this.launch(neighborExchange(this.transport, blocks, call), call, blocking);
  }
}

/**
 * A w-form neighbourhood exchange, then each received block unpacked into the user's layout
 * (its CPU time charged): a source must send as many bytes as its block here takes.
 */
function* landAll(call: string, exchange: Generator<Step, (Request | null)[], void>, sources: readonly number[], recv: readonly Landing[]): Coll {
  const received = yield* exchange;
  let ps = 0;
  for (let i = 0; i < received.length; i++) {
    const r = received[i];
    if (!r) continue;
    const l = recv[i]!;
    const got = r.peek().bytes;
    if (got !== l.bytes.length) throw new MpiError('MPI_ERR_COUNT', `${call}: source ${i} (rank ${sources[i]}) sent ${got} bytes, but recvCounts[${i}] x recvTypes[${i}] take ${l.bytes.length}`);
    if (l.unpack) ps += l.unpack(got);
  }
  if (ps > 0) yield ps;
}

/** Checks the counts and displacements of `n` blocks, each inside a buffer of `length` elements. */
function blocksOf(call: string, countsName: string, displsName: string, counts: ArrayLike<number>, displs: ArrayLike<number>, n: number, length: number): void {
  for (const [name, a] of [[countsName, counts], [displsName, displs]] as const) {
    if (!a || typeof a.length !== 'number' || a.length !== n) throw new MpiError('MPI_ERR_COUNT', `${call}: ${name} must have one entry per neighbour (${n})`);
    for (let i = 0; i < n; i++) if (!Number.isInteger(a[i]) || a[i]! < 0) throw new MpiError('MPI_ERR_COUNT', `${call}: ${name}[${i}]=${a[i]} must be a non-negative integer`);
  }
  for (let i = 0; i < n; i++) {
    if (displs[i]! + counts[i]! > length) throw new MpiError('MPI_ERR_COUNT', `${call}: block ${i} (${displsName}[${i}]=${displs[i]}, ${countsName}[${i}]=${counts[i]}) runs past the buffer's ${length} elements`);
  }
}
