/**
 * An OTF2 archive's anchor file (`<name>.otf2`) and global definitions (`<name>.def`), the parts
 * the replay needs: the event chunk size, the clock's resolution and offset, region names,
 * locations, MPI's groups and communicators, RMA windows and attribute names (OTF2_AnchorFile.c,
 * the global definition records of OTF2 3.x; a record's fields the reader does not need are
 * passed over by its length, so later versions that append fields still read).
 *
 * MPI as Score-P defines it: a group of type comm-locations lists the locations of the world's
 * ranks in rank order; each communicator names a comm group whose members are world ranks, in the
 * communicator's rank order (MPI_COMM_SELF has a comm-self group); events name peers by their
 * rank in the event's communicator.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { TraceFormatError } from './calls.ts';
import { END_OF_FILE, Otf2File, UNDEFINED } from './otf2-buffer.ts';

/** What the anchor file says. */
export interface Otf2Anchor {
  readonly version: string;
  readonly chunkSizeEvents: number;
  readonly chunkSizeDefs: number;
  readonly locations: number;
  readonly creator: string;
}

/** Reads an anchor file. */
export function readAnchor(path: string): Otf2Anchor {
  const f = new Otf2File(path, null);
  const at = f.offset;
  if (f.string('the magic "OTF2"') !== 'OTF2') throw f.bad(at, 'expected the magic string "OTF2" of an anchor file');
  const format = f.u8('the anchor format');
  if (format === 0) throw f.bad(f.offset - 1, 'expected an anchor format number above 0');
  f.u8('the trace format');
  const version = [f.u8('the version'), f.u8('the version'), f.u8('the version')].join('.');
  const chunkSizeEvents = f.u64full('the event chunk size');
  const chunkSizeDefs = f.u64full('the definition chunk size');
  const substrateAt = f.offset;
  const substrate = f.u8('the file substrate');
  // OTF2_FileSubstrate: 1 POSIX, 2 SION, 3 none; OTF2_Compression: 1 none, 2 zlib
  if (substrate === 2) throw f.bad(substrateAt, 'the trace is stored through SIONlib; phit reads OTF2 archives of plain files (POSIX substrate)');
  const compressionAt = f.offset;
  if (f.u8('the compression') === 2) throw f.bad(compressionAt, 'the trace is zlib-compressed; phit reads uncompressed OTF2 archives');
  const locations = f.u64full('the number of locations');
  f.u64full('the number of global definitions');
  f.string('the machine name');
  const creator = f.string('the creator');
  if (!(chunkSizeEvents > 0) || !(chunkSizeDefs > 0)) throw f.bad(8, `expected positive chunk sizes, got ${chunkSizeEvents} and ${chunkSizeDefs}`);
  return { version, chunkSizeEvents, chunkSizeDefs, locations, creator };
}

/** A comm group or comm-locations group. */
interface Group {
  readonly type: number;
  readonly paradigm: number;
  readonly members: readonly number[];
}

/** A communicator: its members as world ranks in its rank order (empty for MPI_COMM_SELF) and its parent. */
export interface Otf2Comm {
  readonly id: number;
  readonly name: string;
  readonly self: boolean;
  readonly members: readonly number[];
  readonly parent: number;
}

/** The global definitions the replay uses. */
export interface Otf2Defs {
  /** Ticks per second. */
  readonly timerResolution: number;
  /** The trace's first tick. */
  readonly globalOffset: number;
  /** Region names by id. */
  readonly regions: ReadonlyMap<number, string>;
  /** Location ids of the world's ranks, in rank order. */
  readonly rankLocations: readonly number[];
  readonly comms: ReadonlyMap<number, Otf2Comm>;
  /** Strings by id (attribute values of type string name them). */
  readonly strings: ReadonlyMap<number, string>;
  /** Attribute ids by name. */
  readonly attributes: ReadonlyMap<string, number>;
  /** RMA windows: the communicator of each, by id. */
  readonly windows: ReadonlyMap<number, number>;
  /** Members (world ranks) of every group, by id. */
  readonly groups: ReadonlyMap<number, readonly number[]>;
}

/** Global definition record types (otf2_global_definitions.h). */
const CLOCK_PROPERTIES = 5;
const STRING = 10;
const ATTRIBUTE = 11;
const LOCATION = 14;
const REGION = 15;
const GROUP = 18;
const COMM = 22;
const RMA_WIN = 24;
/** OTF2_GroupType values. */
const COMM_LOCATIONS = 4;
const COMM_SELF = 6;
/** OTF2_LocationType of a CPU thread. */
const CPU_THREAD = 1;
/** OTF2_PARADIGM_MPI. */
const MPI = 4;

