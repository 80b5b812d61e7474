/**
 * A run's MPI calls written as an OTF2 archive (OTF2 3.0's files, as the OTF2 library writes
 * them; what `otf2-defs.ts` and `otf2-events.ts` read): the anchor `<name>.otf2`, the global
 * definitions `<name>.def`, and per rank `<name>/<rank>.evt` (`otf2-events-writer.ts`) with an
 * empty `<name>/<rank>.def`. The definitions are those of Score-P's MPI traces: the clock (ticks
 * of 1 ps, offset 0), strings, one system-tree node for the machine, a process location group
 * and a CPU-thread location per rank (location id = rank), a region per MPI function, the MPI
 * comm-locations group (the ranks' locations in rank order), a comm group and a communicator for
 * MPI_COMM_WORLD, MPI_COMM_SELF and every communicator the ranks made (members as world ranks in
 * its rank order, parent: the communicator it was made from), in the order they were made; for
 * the one-sided calls (`otf2-rma-writer.ts`) a comm group per epoch group, an RmaWin per window
 * (with its communicator; the n-th window a communicator made is the same on every member) and
 * the Attribute definitions of phit's attributes (`otf2-rma-records.ts`). Strings come first.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallLog, RankLog } from './call-log.ts';
import type { WrittenTrace } from './dumpi-writer.ts';
import { eventFile, type Otf2Ids } from './otf2-events-writer.ts';
import { anchorFile, Otf2ChunkedFile, Otf2Fields, OTF2_UNDEFINED } from './otf2-file-writer.ts';
import { ATTRIBUTES, WIN_FLAG_CREATE_DESTROY_EVENTS, type PhitAttribute } from './otf2-rma-records.ts';

/** Chunk sizes of event and definition files (the OTF2 library's usual ones). */
const CHUNK_EVENTS = 1 << 20;
const CHUNK_DEFS = 4 << 20;
/** The chunk sizes the OTF2 library accepts (OTF2_CHUNK_SIZE_MIN, _MAX). */
const MIN_CHUNK = 256 << 10;
const MAX_CHUNK = 16 << 20;
/** Global definition record types (otf2_global_definitions.h). */
const DEF = { clock: 5, string: 10, attribute: 11, systemTreeNode: 12, locationGroup: 13, location: 14, region: 15, group: 18, comm: 22, rmaWin: 24 } as const;
/** OTF2_GroupType and the type written before OTF2 1.2 for it (as the library writes both). */
const GROUP = { locations: [4, 6], comm: [5, 4], self: [6, 5] } as const;
const PARADIGM_MPI = 4;
const ROLE_FUNCTION = 1;
const LOCATION_CPU_THREAD = 1;
const GROUP_PROCESS = 1;

/**
 * Writes `log` as the OTF2 archive `<dir>/<name>.otf2`, `<dir>/<name>.def` and `<dir>/<name>/`;
 * `chunkSizeEvents` cuts event files into chunks of that many bytes (default 1 MiB);
 * `rmaAttributes: false` leaves out phit's attributes on the one-sided records (a trace as
 * Score-P writes it, whose one-sided calls replay at displacement 0).
 */
