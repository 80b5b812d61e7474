/**
 * The user-level calls of each API face, by method: the original API's name (`MPI_Send`,
 * `shmem_putmem`, `dmapp_put_nbi`, `GNI_PostFma`), the payload bytes a call moves and the
 * arguments a trace shows. Only the methods listed here are instrumented.
 */
import { IN_PLACE } from './mpi/constants.ts';
import { Datatype } from './mpi/datatype.ts';
import type { Op } from './mpi/ops.ts';
import { ShmemTeam } from './shmem/team.ts';

/** Arguments of a call as the trace shows them. */
export type CallArgs = Record<string, string | number | boolean>;

/** One instrumented method. */
export interface CallSpec {
  /** The name in the original API's spelling. */
  readonly name: string;
  /** Payload bytes the call moves (sent or contributed); 0 if omitted. */
  readonly bytes?: (a: readonly unknown[]) => number;
  /** Arguments for the trace (peer, tag, root, op, ...). */
  readonly args?: (a: readonly unknown[]) => CallArgs;
}

/** Byte length of a typed array or DataView argument; 0 for anything else. */
function nb(x: unknown): number {
  return ArrayBuffer.isView(x) ? x.byteLength : 0;
}

function num(x: unknown): number {
  return typeof x === 'number' ? x : 0;
}

function opName(x: unknown): string {
  return typeof x === 'object' && x !== null && typeof (x as Op).name === 'string' ? (x as Op).name : String(x);
}

/** A collective's send bytes, or the receive buffer's when the send buffer is MPI_IN_PLACE (`share` divides it). */
function sendOrInPlace(send: unknown, recv: unknown, share = 1): number {
  return send === IN_PLACE ? Math.floor(nb(recv) / share) : nb(send);
}

