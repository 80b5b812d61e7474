/**
 * One rank's OTF2 event file written from its logged MPI calls, with the records and conventions
 * of Score-P's MPI adapter (what `otf2-calls.ts` reads back): each call is an Enter and a Leave
 * of the region named after its function; sends add MpiSend (MpiIsend with its request), a
 * receive MpiRecv, an irecv MpiIrecvRequest; a completion call adds, for each request it
 * completed, MpiIsendComplete or MpiIrecv (with the receive's peer, tag and bytes); collectives
 * add MpiCollectiveBegin and MpiCollectiveEnd with the collective's type, root and the bytes this
 * rank sent and received as Score-P counts them (scorep_mpi_coll_bytes_*); communicator
 * creation and release are the create-handle and destroy-handle collectives. A nonblocking
 * collective adds NonBlockingCollectiveRequest with its request, and the call that completes it
 * NonBlockingCollectiveComplete with the collective, communicator, root and bytes (OTF2 3.0). A
 * persistent request's MPI_Start adds the MpiIsend or MpiIrecvRequest of the operation it starts
 * (its init, MPI_Request_free and probes are regions without events, as Score-P writes them), and a
 * request MPI_Cancel named completes with MpiRequestCancelled. Peers are ranks in the call's
 * communicator; a peer MPI_PROC_NULL gets no event, as in Score-P. The one-sided calls' events
 * are `otf2-rma-writer.ts`'s. Timestamps are simulated picoseconds.
 */
import { ANY_SOURCE, ANY_TAG, PROC_NULL, type InitCall, type TraceCall } from './calls.ts';
import type { LoggedCall, RankLog } from './call-log.ts';
import { Otf2ChunkedFile, Otf2Fields, OTF2_UNDEFINED } from './otf2-file-writer.ts';
import { ATTRIBUTE_LIST } from './otf2-rma-records.ts';
import { RmaEvents, type Otf2RmaIds } from './otf2-rma-writer.ts';

/** Event record types (otf2_events_int.h). */
const EV = {
  timestamp: 5, enter: 12, leave: 13, mpiSend: 14, mpiIsend: 15, mpiIsendComplete: 16, mpiIrecvRequest: 17, mpiRecv: 18, mpiIrecv: 19, mpiRequestCancelled: 21, collBegin: 22, collEnd: 23,
  nbcRequest: 85, nbcComplete: 86,
} as const;
/** OTF2_CollectiveOp by replay call. */
const COLL_OPS: Readonly<Record<string, number>> = {
  barrier: 0, bcast: 1, gather: 2, gatherv: 3, scatter: 4, scatterv: 5, allgather: 6, allgatherv: 7, alltoall: 8, alltoallv: 9,
  allreduce: 11, reduce: 12, reduceScatter: 13, scan: 14, exscan: 15, split: 17, dup: 17, free: 18,
};

/** What the event writer needs from the archive: region ids, global communicator ids, and the one-sided calls' ids. */
export interface Otf2Ids extends Otf2RmaIds {
  region(name: string): number;
  /** The global id of communicator handle `handle` of `rank`. */
  comm(rank: RankLog, handle: number): number;
}

/** A receive request's envelope, for its completion event. */
interface RecvInfo {
  readonly peer: number;
  readonly comm: number;
  readonly tag: number;
  readonly bytes: number;
}

/** What one rank's events refer back to: receive requests' envelopes, nonblocking collectives, persistent requests, cancelled requests. */
interface Pending {
  readonly recvs: Map<number, RecvInfo>;
  /** A nonblocking collective's end record fields, by request. */
  readonly colls: Map<number, Otf2Fields>;
  readonly inits: Map<number, InitCall['op']>;
  readonly cancelled: Set<number>;
}

