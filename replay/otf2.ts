/**
 * OTF2 traces (Score-P's format): the anchor file `<name>.otf2`, the global definitions
 * `<name>.def` beside it, and one event file per location, `<name>/<location>.evt`. Each MPI rank
 * is the location the MPI comm-locations group lists at its rank. A rank's events are read in
 * order; the events between the Enter and the Leave of a region named after an MPI function
 * become that call (`otf2-calls.ts`), the time from one MPI call's Leave to the next one's Enter
 * becomes computation, and regions of user code are passed through. Peers are ranks in the
 * event's communicator; communicators other than the world and self are created where the trace
 * creates them, with their members and order from the definitions. One-sided calls come from the
 * RMA records (`otf2-rma.ts`); a trace whose RMA records lack phit's attributes (Score-P's) gets
 * a warning, once, that its windows are sized to their largest access.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { SELF, TraceFormatError, WORLD, type RankTrace, type TraceCall, type TraceSource } from './calls.ts';
import { UNDEFINED } from './otf2-buffer.ts';
import { regionCalls, type RegionContext } from './otf2-calls.ts';
import { readAnchor, readGlobalDefs, readMappings, type Otf2Comm, type Otf2Defs } from './otf2-defs.ts';
import { EV, Otf2EventReader, type Otf2Event } from './otf2-events.ts';
import { Otf2Peers } from './otf2-peers.ts';
import { ATTRIBUTES, type PhitAttribute } from './otf2-rma-records.ts';
import { hasPhitAttributes, largestAccesses } from './otf2-rma.ts';

/** Replay handles of communicators other than the world and self: the OTF2 id plus this. */
const HANDLE_BASE = 16;

/** Opens an OTF2 trace from its anchor file. */
export function openOtf2(anchorPath: string): TraceSource {
  const anchor = readAnchor(anchorPath);
  const defs = readGlobalDefs(anchorPath, anchor);
  const dir = join(dirname(anchorPath), basename(anchorPath, '.otf2'));
  const ranks = defs.rankLocations.length;
  if (ranks === 0) throw new TraceFormatError(`${anchorPath}: the definitions name no MPI ranks (no comm-locations group and no CPU locations)`);
  const files = defs.rankLocations.map((l) => join(dir, `${l}.evt`));
  const missing = files.find((f) => !existsSync(f));
  if (missing) throw new TraceFormatError(`${anchorPath}: expected the event file of every rank in ${basename(dir)}/ (${ranks} ranks); ${basename(missing)} is missing`);
  const offset = defs.globalOffset;
  const reader = (rank: number): Otf2EventReader => new Otf2EventReader(files[rank]!, anchor.chunkSizeEvents, offset, readMappings(files[rank]!.replace(/\.evt$/, '.def'), anchor));
  const world = [...defs.comms.values()].find((c) => !c.self && c.parent === UNDEFINED && c.members.length === ranks && c.members.every((m, i) => m === i));
  const peers = new Otf2Peers(reader);
  // a trace phit did not write (Score-P's) has no window sizes and displacements: windows are sized to their largest access
  const warnings: string[] = [];
  let largest: ReadonlyMap<number, number> = new Map();
  if (defs.windows.size > 0 && !hasPhitAttributes(defs.attributes)) {
    largest = largestAccesses(files.map((_, r) => reader(r)));
    const most = Math.max(0, ...largest.values());
    warnings.push(`${anchorPath}: the one-sided (RMA) records carry no window size or displacement (no phit:: attributes: a trace phit did not write); puts, gets and accumulates replay at displacement 0 on windows sized to the largest access seen (${defs.windows.size} window${defs.windows.size === 1 ? '' : 's'}, at most ${most} bytes)`);
  }
  const attrIds = new Map<PhitAttribute, number>();
  for (const a of Object.keys(ATTRIBUTES) as PhitAttribute[]) {
    const id = defs.attributes.get(ATTRIBUTES[a].name);
    if (id !== undefined) attrIds.set(a, id);
  }
  const rma = { largest, attrIds };
  return { format: 'otf2', path: anchorPath, ranks, warnings, open: (rank) => new Otf2Rank(rank, reader, defs, world?.id ?? null, peers, rma) };
}

/** What every rank's reader shares about the one-sided records: the largest access per window (traces without phit's attributes), phit's attribute ids. */
interface RmaShared {
  readonly largest: ReadonlyMap<number, number>;
  readonly attrIds: ReadonlyMap<PhitAttribute, number>;
}

/** One rank's calls. */
class Otf2Rank implements RankTrace, RegionContext {
  private readonly events: Otf2EventReader;
  /** A second cursor over the same file that finds receive and nonblocking collective completions ahead of the main one. */
  private ahead: Otf2EventReader | null = null;
  /** Completions the second cursor read past, by type and request. */
  private readonly ahead_ = new Map<string, Otf2Event[]>();
  private readonly queue: TraceCall[] = [];
  /** When the previous MPI call returned (ticks), or null before the first. */
  private lastLeave: number | null = null;
  private readonly psPerTick: number;
  /** Counted collectives this rank made so far, by communicator. */
  private readonly countedSeq = new Map<number, number>();
  /** Communicators this rank got from create-handle collectives. */
  private readonly taken = new Set<number>();