function sumCounts(counts: unknown, like: unknown): number {
  if (counts === null || typeof counts !== 'object' || !('length' in counts)) return 0;
  const c = counts as ArrayLike<number>;
  let s = 0;
  for (let i = 0; i < c.length; i++) s += c[i] ?? 0;
  return s * (ArrayBuffer.isView(like) && 'BYTES_PER_ELEMENT' in like ? (like as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT : 1);
}

/** Data bytes of `count` elements of `datatype` (MPI's long form); 0 when `datatype` is not one. */
function typed(count: unknown, datatype: unknown): number {
  return datatype instanceof Datatype ? num(count) * datatype.size : 0;
}

/** A point-to-point call's bytes, peer and tag: (buf, peer, tag) or the long form (buf, count, datatype, peer, tag). */
function p2p(a: readonly unknown[]): CallArgs {
  if (a[2] instanceof Datatype) return { peer: num(a[3]), tag: num(a[4]), bytes: typed(a[1], a[2]) };
  return { peer: num(a[1]), tag: num(a[2]), bytes: nb(a[0]) };
}

/** A matched receive's bytes: (buf, message) or the long form (buf, count, datatype, message). */
const mbytes = (a: readonly unknown[]): number => (a[2] instanceof Datatype ? typed(a[1], a[2]) : nb(a[0]));

const send = (name: string): CallSpec => ({ name, bytes: (a) => p2p(a).bytes as number, args: p2p });
const recv = send;
const requests = (name: string): CallSpec => ({ name, args: (a) => ({ requests: Array.isArray(a[0]) ? a[0].length : 1 }) });
/** A persistent request's init: its arguments, but no bytes (each start moves them). */
const init = (name: string): CallSpec => ({ name, args: p2p });

/** MPI, on MPI_COMM_WORLD and every communicator made from it. `size` is the communicator's. */
export function mpiCalls(size: number): Readonly<Record<string, CallSpec>> {
  const coll = (name: string, bytes: (a: readonly unknown[]) => number, args: (a: readonly unknown[]) => CallArgs = () => ({})): CallSpec => ({
    name,
    bytes,
    args: (a) => ({ bytes: bytes(a), ...args(a) }),
  });
  /** A collective with a long form (buf, count, datatype, ...): `long` when it has more than `shortMax` arguments or a Datatype at `typeAt`. */
  const forms = (short: CallSpec, long: CallSpec, shortMax: number, typeAt = -1): CallSpec => {
    const pick = (a: readonly unknown[]): CallSpec => (a.length > shortMax || a[typeAt] instanceof Datatype ? long : short);
    return { name: short.name, bytes: (a) => pick(a).bytes!(a), args: (a) => pick(a).args!(a) };
  };
  /** Bytes of `counts` elements of `datatype` summed, or of each rank's datatype (alltoallw). */
  const typedSum = (counts: unknown, datatype: unknown): number => {
    if (counts === null || typeof counts !== 'object' || !('length' in counts)) return 0;
    const c = counts as ArrayLike<number>;
    let s = 0;
    for (let i = 0; i < c.length; i++) s += typed(c[i], Array.isArray(datatype) ? datatype[i] : datatype);
    return s;
  };
  const calls: Record<string, CallSpec> = {
    send: send('MPI_Send'),
    isend: send('MPI_Isend'),
    ssend: send('MPI_Ssend'),
    issend: send('MPI_Issend'),
    rsend: send('MPI_Rsend'),
    irsend: send('MPI_Irsend'),
    bsend: send('MPI_Bsend'),
    ibsend: send('MPI_Ibsend'),
    recv: recv('MPI_Recv'),
    irecv: recv('MPI_Irecv'),
    sendrecv: {
      name: 'MPI_Sendrecv',
      bytes: (a) => (a.length > 6 ? typed(a[1], a[2]) : nb(a[0])),
      args: (a) =>
        a.length > 6
          ? { dest: num(a[3]), sendTag: num(a[4]), source: num(a[8]), recvTag: num(a[9]), bytes: typed(a[1], a[2]) }
          : { dest: num(a[1]), sendTag: num(a[2]), source: num(a[4]), recvTag: num(a[5]), bytes: nb(a[0]) },
    },
    sendrecvReplace: {
      name: 'MPI_Sendrecv_replace',
      bytes: (a) => (a.length > 5 ? typed(a[1], a[2]) : nb(a[0])),
      args: (a) =>
        a.length > 5
          ? { dest: num(a[3]), sendTag: num(a[4]), source: num(a[5]), recvTag: num(a[6]), bytes: typed(a[1], a[2]) }
          : { dest: num(a[1]), sendTag: num(a[2]), source: num(a[3]), recvTag: num(a[4]), bytes: nb(a[0]) },
    },
    isendrecv: {
      name: 'MPI_Isendrecv',
      bytes: (a) => nb(a[0]),
      args: (a) => ({ dest: num(a[1]), sendTag: num(a[2]), source: num(a[4]), recvTag: num(a[5]), bytes: nb(a[0]) }),
    },
    isendrecvReplace: {
      name: 'MPI_Isendrecv_replace',
      bytes: (a) => nb(a[0]),
      args: (a) => ({ dest: num(a[1]), sendTag: num(a[2]), source: num(a[3]), recvTag: num(a[4]), bytes: nb(a[0]) }),
    },
    iprobe: { name: 'MPI_Iprobe', args: (a) => ({ peer: num(a[0]), tag: num(a[1]) }) },
    probe: { name: 'MPI_Probe', args: (a) => ({ peer: num(a[0]), tag: num(a[1]) }) },
    improbe: { name: 'MPI_Improbe', args: (a) => ({ peer: num(a[0]), tag: num(a[1]) }) },
    mprobe: { name: 'MPI_Mprobe', args: (a) => ({ peer: num(a[0]), tag: num(a[1]) }) },
    mrecv: { name: 'MPI_Mrecv', bytes: (a) => mbytes(a), args: (a) => ({ bytes: mbytes(a) }) },
    imrecv: { name: 'MPI_Imrecv', bytes: (a) => mbytes(a), args: (a) => ({ bytes: mbytes(a) }) },
    sendInit: init('MPI_Send_init'),
    ssendInit: init('MPI_Ssend_init'),
    bsendInit: init('MPI_Bsend_init'),
    rsendInit: init('MPI_Rsend_init'),
    recvInit: init('MPI_Recv_init'),
    start: { name: 'MPI_Start' },
    startAll: requests('MPI_Startall'),
    requestFree: { name: 'MPI_Request_free' },
    requestGetStatus: { name: 'MPI_Request_get_status' },
    wait: requests('MPI_Wait'),
    waitAll: requests('MPI_Waitall'),
    waitAny: requests('MPI_Waitany'),
    waitSome: requests('MPI_Waitsome'),
    test: requests('MPI_Test'),
    testAll: requests('MPI_Testall'),
    testAny: requests('MPI_Testany'),
    testSome: requests('MPI_Testsome'),
    cancel: { name: 'MPI_Cancel' },
    bufferAttach: { name: 'MPI_Buffer_attach', args: (a) => ({ size: num(a[0]) }) },
    bufferDetach: { name: 'MPI_Buffer_detach' },
    dup: { name: 'MPI_Comm_dup' },
    split: { name: 'MPI_Comm_split', args: (a) => ({ color: num(a[0]), key: num(a[1]) }) },
    create: { name: 'MPI_Comm_create' },
    cartCreate: { name: 'MPI_Cart_create', args: (a) => ({ dims: Array.isArray(a[0]) ? a[0].join('x') : '' }) },
    cartSub: { name: 'MPI_Cart_sub' },
    free: { name: 'MPI_Comm_free' },
    splitType: { name: 'MPI_Comm_split_type', args: (a) => ({ type: num(a[0]), key: num(a[1]) }) },
    idup: { name: 'MPI_Comm_idup' },
    createGroup: { name: 'MPI_Comm_create_group', args: (a) => ({ tag: num(a[1]) }) },
    intercommCreate: { name: 'MPI_Intercomm_create', args: (a) => ({ localLeader: num(a[0]), remoteLeader: num(a[2]), tag: num(a[3]) }) },
    intercommMerge: { name: 'MPI_Intercomm_merge', args: (a) => ({ high: a[0] === true }) },
    graphCreate: { name: 'MPI_Graph_create' },
    distGraphCreate: { name: 'MPI_Dist_graph_create' },
    distGraphCreateAdjacent: { name: 'MPI_Dist_graph_create_adjacent' },
    neighborAllgather: coll('MPI_Neighbor_allgather', (a) => nb(a[0])),
    neighborAllgatherv: coll('MPI_Neighbor_allgatherv', (a) => nb(a[0])),
    neighborAlltoall: coll('MPI_Neighbor_alltoall', (a) => nb(a[0])),
    neighborAlltoallv: coll('MPI_Neighbor_alltoallv', (a) => sumCounts(a[1], a[0])),
    ineighborAllgather: coll('MPI_Ineighbor_allgather', (a) => nb(a[0])),
    ineighborAllgatherv: coll('MPI_Ineighbor_allgatherv', (a) => nb(a[0])),
    ineighborAlltoall: coll('MPI_Ineighbor_alltoall', (a) => nb(a[0])),
    ineighborAlltoallv: coll('MPI_Ineighbor_alltoallv', (a) => sumCounts(a[1], a[0])),
    neighborAlltoallw: coll('MPI_Neighbor_alltoallw', (a) => typedSum(a[1], a[3])),
    ineighborAlltoallw: coll('MPI_Ineighbor_alltoallw', (a) => typedSum(a[1], a[3])),
    barrier: coll('MPI_Barrier', () => 0),
    bcast: forms(coll('MPI_Bcast', (a) => nb(a[0]), (a) => ({ root: num(a[1]) })), coll('MPI_Bcast', (a) => typed(a[1], a[2]), (a) => ({ root: num(a[3]) })), 3),
    reduce: forms(coll('MPI_Reduce', (a) => sendOrInPlace(a[0], a[1]), (a) => ({ root: num(a[3]), op: opName(a[2]) })), coll('MPI_Reduce', (a) => typed(a[2], a[3]), (a) => ({ root: num(a[5]), op: opName(a[4]) })), 5),
    allreduce: forms(coll('MPI_Allreduce', (a) => sendOrInPlace(a[0], a[1]), (a) => ({ op: opName(a[2]) })), coll('MPI_Allreduce', (a) => typed(a[2], a[3]), (a) => ({ op: opName(a[4]) })), 4),
    allgather: forms(coll('MPI_Allgather', (a) => sendOrInPlace(a[0], a[1], size)), coll('MPI_Allgather', (a) => (a[0] === IN_PLACE ? typed(a[4], a[5]) : typed(a[1], a[2]))), 3),
    allgatherv: forms(coll('MPI_Allgatherv', (a) => nb(a[0])), coll('MPI_Allgatherv', (a) => typed(a[1], a[2])), 5),
    alltoall: forms(coll('MPI_Alltoall', (a) => sendOrInPlace(a[0], a[1])), coll('MPI_Alltoall', (a) => size * (a[0] === IN_PLACE ? typed(a[4], a[5]) : typed(a[1], a[2]))), 3),
    alltoallv: forms(coll('MPI_Alltoallv', (a) => sumCounts(a[1], a[0])), coll('MPI_Alltoallv', (a) => typedSum(a[1], a[3])), 7),
    alltoallw: coll('MPI_Alltoallw', (a) => typedSum(a[1], a[3])),
    ialltoallw: coll('MPI_Ialltoallw', (a) => typedSum(a[1], a[3])),
    reduceScatter: forms(coll('MPI_Reduce_scatter', (a) => nb(a[0]), (a) => ({ op: opName(a[3]) })), coll('MPI_Reduce_scatter', (a) => typedSum(a[2], a[3]), (a) => ({ op: opName(a[4]) })), 5, 3),
    reduceScatterBlock: forms(coll('MPI_Reduce_scatter_block', (a) => nb(a[0]), (a) => ({ op: opName(a[2]) })), coll('MPI_Reduce_scatter_block', (a) => size * typed(a[2], a[3]), (a) => ({ op: opName(a[4]) })), 4),
    gather: forms(coll('MPI_Gather', (a) => nb(a[0]), (a) => ({ root: num(a[2]) })), coll('MPI_Gather', (a) => typed(a[1], a[2]), (a) => ({ root: num(a[6]) })), 4),
    gatherv: forms(coll('MPI_Gatherv', (a) => nb(a[0]), (a) => ({ root: num(a[4]) })), coll('MPI_Gatherv', (a) => typed(a[1], a[2]), (a) => ({ root: num(a[7]) })), 6),
    scatter: forms(coll('MPI_Scatter', (a) => nb(a[1]), (a) => ({ root: num(a[2]) })), coll('MPI_Scatter', (a) => typed(a[4], a[5]), (a) => ({ root: num(a[6]) })), 4),
    scatterv: forms(coll('MPI_Scatterv', (a) => nb(a[3]), (a) => ({ root: num(a[4]) })), coll('MPI_Scatterv', (a) => typed(a[5], a[6]), (a) => ({ root: num(a[7]) })), 6),
    scan: forms(coll('MPI_Scan', (a) => sendOrInPlace(a[0], a[1]), (a) => ({ op: opName(a[2]) })), coll('MPI_Scan', (a) => typed(a[2], a[3]), (a) => ({ op: opName(a[4]) })), 4),
    exscan: forms(coll('MPI_Exscan', (a) => sendOrInPlace(a[0], a[1]), (a) => ({ op: opName(a[2]) })), coll('MPI_Exscan', (a) => typed(a[2], a[3]), (a) => ({ op: opName(a[4]) })), 4),
  };
  // each collective's nonblocking form takes the same arguments (MPI_Ibcast for MPI_Bcast)
  for (const c of NONBLOCKING_COLLECTIVES) {
    calls[`i${c}`] = { ...calls[c]!, name: `MPI_I${calls[c]!.name.slice(4).toLowerCase()}` };
    // persistent collectives (MPI_Allreduce_init): the call binds the arguments; `start` runs it
    calls[`${c}Init`] = { ...calls[c]!, name: `${calls[c]!.name}_init` };
  }
  return calls;
}

const NONBLOCKING_COLLECTIVES = ['barrier', 'bcast', 'reduce', 'allreduce', 'allgather', 'allgatherv', 'alltoall', 'alltoallv', 'alltoallw', 'reduceScatter', 'reduceScatterBlock', 'gather', 'gatherv', 'scatter', 'scatterv', 'scan', 'exscan'] as const;

/** Methods of a request the program may call itself. */
export const REQUEST_CALLS: Readonly<Record<string, CallSpec>> = {
  wait: { name: 'MPI_Wait' },
  test: { name: 'MPI_Test' },
};

/** A one-sided transfer's bytes and target: (origin, target, disp[, op]) or the long form (origin, count, datatype, target, ...). */
function rmaArgs(a: readonly unknown[]): CallArgs {
  if (a[2] instanceof Datatype) return { target: num(a[3]), disp: num(a[4]), bytes: typed(a[1], a[2]) };
  return { target: num(a[1]), disp: num(a[2]), bytes: nb(a[0]) };
}

const rma = (name: string): CallSpec => ({ name, bytes: (a) => rmaArgs(a).bytes as number, args: rmaArgs });

/** Window constructors of a communicator (MPI_Win_create, ...), instrumented beside `mpiCalls` (not guarded by the communicator's error handler). */
export const WIN_MAKER_CALLS: Readonly<Record<string, CallSpec>> = {
  winCreate: { name: 'MPI_Win_create', args: (a) => ({ bytes: nb(a[0]), dispUnit: typeof a[1] === 'number' ? a[1] : 1 }) },
  winAllocate: { name: 'MPI_Win_allocate', args: (a) => ({ bytes: num(a[0]), dispUnit: typeof a[1] === 'number' ? a[1] : 1 }) },
  winAllocateShared: { name: 'MPI_Win_allocate_shared', args: (a) => ({ bytes: num(a[0]), dispUnit: typeof a[1] === 'number' ? a[1] : 1 }) },
  winCreateDynamic: { name: 'MPI_Win_create_dynamic' },
};

/** The calls of a window (MPI_Win). */
export const WIN_CALLS: Readonly<Record<string, CallSpec>> = {
  free: { name: 'MPI_Win_free' },
  fence: { name: 'MPI_Win_fence' },
  post: { name: 'MPI_Win_post' },
  start: { name: 'MPI_Win_start' },
  complete: { name: 'MPI_Win_complete' },
  wait: { name: 'MPI_Win_wait' },
  test: { name: 'MPI_Win_test' },
  lock: { name: 'MPI_Win_lock', args: (a) => ({ target: num(a[1]) }) },
  unlock: { name: 'MPI_Win_unlock', args: (a) => ({ target: num(a[0]) }) },
  lockAll: { name: 'MPI_Win_lock_all' },
  unlockAll: { name: 'MPI_Win_unlock_all' },
  flush: { name: 'MPI_Win_flush', args: (a) => ({ target: num(a[0]) }) },
  flushAll: { name: 'MPI_Win_flush_all' },
  flushLocal: { name: 'MPI_Win_flush_local', args: (a) => ({ target: num(a[0]) }) },
  flushLocalAll: { name: 'MPI_Win_flush_local_all' },
  sync: { name: 'MPI_Win_sync' },
  attach: { name: 'MPI_Win_attach' },
  detach: { name: 'MPI_Win_detach' },
  put: rma('MPI_Put'),
  get: rma('MPI_Get'),
  accumulate: rma('MPI_Accumulate'),
  rput: rma('MPI_Rput'),
  rget: rma('MPI_Rget'),
  raccumulate: rma('MPI_Raccumulate'),
  getAccumulate: { name: 'MPI_Get_accumulate' },
  rgetAccumulate: { name: 'MPI_Rget_accumulate' },
  fetchAndOp: { name: 'MPI_Fetch_and_op' },
  compareAndSwap: { name: 'MPI_Compare_and_swap' },
};

/** The typed RMA calls by element kind (`putInt16`, ...): the C type each is named by in traces, and its bytes. */
const SHMEM_TYPES: Readonly<Record<string, [string, number]>> = {
  Int8: ['schar', 1],
  Uint8: ['uchar', 1],
  Int16: ['short', 2],
  Uint16: ['ushort', 2],
  Int32: ['int', 4],
  Uint32: ['uint', 4],
  Int64: ['long', 8],
  Uint64: ['ulong', 8],
  Float32: ['float', 4],
  Float64: ['double', 8],
  /** x86-64's 16-byte long double, a Float64Array of (value, padding) pairs. */
  Longdouble: ['longdouble', 16],
};
const ATOMIC_BYTES: Readonly<Record<string, number>> = { int8: 1, uint8: 1, int16: 2, uint16: 2, int32: 4, uint32: 4, int64: 8, uint64: 8, float32: 4, float64: 8, complexf: 8, complexd: 16 };

/** Bytes per element of a typed array argument (1 for anything else). */
function elemBytes(v: unknown): number {
  const e = (v as { BYTES_PER_ELEMENT?: unknown } | null)?.BYTES_PER_ELEMENT;
  return typeof e === 'number' ? e : 1;
}

/** A SHMEM collective's arguments after its team (none in the world forms), and the team's name for the trace. */
function afterTeam(a: readonly unknown[]): { r: readonly unknown[]; team: CallArgs } {
  if (a[0] instanceof ShmemTeam) return { r: a.slice(1), team: { team: a[0].label } };
  if (a[0] === null) return { r: a.slice(1), team: { team: 'TEAM_INVALID' } };
  return { r: a, team: {} };
}

/** A team collective whose count is argument `at` (after the team), in elements of the type named by argument `typeAt` (bytes if none). */
function teamColl(name: string, at: number, typeAt = -1, extra: (r: readonly unknown[]) => CallArgs = () => ({})): CallSpec {
  const bytes = (a: readonly unknown[]): number => {
    const { r } = afterTeam(a);
    return num(r[at]) * (typeAt < 0 ? 1 : (ATOMIC_BYTES[String(r[typeAt])] ?? 8));
  };
  return { name, bytes, args: (a) => ({ ...afterTeam(a).team, ...extra(afterTeam(a).r), bytes: bytes(a) }) };
}

/** OpenSHMEM (`ctx.shmem`). */
export function shmemCalls(): Readonly<Record<string, CallSpec>> {
  const rma = (name: string, bytes: (a: readonly unknown[]) => number, pe: number): CallSpec => ({ name, bytes, args: (a) => ({ pe: num(a[pe]), bytes: bytes(a) }) });
  const out: Record<string, CallSpec> = {
    init: { name: 'shmem_init' },
    startPes: { name: 'start_pes' },
    finalize: { name: 'shmem_finalize' },
    malloc: { name: 'shmem_malloc', args: (a) => ({ size: num(a[0]) }) },
    calloc: { name: 'shmem_calloc' },
    free: { name: 'shmem_free' },
    realloc: { name: 'shmem_realloc', args: (a) => ({ size: num(a[1]) }) },
    align: { name: 'shmem_align', args: (a) => ({ alignment: num(a[0]), size: num(a[1]) }) },
    mallocWithHints: { name: 'shmem_malloc_with_hints', args: (a) => ({ size: num(a[0]), hints: num(a[1]) }) },
    ptr: { name: 'shmem_ptr', args: (a) => ({ pe: num(a[1]) }) },
    teamPtr: { name: 'shmem_team_ptr', args: (a) => ({ ...afterTeam(a).team, pe: num(a[2]) }) },
    addrAccessible: { name: 'shmem_addr_accessible', args: (a) => ({ pe: num(a[1]) }) },
    peAccessible: { name: 'shmem_pe_accessible', args: (a) => ({ pe: num(a[0]) }) },
    initThread: { name: 'shmem_init_thread', args: (a) => ({ requested: num(a[0]) }) },
    queryThread: { name: 'shmem_query_thread' },
    pcontrol: { name: 'shmem_pcontrol', args: (a) => ({ level: num(a[0]) }) },
    infoGetVersion: { name: 'shmem_info_get_version' },
    infoGetName: { name: 'shmem_info_get_name' },
    globalExit: { name: 'shmem_global_exit', args: (a) => ({ status: num(a[0]) }) },
    putmem: rma('shmem_putmem', (a) => num(a[2]), 3),
    getmem: rma('shmem_getmem', (a) => num(a[2]), 3),
    putmemNbi: rma('shmem_putmem_nbi', (a) => num(a[2]), 3),
    getmemNbi: rma('shmem_getmem_nbi', (a) => num(a[2]), 3),
    quiet: { name: 'shmem_quiet' },
    fence: { name: 'shmem_fence' },
    // put-with-signal (§9.8.1): (dest, source, count, sigAddr, signal, sigOp, pe)
    putSignal: rma('shmem_put_signal', (a) => num(a[2]) * elemBytes(a[1]), 6),
    putSignalNbi: rma('shmem_put_signal_nbi', (a) => num(a[2]) * elemBytes(a[1]), 6),
    putmemSignal: rma('shmem_putmem_signal', (a) => num(a[2]), 6),
    putmemSignalNbi: rma('shmem_putmem_signal_nbi', (a) => num(a[2]), 6),
    putLongdoubleSignal: rma('shmem_longdouble_put_signal', (a) => num(a[2]) * 16, 6),
    putLongdoubleSignalNbi: rma('shmem_longdouble_put_signal_nbi', (a) => num(a[2]) * 16, 6),
    signalFetch: { name: 'shmem_signal_fetch' },
    ...Object.fromEntries(
      ['waitUntilAll', 'waitUntilAny', 'waitUntilSome', 'waitUntilAllVector', 'waitUntilAnyVector', 'waitUntilSomeVector', 'testAll', 'testAny', 'testSome', 'testAllVector', 'testAnyVector', 'testSomeVector'].map((m) => [
        m,
        { name: `shmem_${m.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase())}`, args: (a: readonly unknown[]) => ({ nelems: num(a[1]) }) },
      ]),
    ),
    signalWaitUntil: { name: 'shmem_signal_wait_until', args: (a) => ({ cmp: String(a[1]), value: String(a[2]) }) },
    waitUntil: { name: 'shmem_wait_until', args: (a) => ({ cmp: String(a[1]), value: String(a[2]) }) },
    test: { name: 'shmem_test' },
    barrierAll: { name: 'shmem_barrier_all' },
    broadcastmem: teamColl('shmem_broadcastmem', 2, -1, (r) => ({ root: num(r[3]) })),
    fcollectmem: teamColl('shmem_fcollectmem', 2),
    collectmem: teamColl('shmem_collectmem', 2),
    // teams (OpenSHMEM 1.5 §9.4) and their collectives: (team, dest, source, count, ..., type)
    teamMyPe: { name: 'shmem_team_my_pe' },
    teamNPes: { name: 'shmem_team_n_pes' },
    teamGetConfig: { name: 'shmem_team_get_config' },
    teamTranslatePe: { name: 'shmem_team_translate_pe' },
    teamSplitStrided: { name: 'shmem_team_split_strided', args: (a) => ({ ...afterTeam(a).team, start: num(a[1]), stride: num(a[2]), size: num(a[3]) }) },
    teamSplit2d: { name: 'shmem_team_split_2d', args: (a) => ({ ...afterTeam(a).team, xrange: num(a[1]) }) },
    teamDestroy: { name: 'shmem_team_destroy', args: (a) => afterTeam(a).team },
    teamSync: { name: 'shmem_team_sync', args: (a) => afterTeam(a).team },
    syncAll: { name: 'shmem_sync_all' },
    // contexts (§9.5): their own calls are named by shmemCtxCalls
    ctxCreate: { name: 'shmem_ctx_create' },
    teamCreateCtx: { name: 'shmem_team_create_ctx', args: (a) => afterTeam(a).team },
    ctxGetTeam: { name: 'shmem_ctx_get_team' },
    ctxDestroy: { name: 'shmem_ctx_destroy' },
    // locks (§9.9.12)
    setLock: { name: 'shmem_set_lock' },
    testLock: { name: 'shmem_test_lock' },
    clearLock: { name: 'shmem_clear_lock' },
    broadcast: teamColl('shmem_broadcast', 2, 4, (r) => ({ root: num(r[3]), type: String(r[4]) })),
    collect: teamColl('shmem_collect', 2, 3, (r) => ({ type: String(r[3]) })),
    fcollect: teamColl('shmem_fcollect', 2, 3, (r) => ({ type: String(r[3]) })),
    alltoallmem: teamColl('shmem_alltoallmem', 2),
    alltoall: teamColl('shmem_alltoall', 2, 3, (r) => ({ type: String(r[3]) })),
    alltoallsmem: teamColl('shmem_alltoallsmem', 4, -1, (r) => ({ dst: num(r[2]), sst: num(r[3]) })),
    alltoalls: teamColl('shmem_alltoalls', 4, 5, (r) => ({ dst: num(r[2]), sst: num(r[3]), type: String(r[5]) })),
  };
  for (const op of ['sum', 'prod', 'min', 'max', 'and', 'or', 'xor']) {
    out[`${op}Reduce`] = teamColl(`shmem_${op}_reduce`, 2, 3, (r) => ({ type: String(r[3]) }));
  }
  // the active-set collectives of OpenSHMEM 1.4: (..., PE_start, logPE_stride, PE_size, [pWrk,] pSync) last
  const set = (a: readonly unknown[], at: number): CallArgs => ({ PE_start: num(a[at]), logPE_stride: num(a[at + 1]), PE_size: num(a[at + 2]) });
  out.barrier = { name: 'shmem_barrier', args: (a) => set(a, 0) };
  out.sync = { name: 'shmem_sync', args: (a) => (typeof a[0] === 'number' ? set(a, 0) : afterTeam(a).team) };
  for (const bits of [32, 64]) {
    const bytes = (a: readonly unknown[]): number => num(a[2]) * (bits / 8);
    out[`broadcast${bits}`] = { name: `shmem_broadcast${bits}`, bytes, args: (a) => ({ ...set(a, 4), root: num(a[3]), bytes: bytes(a) }) };
    for (const c of ['collect', 'fcollect']) out[`${c}${bits}`] = { name: `shmem_${c}${bits}`, bytes, args: (a) => ({ ...set(a, 3), bytes: bytes(a) }) };
    // every PE sends nelems elements to each PE of the set
    const all = (a: readonly unknown[], n: number, at: number): number => num(a[n]) * num(a[at + 2]) * (bits / 8);
    out[`alltoall${bits}`] = { name: `shmem_alltoall${bits}`, bytes: (a) => all(a, 2, 3), args: (a) => ({ ...set(a, 3), bytes: all(a, 2, 3) }) };
    out[`alltoalls${bits}`] = { name: `shmem_alltoalls${bits}`, bytes: (a) => all(a, 4, 5), args: (a) => ({ ...set(a, 5), dst: num(a[2]), sst: num(a[3]), bytes: all(a, 4, 5) }) };
  }
  for (const [ctype, size, ops] of [
    ['int', 4, ['sum', 'prod', 'min', 'max', 'and', 'or', 'xor']],
    ['long', 8, ['sum', 'prod', 'min', 'max', 'and', 'or', 'xor']],
    ['longlong', 8, ['sum', 'prod', 'min', 'max', 'and', 'or', 'xor']],
    ['double', 8, ['sum', 'prod', 'min', 'max']],
    ['short', 2, ['sum', 'prod', 'min', 'max', 'and', 'or', 'xor']],
    ['float', 4, ['sum', 'prod', 'min', 'max']],
    ['longdouble', 16, ['sum', 'prod', 'min', 'max']],
    ['complexf', 8, ['sum', 'prod']],
    ['complexd', 16, ['sum', 'prod']],
  ] as const) {
    for (const op of ops) {
      const bytes = (a: readonly unknown[]): number => num(a[2]) * size;
      out[`${ctype}${op[0]!.toUpperCase()}${op.slice(1)}ToAll`] = { name: `shmem_${ctype}_${op}_to_all`, bytes, args: (a) => ({ ...set(a, 3), bytes: bytes(a) }) };
    }
  }
  for (const [suffix, [c, size]] of Object.entries(SHMEM_TYPES)) {
    out[`put${suffix}`] = rma(`shmem_${c}_put`, (a) => num(a[2]) * size, 3);
    out[`get${suffix}`] = rma(`shmem_${c}_get`, (a) => num(a[2]) * size, 3);
    out[`put${suffix}Nbi`] = rma(`shmem_${c}_put_nbi`, (a) => num(a[2]) * size, 3);
    out[`get${suffix}Nbi`] = rma(`shmem_${c}_get_nbi`, (a) => num(a[2]) * size, 3);
    out[`p${suffix}`] = rma(`shmem_${c}_p`, () => size, 2);
    out[`g${suffix}`] = rma(`shmem_${c}_g`, () => size, 1);
    out[`iput${suffix}`] = rma(`shmem_${c}_iput`, (a) => num(a[4]) * size, 5);
    out[`iget${suffix}`] = rma(`shmem_${c}_iget`, (a) => num(a[4]) * size, 5);
  }
  for (const bits of [8, 16, 32, 64, 128]) {
    const size = bits / 8;
    out[`put${bits}`] = rma(`shmem_put${bits}`, (a) => num(a[2]) * size, 3);
    out[`get${bits}`] = rma(`shmem_get${bits}`, (a) => num(a[2]) * size, 3);
    out[`put${bits}Nbi`] = rma(`shmem_put${bits}_nbi`, (a) => num(a[2]) * size, 3);
    out[`get${bits}Nbi`] = rma(`shmem_get${bits}_nbi`, (a) => num(a[2]) * size, 3);
    out[`iput${bits}`] = rma(`shmem_iput${bits}`, (a) => num(a[4]) * size, 5);
    out[`iget${bits}`] = rma(`shmem_iget${bits}`, (a) => num(a[4]) * size, 5);
  }
  // atomics: (dest, [cond,] [value,] pe, type); the nbi forms start with (fetch, index)
  const atomics: readonly [string, string, number][] = [
    ['atomicFetch', 'shmem_atomic_fetch', 1],
    ['atomicSet', 'shmem_atomic_set', 2],
    ['atomicAdd', 'shmem_atomic_add', 2],
    ['atomicFetchAdd', 'shmem_atomic_fetch_add', 2],
    ['atomicInc', 'shmem_atomic_inc', 1],
    ['atomicFetchInc', 'shmem_atomic_fetch_inc', 1],
    ['atomicSwap', 'shmem_atomic_swap', 2],
    ['atomicCompareSwap', 'shmem_atomic_compare_swap', 3],
    ['atomicAnd', 'shmem_atomic_and', 2],
    ['atomicFetchAnd', 'shmem_atomic_fetch_and', 2],
    ['atomicOr', 'shmem_atomic_or', 2],
    ['atomicFetchOr', 'shmem_atomic_fetch_or', 2],
    ['atomicXor', 'shmem_atomic_xor', 2],
    ['atomicFetchXor', 'shmem_atomic_fetch_xor', 2],
    ['atomicFetchNbi', 'shmem_atomic_fetch_nbi', 3],
    ['atomicFetchAddNbi', 'shmem_atomic_fetch_add_nbi', 4],
    ['atomicFetchIncNbi', 'shmem_atomic_fetch_inc_nbi', 3],
    ['atomicSwapNbi', 'shmem_atomic_swap_nbi', 4],
    ['atomicCompareSwapNbi', 'shmem_atomic_compare_swap_nbi', 5],
    ['atomicFetchAndNbi', 'shmem_atomic_fetch_and_nbi', 4],
    ['atomicFetchOrNbi', 'shmem_atomic_fetch_or_nbi', 4],
    ['atomicFetchXorNbi', 'shmem_atomic_fetch_xor_nbi', 4],
  ];
  for (const [method, name, pe] of atomics) {
    const bytes = (a: readonly unknown[]): number => ATOMIC_BYTES[typeof a[pe + 1] === 'string' ? (a[pe + 1] as string) : 'int64'] ?? 8;
    out[method] = rma(name, bytes, pe);
  }
  for (const [method, op] of [['sumToAll', 'sum'], ['minToAll', 'min'], ['maxToAll', 'max']] as const) {
    const bytes = (a: readonly unknown[]): number => num(a[2]) * (ATOMIC_BYTES[String(a[3])] ?? 8);
    out[method] = { name: `shmem_${op}_to_all`, bytes, args: (a) => ({ type: String(a[3]), bytes: bytes(a) }) };
  }
  return out;
}

/** The calls of a SHMEM context (`shmem.ctxCreate()`): RMA, atomics, quiet and fence, named `shmem_ctx_...`. */
export function shmemCtxCalls(): Readonly<Record<string, CallSpec>> {
  const out: Record<string, CallSpec> = {};
  for (const [method, spec] of Object.entries(shmemCalls())) {
    if (!/^(put|get|p|g|iput|iget|atomic)[A-Z0-9]|^(putmem|getmem|putmemNbi|getmemNbi|putmemSignal|putmemSignalNbi|putLongdoubleSignal|putLongdoubleSignalNbi|quiet|fence)$/.test(method)) continue;
    out[method] = { ...spec, name: spec.name.replace(/^shmem_/, 'shmem_ctx_') };
  }
  return out;
}

const DMAPP_TYPE_BYTES: Readonly<Record<string, number>> = { byte: 1, dw: 4, qw: 8, dqw: 16 };

/** DMAPP (`ctx.dmapp`): arguments start with (target, seg, offset). */
export function dmappCalls(): Readonly<Record<string, CallSpec>> {
  const rma = (name: string, bytes: (a: readonly unknown[]) => number): CallSpec => ({ name, bytes, args: (a) => ({ pe: num(a[0]), bytes: bytes(a) }) });
  const buf = (a: readonly unknown[]): number => nb(a[3]);
  const strided = (a: readonly unknown[]): number => num(a[7]) * (DMAPP_TYPE_BYTES[String(a[4])] ?? 0);
  const indexed = (a: readonly unknown[]): number => {
    const idx = a[5] as ArrayLike<number> | undefined;
    return (idx?.length ?? 0) * (DMAPP_TYPE_BYTES[String(a[4])] ?? 0);
  };
  const qw = (): number => 8;
  const out: Record<string, CallSpec> = {
    malloc: { name: 'dmapp_sheap_malloc', args: (a) => ({ size: num(a[0]) }) },
    free: { name: 'dmapp_sheap_free' },
    put: rma('dmapp_put', buf),
    get: rma('dmapp_get', buf),
    putNb: rma('dmapp_put_nb', buf),
    getNb: rma('dmapp_get_nb', buf),
    putNbi: rma('dmapp_put_nbi', buf),
    getNbi: rma('dmapp_get_nbi', buf),
    iputNbi: rma('dmapp_iput_nbi', strided),
    igetNbi: rma('dmapp_iget_nbi', strided),
    scatterNbi: rma('dmapp_scatter_nbi', indexed),
    gatherNbi: rma('dmapp_gather_nbi', indexed),
    syncidWait: { name: 'dmapp_syncid_wait' },
    syncidTest: { name: 'dmapp_syncid_test' },
    gsyncWait: { name: 'dmapp_gsync_wait' },
    gsyncTest: { name: 'dmapp_gsync_test' },
  };
  for (const m of ['aaddQw', 'aaddQwNbi', 'aandQw', 'aorQw', 'axorQw', 'afaddQw', 'afandQw', 'aforQw', 'afxorQw', 'aswapQw', 'acswapQw', 'afaddQwNb', 'afaddQwNbi']) {
    out[m] = rma(`dmapp_${m.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase())}`, qw);
  }
  return out;
}

/** uGNI (`ctx.gni`). */
export function gniCalls(): Readonly<Record<string, CallSpec>> {
  const post = (name: string): CallSpec => {
    const bytes = (a: readonly unknown[]): number => {
      const d = a[1] as { length?: number; local?: Uint8Array } | undefined;
      return d?.length ?? d?.local?.length ?? 0;
    };
    return {
      name,
      bytes,
      args: (a) => {
        const ep = a[0] as { remoteRank?: number } | undefined;
        const d = a[1] as { type?: string } | undefined;
        return { peer: ep?.remoteRank ?? -1, type: String(d?.type), bytes: bytes(a) };
      },
    };
  };
  const smsg = (name: string): CallSpec => {
    const bytes = (a: readonly unknown[]): number => nb(a[1]) + nb(a[2]);
    return { name, bytes, args: (a) => ({ peer: (a[0] as { remoteRank?: number } | undefined)?.remoteRank ?? -1, bytes: bytes(a) }) };
  };
  const out: Record<string, CallSpec> = {
    exchange: { name: 'PMI_Allgather' },
    postFma: post('GNI_PostFma'),
    postRdma: post('GNI_PostRdma'),
    smsgSend: smsg('GNI_SmsgSend'),
    smsgSendWTag: smsg('GNI_SmsgSendWTag'),
  };
  for (const m of ['cdmCreate', 'cdmAttach', 'cdmDestroy', 'cqCreate', 'cqDestroy', 'cqGetEvent', 'cqWaitEvent', 'getCompleted', 'epCreate', 'epBind', 'epUnbind', 'epDestroy', 'memRegister', 'memDeregister', 'postRecvBuffer', 'smsgInit', 'smsgGetNext', 'smsgRelease']) {
    out[m] = { name: `GNI_${m[0]!.toUpperCase()}${m.slice(1)}` };
  }
  return out;
}