/** Writes one rank's events (MPI_Init at 0, `calls`, MPI_Finalize when its program returned). */
export function eventFile(rank: RankLog, calls: readonly LoggedCall[], ids: Otf2Ids, chunkSize: number): Otf2ChunkedFile {
  const f = new Otf2ChunkedFile(chunkSize);
  let time = -1;
  const event = (type: number, at: number, fields: Otf2Fields, singleton = false, attrs: Otf2Fields | null = null): void => {
    const t = Math.max(at, time);
    // an attribute list sits between the event's timestamp and the event, in the same chunk
    const size = 1 + (singleton ? 0 : 1) + fields.w.offset + (attrs ? 2 + attrs.w.offset : 0);
    if (!f.fits(9 + size)) f.nextChunk();
    if (t !== time || f.chunkEmpty) f.record(EV.timestamp, new Otf2Fields().u64full(t), { singleton: true });
    time = t;
    if (attrs) f.record(ATTRIBUTE_LIST, attrs);
    f.record(type, fields, { singleton, event: true });
  };
  const region = (name: string, fromPs: number, toPs: number, inside: () => void): void => {
    const id = ids.region(name);
    event(EV.enter, fromPs, new Otf2Fields().int(id), true);
    inside();
    event(EV.leave, toPs, new Otf2Fields().int(id), true);
  };
  const pending: Pending = { recvs: new Map(), colls: new Map(), inits: new Map(), cancelled: new Set() };
  const rma = new RmaEvents(rank, ids, event);
  region('MPI_Init', 0, 0, () => {});
  for (const l of calls) region(l.call.name, l.fromPs, l.toPs, () => {
    if (!rma.write(l)) callEvents(l, rank, ids, pending, event);
  });
  region('MPI_Finalize', rank.endPs, rank.endPs, () => {});
  return f;
}

type Emit = (type: number, at: number, fields: Otf2Fields, singleton?: boolean, attrs?: Otf2Fields | null) => void;

/** A peer as OTF2 events give it: undefined for any source. */
function peer(p: number): number {
  return p === ANY_SOURCE ? OTF2_UNDEFINED : p;
}

/** The events inside one call's region (but a one-sided call's). */
function callEvents(l: LoggedCall, rank: RankLog, ids: Otf2Ids, pending: Pending, event: Emit): void {
  const c = l.call;
  const comm = (h: number): number => ids.comm(rank, h);
  const { recvs } = pending;
  switch (c.call) {
    case 'init':
      pending.inits.set(c.req, c.op);
      return;
    case 'start':
      // each start is the isend or irecv of the request's operation, as Score-P writes MPI_Start
      for (const r of c.reqs) {
        const op = pending.inits.get(r);
        if (op) callEvents({ ...l, call: op }, rank, ids, pending, event);
      }
      return;
    case 'cancel':
      pending.cancelled.add(c.req);
      return;
    case 'requestFree':
      pending.inits.delete(c.req);
      return;
    case 'probe':
    case 'iprobe':
      return;
    case 'send':
      if (c.peer === PROC_NULL) return;
      if (c.req === undefined) event(EV.mpiSend, l.fromPs, new Otf2Fields().int(c.peer).int(comm(c.comm)).int(c.tag).int(c.bytes));
      else event(EV.mpiIsend, l.fromPs, new Otf2Fields().int(c.peer).int(comm(c.comm)).int(c.tag).int(c.bytes).int(c.req));
      return;
    case 'recv':
      if (c.peer === PROC_NULL) return;
      if (c.req === undefined) event(EV.mpiRecv, l.toPs, new Otf2Fields().int(peer(c.peer)).int(comm(c.comm)).int(c.tag === ANY_TAG ? OTF2_UNDEFINED : c.tag).int(c.bytes));
      else {
        recvs.set(c.req, { peer: peer(c.peer), comm: comm(c.comm), tag: c.tag === ANY_TAG ? OTF2_UNDEFINED : c.tag, bytes: c.bytes });
        event(EV.mpiIrecvRequest, l.fromPs, new Otf2Fields().int(c.req), true);
      }
      return;
    case 'sendrecv':
      if (c.dest !== PROC_NULL) event(EV.mpiSend, l.fromPs, new Otf2Fields().int(c.dest).int(comm(c.comm)).int(c.sendTag).int(c.sendBytes));
      if (c.source !== PROC_NULL) event(EV.mpiRecv, l.toPs, new Otf2Fields().int(peer(c.source)).int(comm(c.comm)).int(c.recvTag === ANY_TAG ? OTF2_UNDEFINED : c.recvTag).int(c.recvBytes));
      return;
    case 'wait':
    case 'waitall':
    case 'waitany':
    case 'waitsome':
    case 'test':
    case 'testall':
    case 'testany':
    case 'testsome':
      for (const r of l.completed ?? []) {
        const coll = pending.colls.get(r);
        if (coll) {
          pending.colls.delete(r);
          event(EV.nbcComplete, l.toPs, coll);
          continue;
        }
        if (pending.cancelled.delete(r)) {
          recvs.delete(r);
          event(EV.mpiRequestCancelled, l.toPs, new Otf2Fields().int(r), true);
          continue;
        }
        const recv = recvs.get(r);
        if (recv) {
          recvs.delete(r);
          event(EV.mpiIrecv, l.toPs, new Otf2Fields().int(recv.peer).int(recv.comm).int(recv.tag).int(recv.bytes).int(r));
        } else event(EV.mpiIsendComplete, l.toPs, new Otf2Fields().int(r), true);
      }
      return;
    case 'compute':
    case 'local':
    case 'unsupported':
      return;
    default: {
      const op = COLL_OPS[c.call];
      if (op === undefined || !('comm' in c)) return;
      const [sent, received, root] = collBytes(c, rank);
      const req = 'req' in c ? c.req : undefined;
      if (req !== undefined) {
        // a nonblocking collective: its request now, its collective when a wait or test completes it
        pending.colls.set(req, new Otf2Fields().u8(op).int(comm(c.comm)).int(root).int(sent).int(received).int(req));
        event(EV.nbcRequest, l.fromPs, new Otf2Fields().int(req));
        return;
      }
      event(EV.collBegin, l.fromPs, new Otf2Fields());
      event(EV.collEnd, l.toPs, new Otf2Fields().u8(op).int(comm(c.comm)).int(root).int(sent).int(received));
    }
  }
}

