/**
 * One location's OTF2 event file (`<archive>/<location>.evt`) read event by event: the records
 * the replay uses decoded (region enter and leave, MPI point-to-point, request and collective
 * events, OTF2 3.0's nonblocking collective request and completion; OTF2 3.x layouts), every other record passed over by its length. A timestamp record
 * (type 5, a full 64-bit tick count) precedes the events that happen at a new time. Region and
 * communicator ids go through the location's mapping tables, when it has them.
 */
import { Otf2File } from './otf2-buffer.ts';
import type { Otf2Mappings } from './otf2-defs.ts';

/** Event record types (otf2_events_int.h). */
export const EV = {
  timestamp: 5,
  attributeList: 6,
  enter: 12,
  leave: 13,
  mpiSend: 14,
  mpiIsend: 15,
  mpiIsendComplete: 16,
  mpiIrecvRequest: 17,
  mpiRecv: 18,
  mpiIrecv: 19,
  mpiRequestTest: 20,
  mpiRequestCancelled: 21,
  mpiCollectiveBegin: 22,
  mpiCollectiveEnd: 23,
  nbcRequest: 85,
  nbcComplete: 86,
} as const;

/** Records written without a length byte: their one compressed field follows the type (OTF2 1.1's "singleton" events). */
const SINGLETONS = new Set([12, 13, 16, 17, 20, 21, 24, 28, 29, 30]);

/** An event the replay uses; the fields that apply to its type. */
export interface Otf2Event {
  readonly type: number;
  /** Ticks since the trace's global offset. */
  readonly time: number;
  /** File offset of the record, for messages. */
  readonly at: number;
  /** Enter, leave: the region. */
  readonly region: number;
  /** Point-to-point: the peer's rank in `comm`; collective end: the root (-1 undefined). */
  readonly peer: number;
  readonly comm: number;
  readonly tag: number;
  /** Point-to-point: the message's bytes; collective end: bytes sent. */
  readonly bytes: number;
  /** Collective end: bytes received. */
  readonly received: number;
  readonly request: number;
  /** Collective end: OTF2_CollectiveOp. */
  readonly op: number;
}

/** Reads the events of one location's file in order. */
export class Otf2EventReader {
  private readonly f: Otf2File;
  private time = 0;

  constructor(
    readonly path: string,
    chunkSize: number,
    private readonly offset: number,
    private readonly maps: Otf2Mappings,
  ) {
    this.f = new Otf2File(path, chunkSize);
  }

  /** The next event the replay uses, or null at the end of the file. */
  next(): Otf2Event | null {
    const f = this.f;
    for (;;) {
      const t = f.nextType();
      const at = f.offset - 1;
      if (t === 2) return null;
      if (t === EV.timestamp) {
        this.time = f.u64full('a timestamp') - this.offset;
        continue;
      }
      if (SINGLETONS.has(t)) {
        const v = t === EV.enter || t === EV.leave || t === 24 ? f.u32('an event field') : f.u64('an event field');
        if (t === EV.enter || t === EV.leave) return this.event(t, at, { region: this.maps.region?.get(v) ?? v });
        if (t === EV.mpiIsendComplete || t === EV.mpiIrecvRequest || t === EV.mpiRequestTest || t === EV.mpiRequestCancelled) return this.event(t, at, { request: v });
        continue;
      }
      const end = f.recordEnd(`event record ${t}`);
      let e: Otf2Event | null = null;
      switch (t) {
        case EV.mpiSend:
        case EV.mpiRecv:
        case EV.mpiIsend:
        case EV.mpiIrecv: {
          const peer = f.u32('a peer rank');
          const comm = this.global(f.u32('a communicator'));
          const tag = f.u32('a tag');
          const bytes = f.u64('a message length');
          const request = t === EV.mpiIsend || t === EV.mpiIrecv ? f.u64('a request id') : -1;
          e = this.event(t, at, { peer, comm, tag, bytes, request });
          break;
        }
        case EV.mpiCollectiveBegin:
          e = this.event(t, at, {});
          break;
        case EV.nbcRequest:
          e = this.event(t, at, { request: f.u64('a request id') });
          break;
        case EV.mpiCollectiveEnd:
        case EV.nbcComplete: {
          const op = f.u8('a collective type');
          const comm = this.global(f.u32('a communicator'));
          const peer = f.u32('a root');
          const bytes = f.u64('the bytes sent');
          const received = f.u64('the bytes received');
          const request = t === EV.nbcComplete ? f.u64('a request id') : -1;
          e = this.event(t, at, { op, comm, peer, bytes, received, request });
          break;
        }
      }
      f.seek(end, `event record ${t} at byte ${at}`);
      if (e) return e;
    }
  }

  /** The global id of a communicator id of this location's events. */
  private global(comm: number): number {
    return this.maps.comm?.get(comm) ?? comm;
  }

  private event(type: number, at: number, fields: Partial<Otf2Event>): Otf2Event {
    return { type, time: this.time, at, region: -1, peer: -1, comm: -1, tag: 0, bytes: 0, received: 0, request: -1, op: -1, ...fields };
  }

  /** The file and offset of a record, for messages. */
  where(at: number): string {
    return `${this.path}: byte ${at}`;
  }
}
