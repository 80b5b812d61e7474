/**
 * One location's OTF2 event file (`<archive>/<location>.evt`) read event by event: the records
 * the replay uses decoded (region enter and leave, MPI point-to-point, request and collective
 * events, OTF2 3.0's nonblocking collective request and completion, the RMA window, transfer and
 * synchronisation events with the attribute list before them; OTF2 3.x layouts), every other
 * record passed over by its length. A timestamp record (type 5, a full 64-bit tick count) precedes
 * the events that happen at a new time. Region, communicator, window, group, attribute and string
 * ids go through the location's mapping tables, when it has them.
 */
import { Otf2File } from './otf2-buffer.ts';
import type { Otf2Mappings } from './otf2-defs.ts';
import { ATTRIBUTE_LIST, RMA, TYPE } from './otf2-rma-records.ts';

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
  /** Collective end: OTF2_CollectiveOp; RmaAtomic: OTF2_RmaAtomicType; RmaRequestLock: OTF2_LockType. */
  readonly op: number;
  /** RMA events: the window. */
  readonly win: number;
  /** RmaGroupSync: the group. */
  readonly group: number;
  /** RmaCollectiveEnd, RmaGroupSync: OTF2_RmaSyncLevel. */
  readonly level: number;
  /** The attribute list before the event (integer and string-reference values by attribute id), or null. */
  readonly attrs: ReadonlyMap<number, number> | null;
}

/** Reads the events of one location's file in order. */
export class Otf2EventReader {
  private readonly f: Otf2File;
  private time = 0;
  /** The attribute list read for the next event. */
  private attrs: Map<number, number> | null = null;

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
      if (t === ATTRIBUTE_LIST) {
        this.attrs = this.attributeList(at);
        continue;
      }
      const attrs = this.attrs;
      this.attrs = null;
      if (SINGLETONS.has(t)) {
        const v = t === EV.enter || t === EV.leave || t === 24 ? f.u32('an event field') : f.u64('an event field');
        if (t === EV.enter || t === EV.leave) return this.event(t, at, { region: this.maps.region?.get(v) ?? v });
        if (t === EV.mpiIsendComplete || t === EV.mpiIrecvRequest || t === EV.mpiRequestTest || t === EV.mpiRequestCancelled) return this.event(t, at, { request: v });
        continue;
      }
      const end = f.recordEnd(`event record ${t}`);
      let e: Otf2Event | null;
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
        default:
          e = this.rma(t, at, attrs);
      }
      f.seek(end, `event record ${t} at byte ${at}`);
      if (e) return e;
    }
  }

  /** An RMA event the replay uses (OTF2 3.0's field order), or null for another record. */
  private rma(t: number, at: number, attrs: Map<number, number> | null): Otf2Event | null {
    const f = this.f;
    const win = (): number => this.map('rmaWin', f.u32('a window'));
    switch (t) {
      case RMA.winCreate:
      case RMA.winDestroy:
        return this.event(t, at, { win: win(), attrs });
      case RMA.collectiveEnd: {
        const op = f.u8('a collective type');
        const level = f.u32('a sync level');
        return this.event(t, at, { op, level, win: win(), peer: f.u32('a root'), bytes: f.u64('the bytes sent'), received: f.u64('the bytes received'), attrs });
      }
      case RMA.groupSync: {
        const level = f.u32('a sync level');
        const w = win();
        return this.event(t, at, { level, win: w, group: this.map('group', f.u32('a group')), attrs });
      }
      case RMA.requestLock:
      case RMA.releaseLock: {
        const w = win();
        const peer = f.u32('a remote rank');
        f.u64('a lock id');
        return this.event(t, at, { win: w, peer, op: t === RMA.requestLock ? f.u8('a lock type') : -1, attrs });
      }
      case RMA.put:
      case RMA.get: {
        const w = win();
        const peer = f.u32('a remote rank');
        return this.event(t, at, { win: w, peer, bytes: f.u64('the bytes'), request: f.u64('a matching id'), attrs });
      }
      case RMA.atomic: {
        const w = win();
        const peer = f.u32('a remote rank');
        const op = f.u8('an atomic type');
        return this.event(t, at, { win: w, peer, op, bytes: f.u64('the bytes sent'), received: f.u64('the bytes received'), request: f.u64('a matching id'), attrs });
      }
      default:
        return null;
    }
  }

  /** An attribute list's unsigned integer and reference values by (global) attribute id; values of other types end the reading (the rest of the list is passed over). */
  private attributeList(at: number): Map<number, number> {
    const f = this.f;
    const end = f.recordEnd('an attribute list');
    const n = f.u32('the number of attributes');
    if (n === -1 || f.offset + n > end) throw f.bad(at, `an attribute list claims ${n} attributes, more than its length holds`);
    const out = new Map<number, number>();
    for (let i = 0; i < n; i++) {
      const id = this.map('attribute', f.u32('an attribute id'));
      const type = f.u8('an attribute type');
      if (type === TYPE.uint32) out.set(id, f.u32('an attribute value'));
      else if (type === TYPE.uint64) out.set(id, f.u64('an attribute value'));
      else if (type === TYPE.string) out.set(id, this.map('string', f.u32('an attribute value')));
      else break;
    }
    f.seek(end, `the attribute list at byte ${at}`);
    return out;
  }

  /** The global id of a local id of `kind`. */
  private map(kind: keyof Otf2Mappings, id: number): number {
    return this.maps[kind]?.get(id) ?? id;
  }

  /** The global id of a communicator id of this location's events. */
  private global(comm: number): number {
    return this.maps.comm?.get(comm) ?? comm;
  }

  private event(type: number, at: number, fields: Partial<Otf2Event>): Otf2Event {
    return { type, time: this.time, at, region: -1, peer: -1, comm: -1, tag: 0, bytes: 0, received: 0, request: -1, op: -1, win: -1, group: -1, level: 0, attrs: null, ...fields };
  }

  /** The file and offset of a record, for messages. */
  where(at: number): string {
    return `${this.path}: byte ${at}`;
  }
}