export function writeOtf2(dir: string, name: string, log: CallLog, machine: string, opts: { chunkSizeEvents?: number; rmaAttributes?: boolean } = {}): WrittenTrace {
  const chunkEvents = opts.chunkSizeEvents ?? CHUNK_EVENTS;
  if (!Number.isInteger(chunkEvents) || chunkEvents < MIN_CHUNK || chunkEvents > MAX_CHUNK) throw new RangeError(`OTF2: chunkSizeEvents=${chunkEvents}: the OTF2 library reads chunks of ${MIN_CHUNK} to ${MAX_CHUNK} bytes`);
  const ranks = log.ranks;
  // groups: 0 the comm-locations group, 1 the world's, 2 self's, then communicators' and epochs' in the order used
  const groups: { kind: readonly [number, number]; members: readonly number[] }[] = [];
  const groupKeys = new Map<string, number>();
  const groupOf = (kind: readonly [number, number], members: readonly number[], key: string | null): number => {
    let id = key === null ? undefined : groupKeys.get(key);
    if (id === undefined) {
      id = groups.length;
      groups.push({ kind, members });
      if (key !== null) groupKeys.set(key, id);
    }
    return id;
  };
  const all = ranks.map((_, i) => i);
  groupOf(GROUP.locations, all, null);
  // communicators: world 0, self 1, then every other key in the order the ranks made them
  const commIds = new Map<string, number>([['world', 0], ['self', 1]]);
  const comms: { label: string; group: number; parent: number }[] = [
    { label: 'MPI_COMM_WORLD', group: groupOf(GROUP.comm, all, null), parent: OTF2_UNDEFINED },
    { label: 'MPI_COMM_SELF', group: groupOf(GROUP.self, [], null), parent: OTF2_UNDEFINED },
  ];
  const commOf = (rank: RankLog, handle: number): number => {
    const c = rank.comms.get(handle);
    if (!c) return 0;
    let id = commIds.get(c.key);
    if (id === undefined) {
      const parent = c.parent === null ? OTF2_UNDEFINED : commOf(rank, c.parent);
      id = commIds.size;
      commIds.set(c.key, id);
      comms.push({ label: `MPI comm ${id}`, group: groupOf(GROUP.comm, c.members, null), parent });
    }
    return id;
  };
  const regions = new Map<string, number>();
  const regionOf = (n: string): number => {
    let id = regions.get(n);
    if (id === undefined) regions.set(n, (id = regions.size));
    return id;
  };
  const strings = new Map<string, number>();
  const str = (s: string): number => {
    let id = strings.get(s);
    if (id === undefined) strings.set(s, (id = strings.size));
    return id;
  };
  str('');
  // windows: the same key on every member (the communicator's and the how-manieth made on it)
  const windows: { comm: number }[] = [];
  const windowKeys = new Map<string, number>();
  const madeOn = new Map<string, number>();
  const newWindow = (rank: RankLog, handle: number): number => {
    const comm = commOf(rank, handle);
    const n = madeOn.get(`${rank.worldRank}:${comm}`) ?? 0;
    madeOn.set(`${rank.worldRank}:${comm}`, n + 1);
    const key = `${comm}:${n}`;
    let id = windowKeys.get(key);
    if (id === undefined) {
      id = windows.length;
      windows.push({ comm });
      windowKeys.set(key, id);
    }
    return id;
  };
  const attributes = new Map<PhitAttribute, number>();
  const attribute = (a: PhitAttribute): number => {
    let id = attributes.get(a);
    if (id === undefined) attributes.set(a, (id = attributes.size));
    return id;
  };
  const ids: Otf2Ids = {
    withAttributes: opts.rmaAttributes ?? true,
    region: regionOf,
    comm: commOf,
    newWindow,
    group: (members) => groupOf(GROUP.comm, members, `epoch:${members.join(',')}`),
    attribute,
    string: str,
  };
  // events first: they name the regions, communicators, windows, groups and attributes the definitions list
  // OTF2 holds every call the log keeps: nothing is left out
  const omitted: Record<string, number> = {};
  const events = ranks.map((r) => eventFile(r, r.calls, ids, chunkEvents));
  const endPs = ranks.reduce((a, r) => Math.max(a, r.endPs), 0);
  const list: [number, Otf2Fields][] = [];
  const def = (type: number, f: Otf2Fields): void => {
    list.push([type, f]);
  };
  const node = str(machine);
  def(DEF.systemTreeNode, new Otf2Fields().int(0).int(node).int(str('machine')).int(OTF2_UNDEFINED));
  ranks.forEach((r, i) => {
    const n = str(`MPI Rank ${i}`);
    def(DEF.locationGroup, new Otf2Fields().int(i).int(n).u8(GROUP_PROCESS).int(0).int(OTF2_UNDEFINED));
    def(DEF.location, new Otf2Fields().int(i).int(n).u8(LOCATION_CPU_THREAD).int(events[i]!.events).int(i));
  });
  for (const [n, id] of regions) {
    const s = str(n);
    // self, name, description, type (before 1.1), file, begin, end, canonical name, role, paradigm, flags
    def(DEF.region, new Otf2Fields().int(id).int(s).int(0).u8(0).int(0).int(0).int(0).int(s).u8(ROLE_FUNCTION).u8(PARADIGM_MPI).int(0));
  }
  groups.forEach((g, id) => {
    const f = new Otf2Fields().int(id).int(0).u8(g.kind[1]).int(g.members.length);
    for (const m of g.members) f.int(m);
    def(DEF.group, f.u8(g.kind[0]).u8(PARADIGM_MPI).int(0));
  });
  comms.forEach((c, id) => def(DEF.comm, new Otf2Fields().int(id).int(str(c.label)).int(c.group).int(c.parent).int(0)));
  // self, name, communicator, flags (OTF2 3.0)
  windows.forEach((w, id) => def(DEF.rmaWin, new Otf2Fields().int(id).int(str(`MPI window ${id}`)).int(w.comm).int(WIN_FLAG_CREATE_DESTROY_EVENTS)));
  // self, name, type, description (OTF2 1.4)
  for (const [a, id] of attributes) def(DEF.attribute, new Otf2Fields().int(id).int(str(ATTRIBUTES[a].name)).u8(ATTRIBUTES[a].type).int(str(ATTRIBUTES[a].description)));
  // clock (resolution, global offset, trace length, real-time start: undefined), the strings, then the rest
  const defs = new Otf2ChunkedFile(CHUNK_DEFS);
  defs.record(DEF.clock, new Otf2Fields().int(1e12).int(0).int(endPs).int(OTF2_UNDEFINED));
  for (const [s, id] of strings) defs.record(DEF.string, new Otf2Fields().int(id).string(s));
  for (const [type, f] of list) defs.record(type, f);
  const records = 1 + strings.size + list.length;
  const defBytes = defs.result();
  const anchor = anchorFile({ chunkSizeEvents: chunkEvents, chunkSizeDefs: CHUNK_DEFS, locations: ranks.length, globalDefs: records, creator: 'phit', traceId: traceId(name, ranks.length, endPs) });
  mkdirSync(join(dir, name), { recursive: true });
  const path = join(dir, `${name}.otf2`);
  writeFileSync(path, anchor);
  writeFileSync(join(dir, `${name}.def`), defBytes);
  let bytes = anchor.length + defBytes.length;
  const emptyDefs = new Otf2ChunkedFile(CHUNK_DEFS).result();
  events.forEach((e, i) => {
    const b = e.result();
    writeFileSync(join(dir, name, `${i}.evt`), b);
    writeFileSync(join(dir, name, `${i}.def`), emptyDefs);
    bytes += b.length + emptyDefs.length;
  });
  return { path, files: 2 + 2 * ranks.length, bytes, records: events.reduce((a, e) => a + e.events, 0), omitted };
}

/** A trace id from what the trace is (deterministic: the same run, the same file). */
function traceId(name: string, ranks: number, endPs: number): number {
  let h = 0x811c9dc5;
  for (const ch of `${name}:${ranks}:${endPs}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h * 2 ** 20 + (ranks % 2 ** 20);
}