  constructor(
    readonly rank: number,
    private readonly reader: (rank: number) => Otf2EventReader,
    private readonly defs: Otf2Defs,
    private readonly worldId: number | null,
    private readonly peers: Otf2Peers,
    private readonly rma: RmaShared,
  ) {
    this.events = reader(rank);
    this.psPerTick = 1e12 / defs.timerResolution;
  }

  next(): TraceCall | null {
    while (this.queue.length === 0) if (!this.region()) return null;
    return this.queue.shift()!;
  }

  /** Reads up to the end of the next MPI region and queues its calls; false at the end of the file. */
  private region(): boolean {
    for (;;) {
      const e = this.events.next();
      if (e === null) return false;
      if (e.type !== EV.enter) continue;
      const name = this.defs.regions.get(e.region);
      if (name === undefined) throw new TraceFormatError(`${this.events.where(e.at)}: an Enter of region ${e.region}, which the definitions do not define`);
      if (!/^mpi_/i.test(name)) continue;
      const inside: Otf2Event[] = [];
      let depth = 1;
      let leave: Otf2Event | null = null;
      while (leave === null) {
        const x = this.events.next();
        if (x === null) throw new TraceFormatError(`${this.events.path}: ends inside ${name} (entered at byte ${e.at}); expected its Leave`);
        if (x.type === EV.enter) depth++;
        else if (x.type === EV.leave) {
          if (--depth === 0) leave = x;
        } else inside.push(x);
      }
      if (this.lastLeave !== null && e.time > this.lastLeave) {
        this.queue.push({ call: 'compute', name: 'compute', ps: Math.round((e.time - this.lastLeave) * this.psPerTick), flops: 0 });
      }
      this.lastLeave = leave.time;
      this.queue.push(...regionCalls(name, inside, this));
      return true;
    }
  }

  comm(id: number, e: Otf2Event): Otf2Comm {
    const c = this.defs.comms.get(id);
    if (!c) throw new TraceFormatError(`${this.events.where(e.at)}: an event on communicator ${id}, which the definitions do not define`);
    return c;
  }

  handle(c: Otf2Comm): number {
    return c.id === this.worldId ? WORLD : c.self ? SELF : c.id + HANDLE_BASE;
  }

  windowComm(win: number, e: Otf2Event): Otf2Comm {
    const c = this.defs.windows.get(win);
    if (c === undefined) throw new TraceFormatError(`${this.events.where(e.at)}: an RMA event on window ${win}, which the definitions do not define`);
    return this.comm(c, e);
  }

  group(id: number, e: Otf2Event): readonly number[] {
    const g = this.defs.groups.get(id);
    if (!g) throw new TraceFormatError(`${this.events.where(e.at)}: an RmaGroupSync of group ${id}, which the definitions do not define`);
    return g;
  }

  attribute(e: Otf2Event, a: PhitAttribute): number | undefined {
    const id = this.rma.attrIds.get(a);
    return id === undefined ? undefined : e.attrs?.get(id);
  }

  string(id: number): string | undefined {
    return this.defs.strings.get(id);
  }

  largestAccess(win: number): number {
    return this.rma.largest.get(win) ?? 0;
  }

  irecv(request: number): Otf2Event | null {
    return this.completion(EV.mpiIrecv, request);
  }

  nbcComplete(request: number): Otf2Event | null {
    return this.completion(EV.nbcComplete, request);
  }

  /** The next completion event of `type` (MpiIrecv, NonBlockingCollectiveComplete) of `request`, read ahead of the main cursor; null if the file has none. */
  private completion(type: number, request: number): Otf2Event | null {
    const key = (t: number, r: number): string => `${t}:${r}`;
    const queued = this.ahead_.get(key(type, request));
    if (queued && queued.length > 0) return queued.shift()!;
    this.ahead ??= this.reader(this.rank);
    for (let e = this.ahead.next(); e !== null; e = this.ahead.next()) {
      if (e.type !== EV.mpiIrecv && e.type !== EV.nbcComplete) continue;
      if (e.type === type && e.request === request) return e;
      const q = this.ahead_.get(key(e.type, e.request));
      if (q) q.push(e);
      else this.ahead_.set(key(e.type, e.request), [e]);
    }
    return null;
  }

  counted(c: Otf2Comm): ReturnType<Otf2Peers['rows']> {
    const seq = this.countedSeq.get(c.id) ?? 0;
    this.countedSeq.set(c.id, seq + 1);
    return this.peers.rows(c, seq);
  }

  created(parent: Otf2Comm): Otf2Comm | null {
    for (const c of this.defs.comms.values()) {
      if (this.taken.has(c.id) || c.self || c.id === this.worldId) continue;
      if (c.parent !== parent.id && c.parent !== UNDEFINED) continue;
      if (!c.members.includes(this.rank)) continue;
      this.taken.add(c.id);
      return c;
    }
    return null;
  }
}
