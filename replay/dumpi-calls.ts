/**
 * DUMPI records as replay calls: which MPI functions are issued, which are local (no message,
 * nothing to replay), and which are unsupported with the nearest call they map to. Handles
 * (communicators, requests) stay the trace's numbers; ranks stay relative to the communicator.
 */
import { ANY_SOURCE, ANY_TAG, PROC_NULL, TraceFormatError, type RecvCall, type SendCall, type SendMode, type TraceCall, type TraceOp, type WinSyncCall } from './calls.ts';

/** A decoded record: its function, where it starts, and its fields by name. */
export interface DumpiRecord {
  readonly name: string;
  readonly offset: number;
  [field: string]: number | number[] | string;
}

/** DUMPI's handle of MPI_COMM_NULL and of MPI_REQUEST_NULL. */
const COMM_NULL = 1;
/** DUMPI's MPI_LOCK_EXCLUSIVE (dumpi/common/constants.h). */
const LOCK_EXCLUSIVE = 2;

/** What a rank's records say that later records refer to: its groups, as ranks of the communicator they were taken from (null: all of its ranks). */
export interface DumpiState {
  readonly groups: Map<number, readonly number[] | null>;
}
/** DUMPI's reduction ops by code (dumpi/common/constants.h). */
const OPS: readonly (TraceOp | null)[] = [null, 'max', 'min', 'sum', 'prod', 'land', 'band', 'lor', 'bor', 'lxor', 'bxor', 'minloc', 'maxloc', 'replace'];

/** Calls that move no message and cost nothing in the replay. */
const LOCAL = new Set([
  'MPI_Get_count', 'MPI_Buffer_attach', 'MPI_Buffer_detach', 'MPI_Test_cancelled', 'MPI_Type_contiguous', 'MPI_Type_vector', 'MPI_Type_hvector',
  'MPI_Type_indexed', 'MPI_Type_hindexed', 'MPI_Type_struct', 'MPI_Address', 'MPI_Type_extent', 'MPI_Type_size', 'MPI_Type_commit', 'MPI_Type_free',
  'MPI_Get_elements', 'MPI_Pack', 'MPI_Unpack', 'MPI_Pack_size', 'MPI_Op_create', 'MPI_Op_free', 'MPI_Group_size', 'MPI_Group_rank', 'MPI_Group_free', 'MPI_Comm_size', 'MPI_Comm_rank', 'MPI_Comm_compare', 'MPI_Comm_test_inter', 'MPI_Comm_remote_size', 'MPI_Attr_get',
  'MPI_Topo_test', 'MPI_Win_get_group', 'MPI_Dims_create', 'MPI_Cartdim_get', 'MPI_Cart_get', 'MPI_Cart_rank', 'MPI_Cart_coords', 'MPI_Cart_shift', 'MPI_Get_processor_name',
  'MPI_Get_version', 'MPI_Errhandler_set', 'MPI_Errhandler_get', 'MPI_Error_string', 'MPI_Wtime', 'MPI_Wtick', 'MPI_Init', 'MPI_Finalize',
  'MPI_Initialized', 'MPI_Comm_get_attr', 'MPI_Comm_get_name', 'MPI_Comm_set_name', 'MPI_Init_thread', 'MPI_Is_thread_main', 'MPI_Query_thread',
  'MPI_Type_dup', 'MPI_Alloc_mem', 'MPI_Comm_get_errhandler', 'MPI_Comm_set_errhandler', 'MPI_Finalized', 'MPI_Free_mem', 'MPI_Get_address',
  'MPI_Type_create_hindexed', 'MPI_Type_create_hvector', 'MPI_Type_create_indexed_block', 'MPI_Type_create_resized', 'MPI_Type_create_struct',
  'MPI_Type_create_subarray', 'MPI_Type_get_extent',
]);

const MODES: Readonly<Record<string, SendMode>> = { MPI_Send: 'standard', MPI_Isend: 'standard', MPI_Bsend: 'buffered', MPI_Ibsend: 'buffered', MPI_Ssend: 'sync', MPI_Issend: 'sync', MPI_Rsend: 'ready', MPI_Irsend: 'ready' };

