/**
 * The replay calls of one MPI region of an OTF2 trace: the events between the Enter and the
 * Leave of a region named after an MPI function (Score-P's MPI adapter), turned into phit's
 * calls. Sends (MpiSend, MpiIsend) and receives (MpiRecv, and MpiIrecvRequest with the sender,
 * tag and length of its MpiIrecv completion, found further on) are issued as such, an MpiSend and
 * an MpiRecv in one MPI_Sendrecv as a sendrecv; the requests a region completes (MpiIsendComplete,
 * MpiIrecv) or tests (MpiRequestTest) make one completion call of the region's kind; a collective
 * (MpiCollectiveEnd) its call, with the bytes per rank worked out from this rank's bytes sent and
 * received as Score-P counts them (scorep_mpi_coll_bytes_*); OTF2 records no datatype and no
 * reduction op, so reductions use the widest of 8, 4, 2 or 1-byte elements that divides the bytes
 * and sum. The create-handle and destroy-handle collectives are communicator creation and release.
 * A NonBlockingCollectiveRequest is the nonblocking collective its NonBlockingCollectiveComplete
 * (found further on) describes, with its request; the completion is a request the wait or test completes.
 * The one-sided calls' RMA events are `otf2-rma.ts`'s.
 */
import { ANY_TAG, type CollCall, type CompletionCall, type SendMode, type TraceCall, type VCollCall } from './calls.ts';
import type { Otf2Comm } from './otf2-defs.ts';
import { EV, type Otf2Event } from './otf2-events.ts';
import { matrixWithSums, type CountedRow } from './otf2-peers.ts';
import { rmaCall, type RmaContext } from './otf2-rma.ts';

/** What turning a region into calls needs from the reader. */
export interface RegionContext extends RmaContext {
  /** The communicator of an OTF2 id; throws on an undefined one. */
  comm(id: number, e: Otf2Event): Otf2Comm;
  /** The replay's handle of a communicator. */
  handle(c: Otf2Comm): number;
  /** The completion (MpiIrecv) of receive request `request`, or null when the trace never completes it. */
  irecv(request: number): Otf2Event | null;
  /** The NonBlockingCollectiveComplete of request `request`, or null when the trace never completes it. */
  nbcComplete(request: number): Otf2Event | null;
  /** Every member's bytes in this rank's next counted collective on `c`. */
  counted(c: Otf2Comm): readonly CountedRow[];
  /** The communicator this rank gets from its next create-handle collective on `parent`, or null (MPI_COMM_NULL). */
  created(parent: Otf2Comm): Otf2Comm | null;
}

/** OTF2_CollectiveOp names, by number. */
const COLLECTIVES = [
  'barrier', 'bcast', 'gather', 'gatherv', 'scatter', 'scatterv', 'allgather', 'allgatherv', 'alltoall', 'alltoallv', 'alltoallw',
  'allreduce', 'reduce', 'reduceScatter', 'scan', 'exscan', 'reduceScatterBlock', 'createHandle', 'destroyHandle', 'allocate', 'deallocate',
  'createHandleAndAllocate', 'destroyHandleAndDeallocate',
] as const;

const COMPLETIONS = new Set(['wait', 'waitall', 'waitany', 'waitsome', 'test', 'testall', 'testany', 'testsome']);

/** The send mode of an MPI send function's name. */
function modeOf(name: string): SendMode {
  const n = name.toLowerCase();
  return n.includes('ssend') ? 'sync' : n.includes('rsend') ? 'ready' : n.includes('bsend') ? 'buffered' : 'standard';
}

/** The calls of the region `name` holding `events` (in order). */
export function regionCalls(name: string, events: readonly Otf2Event[], ctx: RegionContext): TraceCall[] {
  const out: TraceCall[] = [];
  const completed: number[] = [];
  const kind = name.toLowerCase().replace(/^mpi_/, '');
  let pendingSend: TraceCall & { call: 'send' } | null = null;
  for (const e of events) {
    switch (e.type) {
      case EV.mpiSend:
      case EV.mpiIsend: {
        const c = ctx.comm(e.comm, e);
        const send: TraceCall & { call: 'send' } = { call: 'send', name, mode: modeOf(name), comm: ctx.handle(c), peer: e.peer, tag: e.tag, bytes: e.bytes, ...(e.type === EV.mpiIsend ? { req: e.request } : {}) };
        if (e.type === EV.mpiSend && kind.startsWith('sendrecv')) pendingSend = send;
        else out.push(send);
        break;
      }
      case EV.mpiRecv: {
        const c = ctx.comm(e.comm, e);
        if (pendingSend) {
          out.push({ call: 'sendrecv', name, comm: pendingSend.comm, dest: pendingSend.peer, sendTag: pendingSend.tag, sendBytes: pendingSend.bytes, source: e.peer, recvTag: e.tag, recvBytes: e.bytes });
          pendingSend = null;
        } else out.push({ call: 'recv', name, comm: ctx.handle(c), peer: e.peer, tag: e.tag, bytes: e.bytes });
        break;
      }
      case EV.mpiIrecvRequest: {
        const done = ctx.irecv(e.request);
        if (done === null) out.push({ call: 'unsupported', name: `${name} (never completed)`, nearest: null });
        else out.push({ call: 'recv', name, comm: ctx.handle(ctx.comm(done.comm, done)), peer: done.peer, tag: done.tag === ANY_TAG ? ANY_TAG : done.tag, bytes: done.bytes, req: e.request });
        break;
      }
      case EV.mpiIsendComplete:
      case EV.mpiIrecv:
      case EV.mpiRequestTest:
      case EV.mpiRequestCancelled:
      case EV.nbcComplete:
        completed.push(e.request);
        break;
      case EV.mpiCollectiveEnd:
        out.push(collective(name, e, ctx));
        break;
      default: {
        const c = rmaCall(name, e, ctx);
        if (c) out.push(c);
        break;
      }
      case EV.nbcRequest: {
        // the collective, its communicator, root and bytes are in its completion, further on
        const done = ctx.nbcComplete(e.request);
        const call = done === null ? null : collective(name, done, ctx);
        if (call && 'comm' in call && call.call !== 'split' && call.call !== 'free') out.push({ ...call, req: e.request } as TraceCall);
        else out.push({ call: 'unsupported', name: `${name} (never completed)`, nearest: null });
        break;
      }
    }
  }
  // a send to MPI_PROC_NULL records no event; a sendrecv whose receive came from MPI_PROC_NULL only its send
  if (pendingSend) out.push(pendingSend);
  if (completed.length > 0 || COMPLETIONS.has(kind)) {
    const call = (COMPLETIONS.has(kind) ? kind : 'waitall') as CompletionCall['call'];
    out.push({ call, name, reqs: completed });
  }
  if (out.length === 0) out.push({ call: 'local', name });
  return out;
}