/** Bytes sent and received by this rank in a collective, as Score-P counts them, and the root (undefined if none). */
function collBytes(c: TraceCall, rank: RankLog): [number, number, number] {
  if (c.call === 'split' || c.call === 'dup' || c.call === 'free') return [0, 0, OTF2_UNDEFINED];
  if (!('comm' in c)) return [0, 0, OTF2_UNDEFINED];
  const members = rank.comms.get(c.comm)?.members ?? [rank.worldRank];
  const n = members.length;
  const me = Math.max(0, members.indexOf(rank.worldRank));
  const sum = (xs: readonly number[] | null): number => (xs ?? []).reduce((a, b) => a + b, 0);
  switch (c.call) {
    case 'barrier':
      return [0, 0, OTF2_UNDEFINED];
    case 'bcast':
    case 'reduce':
    case 'allreduce':
    case 'scan':
    case 'exscan':
    case 'alltoall':
    case 'allgather':
    case 'gather':
    case 'scatter': {
      const b = c.count * c.typeBytes;
      const root = me === c.root;
      switch (c.call) {
        case 'bcast':
          return [root ? n * b : 0, b, c.root];
        case 'scatter':
          return [root ? n * b : 0, b, c.root];
        case 'reduce':
          return [b, root ? n * b : 0, c.root];
        case 'gather':
          return [b, root ? n * b : 0, c.root];
        case 'scan':
          return [(n - me) * b, (me + 1) * b, OTF2_UNDEFINED];
        case 'exscan':
          return [(n - 1 - me) * b, me * b, OTF2_UNDEFINED];
        default:
          return [n * b, n * b, OTF2_UNDEFINED];
      }
    }
    case 'gatherv':
      return [sum(c.sendCounts) * c.typeBytes, me === c.root ? sum(c.recvCounts) * c.typeBytes : 0, c.root];
    case 'scatterv':
      return [me === c.root ? sum(c.sendCounts) * c.typeBytes : 0, sum(c.recvCounts) * c.typeBytes, c.root];
    case 'allgatherv':
      return [n * sum(c.sendCounts) * c.typeBytes, sum(c.recvCounts) * c.typeBytes, OTF2_UNDEFINED];
    case 'alltoallv':
      return [sum(c.sendCounts) * c.typeBytes, sum(c.recvCounts) * c.typeBytes, OTF2_UNDEFINED];
    case 'reduceScatter':
      return [sum(c.recvCounts) * c.typeBytes, n * (c.recvCounts?.[me] ?? 0) * c.typeBytes, OTF2_UNDEFINED];
    default:
      return [0, 0, OTF2_UNDEFINED];
  }
}