/** Reads the global definition file `<archive>.def` beside the anchor file. */
export function readGlobalDefs(anchorPath: string, anchor: Otf2Anchor): Otf2Defs {
  const path = join(dirname(anchorPath), `${basename(anchorPath, '.otf2')}.def`);
  if (!existsSync(path)) throw new TraceFormatError(`${anchorPath}: expected the global definitions ${basename(path)} beside it; it is missing`);
  const f = new Otf2File(path, anchor.chunkSizeDefs);
  const strings = new Map<number, string>();
  const regionNames = new Map<number, number>();
  const groups = new Map<number, Group>();
  const rawComms: { id: number; name: number; group: number; parent: number }[] = [];
  const locations: number[] = [];
  const attributeNames = new Map<number, number>();
  const windows = new Map<number, number>();
  let timerResolution = 0;
  let globalOffset = 0;
  for (let t = f.nextType(); t !== END_OF_FILE; t = f.nextType()) {
    const at = f.offset - 1;
    const end = f.recordEnd(`definition record ${t}`);
    switch (t) {
      case CLOCK_PROPERTIES:
        timerResolution = f.u64('the timer resolution');
        globalOffset = f.u64('the global offset');
        break;
      case STRING:
        strings.set(f.u32('a string id'), f.string('a string'));
        break;
      case LOCATION: {
        const id = f.u64('a location id');
        f.u32('a location name');
        if (f.u8('a location type') === CPU_THREAD) locations.push(id);
        break;
      }
      case REGION:
        regionNames.set(f.u32('a region id'), f.u32('a region name'));
        break;
      case GROUP: {
        // since OTF2 1.2 the type before 1.2 comes first and the new type, paradigm and flags last
        const id = f.u32('a group id');
        f.u32('a group name');
        f.u8('the group type (before OTF2 1.2)');
        const n = f.u32('the number of group members');
        if (n === UNDEFINED || f.offset + n > end) throw f.bad(at, `a group record claims ${n} members, more than its length holds`);
        const members: number[] = [];
        for (let i = 0; i < n; i++) members.push(f.u64('a group member'));
        const type = f.offset < end ? f.u8('a group type') : 0;
        const paradigm = f.offset < end ? f.u8('a group paradigm') : 0;
        groups.set(id, { type, paradigm, members });
        break;
      }
      case ATTRIBUTE:
        attributeNames.set(f.u32('an attribute id'), f.u32('an attribute name'));
        break;
      case RMA_WIN: {
        const id = f.u32('a window id');
        f.u32('a window name');
        windows.set(id, f.u32('a window communicator'));
        break;
      }
      case COMM:
        rawComms.push({ id: f.u32('a communicator id'), name: f.u32('a communicator name'), group: f.u32('a communicator group'), parent: f.u32('a communicator parent') });
        break;
    }
    f.seek(end, `definition record ${t} at byte ${at}`);
  }
  if (!(timerResolution > 0)) throw new TraceFormatError(`${path}: expected a clock-properties record with the timer resolution; there is none`);
  const regions = new Map<number, string>();
  for (const [id, s] of regionNames) regions.set(id, strings.get(s) ?? `region ${id}`);
  // the world's ranks: the MPI comm-locations group, else every CPU location in id order
  let rankLocations: readonly number[] = [...locations].sort((a, b) => a - b);
  for (const g of groups.values()) if (g.type === COMM_LOCATIONS && g.paradigm === MPI) rankLocations = g.members;
  const comms = new Map<number, Otf2Comm>();
  for (const c of rawComms) {
    const g = groups.get(c.group);
    if (!g) throw new TraceFormatError(`${path}: communicator ${c.id} names group ${c.group}, which is not defined`);
    comms.set(c.id, { id: c.id, name: strings.get(c.name) ?? `comm ${c.id}`, self: g.type === COMM_SELF, members: g.members, parent: c.parent });
  }
  const attributes = new Map<string, number>();
  for (const [id, n] of attributeNames) attributes.set(strings.get(n) ?? `attribute ${id}`, id);
  const members = new Map<number, readonly number[]>();
  for (const [id, g] of groups) members.set(id, g.members);
  return { timerResolution, globalOffset, regions, rankLocations, comms, strings, attributes, windows, groups: members };
}

/** Local definition record type of a mapping table (otf2_local_definitions.h), and the mappings the replay applies. */
const MAPPING_TABLE = 5;
const MAPPING = { string: 0, attribute: 1, region: 3, group: 4, comm: 6, rmaWin: 8 } as const;
type MappingKind = keyof typeof MAPPING;

/** A location's maps from the ids its events use to global ones (Score-P writes events with local ids). */
export type Otf2Mappings = { readonly [k in MappingKind]: ReadonlyMap<number, number> | null };

/** Reads the mapping tables of a location's local definitions `<archive>/<location>.def`; none when it has none. */
export function readMappings(path: string, anchor: Otf2Anchor): Otf2Mappings {
  const maps: { [k in MappingKind]: Map<number, number> | null } = { string: null, attribute: null, region: null, group: null, comm: null, rmaWin: null };
  if (!existsSync(path)) return maps;
  const f = new Otf2File(path, anchor.chunkSizeDefs);
  for (let t = f.nextType(); t !== END_OF_FILE; t = f.nextType()) {
    const at = f.offset - 1;
    const end = f.recordEnd(`definition record ${t}`);
    if (t === MAPPING_TABLE) {
      const type = f.u8('a mapping type');
      const n = f.u64('the size of an id map');
      const sparse = f.u8('an id map mode') === 1;
      if (n === UNDEFINED || f.offset + n > end) throw f.bad(at, `an id map claims ${n} entries, more than its record holds`);
      const map = new Map<number, number>();
      for (let i = 0; i < n; i++) {
        const local = sparse ? f.u64('a local id') : i;
        map.set(local, f.u64('a global id'));
      }
      const kind = (Object.keys(MAPPING) as MappingKind[]).find((k) => MAPPING[k] === type);
      if (kind) maps[kind] = map;
    }
    f.seek(end, `definition record ${t} at byte ${at}`);
  }
  return maps;
}