/** Elements for `bytes` of a reduction: the widest of 8, 4, 2 or 1 bytes that divides them. */
function elements(bytes: number): { count: number; typeBytes: number } {
  const t = bytes % 8 === 0 ? 8 : bytes % 4 === 0 ? 4 : bytes % 2 === 0 ? 2 : 1;
  return { count: bytes / t, typeBytes: t };
}

function collective(name: string, e: Otf2Event, ctx: RegionContext): TraceCall {
  const c = ctx.comm(e.comm, e);
  const comm = ctx.handle(c);
  const n = c.self ? 1 : c.members.length;
  const me = c.self ? 0 : c.members.indexOf(ctx.rank);
  const root = e.peer < 0 ? 0 : e.peer;
  const op = COLLECTIVES[e.op];
  const coll = (call: CollCall['call'], bytes: number, reduces: boolean): CollCall => {
    const { count, typeBytes } = reduces ? elements(bytes) : { count: bytes, typeBytes: 1 };
    return { call, name, comm, count, typeBytes, root, op: 'sum', flops: 0 };
  };
  switch (op) {
    case 'barrier':
      return coll('barrier', 0, false);
    case 'bcast':
    case 'scatter':
      return coll(op, e.received, false);
    case 'gather':
      return coll('gather', e.bytes, false);
    case 'reduce':
      return coll('reduce', e.bytes, true);
    case 'allgather':
    case 'alltoall':
      return coll(op, e.bytes / n, false);
    case 'allreduce':
      return coll('allreduce', e.bytes / n, true);
    case 'scan':
      return coll('scan', e.received / (me + 1), true);
    case 'exscan':
      return coll('exscan', me > 0 ? e.received / me : n > 1 ? e.bytes / (n - 1) : 0, true);
    case 'reduceScatterBlock': {
      const { typeBytes } = elements(e.received / n);
      return { call: 'reduceScatter', name, comm, typeBytes, sendCounts: null, recvCounts: new Array<number>(n).fill(e.received / n / typeBytes), root: 0, op: 'sum', flops: 0 };
    }
    case 'gatherv':
    case 'scatterv':
    case 'allgatherv':
    case 'alltoallv':
    case 'alltoallw':
    case 'reduceScatter':
      return counted(op, name, comm, me, root, ctx.counted(c));
    case 'createHandle':
    case 'createHandleAndAllocate': {
      const made = ctx.created(c);
      const key = made ? made.members.indexOf(ctx.rank) : 0;
      return { call: 'split', name, comm, color: made ? made.id : -1, key, newComm: made ? ctx.handle(made) : null };
    }
    case 'destroyHandle':
    case 'destroyHandleAndDeallocate':
      return { call: 'free', name, comm, color: 0, key: 0, newComm: null };
    default:
      return { call: 'local', name };
  }
}

/** A counted collective from every member's row: each rank's count, as Score-P's byte totals give it. */
function counted(op: string, name: string, comm: number, me: number, root: number, rows: readonly CountedRow[]): TraceCall {
  const n = rows.length;
  const v = (call: VCollCall['call'], send: number[] | null, recv: number[] | null, typeBytes = 1): VCollCall => ({ call, name, comm, typeBytes, sendCounts: send, recvCounts: recv, root, op: 'sum', flops: 0 });
  switch (op) {
    case 'gatherv': {
      // every rank's bytes sent are its block (the root's too)
      const blocks = rows.map((r) => r.sent);
      return v('gatherv', [blocks[me]!], blocks);
    }
    case 'scatterv': {
      const blocks = rows.map((r) => r.received);
      return v('scatterv', blocks, [blocks[me]!]);
    }
    case 'allgatherv': {
      // each rank sends its block to all n
      const blocks = rows.map((r) => r.sent / n);
      return v('allgatherv', [blocks[me]!], blocks);
    }
    case 'reduceScatter': {
      // each rank receives its block from all n
      const blocks = rows.map((r) => r.received / n);
      const t = blocks.reduce((w, b) => Math.min(w, elements(b).typeBytes), 8);
      return v('reduceScatter', null, blocks.map((b) => b / t), t);
    }
    default: {
      // alltoallv (and alltoallw): only totals are traced; an exchange with the same totals
      const m = matrixWithSums(rows.map((r) => r.sent), rows.map((r) => r.received));
      const call = v('alltoallv', m[me]!, m.map((row) => row[me]!));
      return op === 'alltoallw' ? { call: 'unsupported', name, nearest: call } : call;
    }
  }
}