/** The replay call of record `rec`; `typeSize` gives a datatype handle's bytes; `state` holds the groups made so far. */
export function callOf(name: string, rec: DumpiRecord, typeSize: (t: number, what: string) => number, state: DumpiState): TraceCall {
  const n = (f: string): number => {
    const v = rec[f];
    if (typeof v !== 'number') throw new TraceFormatError(`byte ${rec.offset}: ${name} lacks its field ${f}`);
    return v;
  };
  const arr = (f: string): number[] | null => {
    const v = rec[f];
    return Array.isArray(v) ? v : null;
  };
  const bytesOf = (count: string, type: string): number => n(count) * typeSize(n(type), `byte ${rec.offset}: ${name}`);
  const dest = (v: number): number => (v < 0 ? PROC_NULL : v);
  // DUMPI writes MPI_ANY_SOURCE as -1 (MPICH's MPI_PROC_NULL is -1 too: read as any source)
  const source = (v: number): number => (v === -1 ? ANY_SOURCE : v < 0 ? PROC_NULL : v);
  const tag = (v: number): number => (v < 0 ? ANY_TAG : v);
  const op = (): TraceOp => OPS[n('op')] ?? 'sum';
  if (LOCAL.has(name)) return { call: 'local', name };
  switch (name) {
    case 'MPI_Send':
    case 'MPI_Bsend':
    case 'MPI_Ssend':
    case 'MPI_Rsend':
      return { call: 'send', name, mode: MODES[name]!, comm: n('comm'), peer: dest(n('dest')), tag: n('tag'), bytes: bytesOf('count', 'type') };
    case 'MPI_Isend':
    case 'MPI_Ibsend':
    case 'MPI_Issend':
    case 'MPI_Irsend':
      return { call: 'send', name, mode: MODES[name]!, comm: n('comm'), peer: dest(n('dest')), tag: n('tag'), bytes: bytesOf('count', 'type'), req: n('request') };
    case 'MPI_Recv':
      return { call: 'recv', name, comm: n('comm'), peer: source(n('source')), tag: tag(n('tag')), bytes: bytesOf('count', 'type') };
    case 'MPI_Irecv':
      return { call: 'recv', name, comm: n('comm'), peer: source(n('source')), tag: tag(n('tag')), bytes: bytesOf('count', 'type'), req: n('request') };
    case 'MPI_Send_init':
    case 'MPI_Bsend_init':
    case 'MPI_Ssend_init':
    case 'MPI_Rsend_init': {
      const op: SendCall = { call: 'send', name, mode: MODES[name.replace('_init', '')]!, comm: n('comm'), peer: dest(n('dest')), tag: n('tag'), bytes: bytesOf('count', 'type'), req: n('request') };
      return { call: 'init', name, req: n('request'), op };
    }
    case 'MPI_Recv_init': {
      const op: RecvCall = { call: 'recv', name, comm: n('comm'), peer: source(n('source')), tag: tag(n('tag')), bytes: bytesOf('count', 'type'), req: n('request') };
      return { call: 'init', name, req: n('request'), op };
    }
    case 'MPI_Start':
      return { call: 'start', name, reqs: [n('request')] };
    case 'MPI_Startall':
      return { call: 'start', name, reqs: arr('requests') ?? [] };
    case 'MPI_Request_free':
      return { call: 'requestFree', name, req: n('request') };
    case 'MPI_Cancel':
      return { call: 'cancel', name, req: n('request') };
    case 'MPI_Probe':
    case 'MPI_Iprobe':
      return { call: name === 'MPI_Probe' ? 'probe' : 'iprobe', name, comm: n('comm'), peer: source(n('source')), tag: tag(n('tag')) };
    case 'MPI_Comm_group':
      state.groups.set(n('group'), null);
      return { call: 'local', name };
    case 'MPI_Group_incl': {
      const base = state.groups.get(n('group'));
      const ranks = arr('ranks') ?? [];
      state.groups.set(n('newgroup'), base === undefined || base === null ? ranks : ranks.map((r) => base[r] ?? -1));
      return { call: 'local', name };
    }
    case 'MPI_Win_create':
      return { call: 'winCreate', name, comm: n('comm'), win: n('win'), bytes: n('size'), dispUnit: n('dispunit') };
    case 'MPI_Put':
    case 'MPI_Get':
    case 'MPI_Accumulate':
      return {
        call: name === 'MPI_Put' ? 'put' : name === 'MPI_Get' ? 'get' : 'accumulate', name, win: n('win'), target: n('targetrank'), disp: n('targetdisp'),
        count: n('origincount'), typeBytes: typeSize(n('origintype'), name), op: name === 'MPI_Accumulate' ? op() : 'sum',
      };
    case 'MPI_Win_free':
      return sync('winFree');
    case 'MPI_Win_fence':
      return sync('fence', { assert: n('assertion') });
    case 'MPI_Win_start':
    case 'MPI_Win_post': {
      const g = state.groups.get(n('group'));
      if (g === undefined) throw new TraceFormatError(`byte ${rec.offset}: ${name} names group ${n('group')}, which no earlier MPI_Comm_group or MPI_Group_incl of the trace made`);
      return sync(name === 'MPI_Win_start' ? 'winStart' : 'winPost', { group: g, assert: n('assertion') });
    }
    case 'MPI_Win_complete':
      return sync('winComplete');
    case 'MPI_Win_wait':
      return sync('winWait');
    case 'MPI_Win_test':
      return sync('winTest', { flag: n('flag') !== 0 });
    case 'MPI_Win_lock':
      return sync('lock', { target: n('winrank'), exclusive: n('locktype') === LOCK_EXCLUSIVE, assert: n('assertion') });
    case 'MPI_Win_unlock':
      return sync('unlock', { target: n('winrank') });
    case 'MPI_Sendrecv':
      return {
        call: 'sendrecv', name, comm: n('comm'),
        dest: dest(n('dest')), sendTag: n('sendtag'), sendBytes: bytesOf('sendcount', 'sendtype'),
        source: source(n('source')), recvTag: tag(n('recvtag')), recvBytes: bytesOf('recvcount', 'recvtype'),
      };
    case 'MPI_Sendrecv_replace':
      return {
        call: 'sendrecv', name, comm: n('comm'),
        dest: dest(n('dest')), sendTag: n('sendtag'), sendBytes: bytesOf('count', 'type'),
        source: source(n('source')), recvTag: tag(n('recvtag')), recvBytes: bytesOf('count', 'type'),
      };
    case 'MPI_Wait':
    case 'MPI_Test':
      return { call: name === 'MPI_Wait' ? 'wait' : 'test', name, reqs: [n('request')] };
    case 'MPI_Waitall':
    case 'MPI_Testall':
    case 'MPI_Waitany':
    case 'MPI_Testany':
    case 'MPI_Waitsome':
    case 'MPI_Testsome':
      return { call: name.slice(4).toLowerCase() as 'waitall', name, reqs: arr('requests') ?? [] };
    case 'MPI_Barrier':
      return { call: 'barrier', name, comm: n('comm'), count: 0, typeBytes: 1, root: 0, op: 'sum', flops: 0 };
    case 'MPI_Bcast':
      return coll('bcast', n('count'), typeSize(n('type'), name), n('root'), 'sum');
    case 'MPI_Reduce':
      return coll('reduce', n('count'), typeSize(n('type'), name), n('root'), op());
    case 'MPI_Allreduce':
    case 'MPI_Scan':
    case 'MPI_Exscan':
      return coll(name.slice(4).toLowerCase() as 'allreduce', n('count'), typeSize(n('type'), name), 0, op());
    case 'MPI_Alltoall':
    case 'MPI_Allgather':
      return coll(name.slice(4).toLowerCase() as 'alltoall', n('sendcount'), typeSize(n('sendtype'), name), 0, 'sum');
    case 'MPI_Gather':
      return coll('gather', n('sendcount'), typeSize(n('sendtype'), name), n('root'), 'sum');
    case 'MPI_Scatter':
      return coll('scatter', n('recvcount'), typeSize(n('recvtype'), name), n('root'), 'sum');
    case 'MPI_Alltoallv':
      return vcoll('alltoallv', arr('sendcounts'), typeSize(n('sendtype'), name), arr('recvcounts'), typeSize(n('recvtype'), name), 0, 'sum');
    case 'MPI_Allgatherv':
      return vcoll('allgatherv', [n('sendcount')], typeSize(n('sendtype'), name), arr('recvcounts'), typeSize(n('recvtype'), name), 0, 'sum');
    case 'MPI_Gatherv':
      return vcoll('gatherv', [n('sendcount')], typeSize(n('sendtype'), name), arr('recvcounts'), typeSize(n('recvtype'), name), n('root'), 'sum');
    case 'MPI_Scatterv':
      return vcoll('scatterv', arr('sendcounts'), typeSize(n('sendtype'), name), [n('recvcount')], typeSize(n('recvtype'), name), n('root'), 'sum');
    case 'MPI_Reduce_scatter': {
      const t = typeSize(n('type'), name);
      return vcoll('reduceScatter', null, t, arr('recvcounts'), t, 0, op());
    }
    case 'MPI_Alltoallw': {
      // nearest: alltoallv of the same bytes to and from every rank
      const bytes = (counts: string, types: string): number[] => (arr(counts) ?? []).map((c, i) => c * typeSize((arr(types) ?? [])[i] ?? -1, name));
      return { call: 'unsupported', name, nearest: { call: 'alltoallv', name: 'MPI_Alltoallv', comm: n('comm'), typeBytes: 1, sendCounts: bytes('sendcounts', 'sendtypes'), recvCounts: bytes('recvcounts', 'recvtypes'), root: 0, op: 'sum', flops: 0 } };
    }
    case 'MPI_Comm_split':
      return { call: 'split', name, comm: n('oldcomm'), color: n('color'), key: n('key'), newComm: n('newcomm') === COMM_NULL ? null : n('newcomm') };
    case 'MPI_Comm_dup':
      return { call: 'dup', name, comm: n('oldcomm'), color: 0, key: 0, newComm: n('newcomm') };
    case 'MPI_Comm_free':
      return { call: 'free', name, comm: n('comm'), color: 0, key: 0, newComm: null };
    case 'MPI_Cart_create':
      // nearest: a duplicate of the old communicator (the same ranks, as a cartesian one without reordering has)
      return { call: 'unsupported', name, nearest: { call: 'dup', name: 'MPI_Comm_dup', comm: n('oldcomm'), color: 0, key: 0, newComm: n('newcomm') === COMM_NULL ? null : n('newcomm') } };
    default:
      return { call: 'unsupported', name, nearest: null };
  }

  function sync(call: WinSyncCall['call'], more: Partial<WinSyncCall> = {}): WinSyncCall {
    return { call, name, win: n('win'), group: null, target: -1, exclusive: false, assert: 0, ...more };
  }

  function coll(call: 'bcast' | 'reduce' | 'allreduce' | 'scan' | 'exscan' | 'alltoall' | 'allgather' | 'gather' | 'scatter', count: number, typeBytes: number, root: number, o: TraceOp): TraceCall {
    return { call, name, comm: n('comm'), count, typeBytes, root, op: o, flops: 0 };
  }

  /** A counted collective; send and receive counts in bytes when the two datatypes differ in size. */
  function vcoll(call: 'alltoallv' | 'allgatherv' | 'gatherv' | 'scatterv' | 'reduceScatter', send: number[] | null, sendType: number, recv: number[] | null, recvType: number, root: number, o: TraceOp): TraceCall {
    const same = sendType === recvType;
    const scale = (xs: number[] | null, t: number): number[] | null => (xs && !same ? xs.map((x) => x * t) : xs);
    return { call, name, comm: n('comm'), typeBytes: same ? sendType : 1, sendCounts: scale(send, sendType), recvCounts: scale(recv, recvType), root, op: o, flops: 0 };
  }
}
