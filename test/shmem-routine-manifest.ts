/**
 * Every public routine of the SHMEM faces a program gets, `ctx.shmem` and a context of its own
 * (`ctx.shmem.ctxCreate()`), with (a) the test that checks the data it moves or computes and (b)
 * one bad call, which must fail with one line naming the routine and the bad value.
 * test/shmem-routines.test.ts checks that this table and the faces' routines are the same set (so
 * a new routine cannot go without both), and test/shmem-routine-errors.test.ts makes every bad
 * call of it on 2 PEs.
 */
import type { Shmem, ShmemCtx, ShmemTeam, Symmetric } from '../runtime/shmem/shmem.ts';

/** Where a routine's data is checked: a test file, a test of it (a part of its title), and what the file calls the routine by. */
export interface DataRef {
  readonly file: string;
  readonly test: string;
  /** The text the file uses for the routine (its name, or the template a family's loop builds it with); the routine's name if omitted. */
  readonly mentions?: string;
}

/** What a bad call gets to work with, on each PE: the face under test and objects to misuse. */
export interface Bad {
  /** `ctx.shmem`. */
  readonly s: Shmem;
  /** The face under test: `ctx.shmem`, or a live context on TEAM_WORLD. */
  readonly f: Shmem | ShmemCtx;
  /** 256 symmetric bytes. */
  readonly sym: Symmetric;
  /** A symmetric pSync of COLLECT_SYNC_SIZE longs, every one SYNC_VALUE. */
  readonly pSync: Symmetric;
  /** A pSync whose first element is 5, not SYNC_VALUE. */
  readonly dirty: Symmetric;
  /** 512 symmetric bytes for reductions' pWrk. */
  readonly pWrk: Symmetric;
  /** A team split from TEAM_WORLD and destroyed. */
  readonly deadTeam: ShmemTeam;
  /** A context made and destroyed. */
  readonly deadCtx: ShmemCtx;
  readonly npes: number;
}

/** The kinds of bad call of the specification's error classes. */
export type ErrorKind = 'pe' | 'heap' | 'align' | 'mismatch' | 'pSync' | 'team' | 'ctx' | 'count' | 'cmp' | 'arg';

/**
 * One bad call. `run(h, v)` makes it on every PE with `v` = the PE's number (0 or 1); a
 * `mismatch` passes arguments that differ with `v`, so that the PE entering second fails, and
 * that PE then calls again with the other PE's `v`, completing the collective. The error's
 * message must start with the routine's name and contain every string of `value`.
 */
export interface ErrorCase {
  readonly kind: ErrorKind;
  readonly value: readonly string[];
  readonly run: (h: Bad, v: number) => unknown;
}

/** A routine with no argument that can be wrong, or whose bad argument is an answer, not an error (checked with `check` when given). */
export interface NoError {
  readonly none: string;
  readonly check?: (h: Bad) => boolean;
}

export interface RoutineEntry {
  readonly data: DataRef;
  readonly error: ErrorCase | NoError;
}

/** Calls a face's method by name (the typed families are looked up by name, as a loop over kinds builds them). */
function call(face: object, name: string, ...args: unknown[]): unknown {
  return (face as Record<string, (...a: unknown[]) => unknown>)[name]!(...args);
}

const ROUTINE_DATA = 'test/shmem-routine-data.test.ts';

/** The element kinds of the typed RMA routines, with a one-element array of each. */
const KINDS: readonly [string, () => ArrayLike<number | bigint>][] = [
  ['Int8', () => new Int8Array(1)],
  ['Uint8', () => new Uint8Array(1)],
  ['Int16', () => new Int16Array(1)],
  ['Uint16', () => new Uint16Array(1)],
  ['Int32', () => new Int32Array(1)],
  ['Uint32', () => new Uint32Array(1)],
  ['Int64', () => new BigInt64Array(1)],
  ['Uint64', () => new BigUint64Array(1)],
  ['Float32', () => new Float32Array(1)],
  ['Float64', () => new Float64Array(1)],
];
const SIZES = [8, 16, 32, 64, 128];

const pe = (value: string, run: (h: Bad) => unknown): ErrorCase => ({ kind: 'pe', value: [value], run });
/** A private typed array where a symmetric address belongs: the message names the argument and what it is. */
const heap = (arg: string, run: (h: Bad) => unknown): ErrorCase => ({ kind: 'heap', value: [`${arg} is a `, 'Array(', 'not a symmetric address'], run });
const count = (value: string, run: (h: Bad) => unknown): ErrorCase => ({ kind: 'count', value: [value], run });
const arg = (value: string, run: (h: Bad) => unknown): ErrorCase => ({ kind: 'arg', value: [value], run });
const cmp = (value: string, run: (h: Bad) => unknown): ErrorCase => ({ kind: 'cmp', value: [`cmp=${value}`], run });
/** A collective whose PEs pass `name` = a[v]: the message names both values. */
const mismatch = (name: string, a: readonly [string | number, string | number], run: (h: Bad, v: number) => unknown): ErrorCase => ({ kind: 'mismatch', value: [`${name}=${a[0]}`, `${name}=${a[1]}`], run });
const deadTeam = (run: (h: Bad) => unknown): ErrorCase => ({ kind: 'team', value: ['was destroyed'], run });

/** The RMA, atomic and signal routines, which both faces have: the default context's and a context's of its own. */
function rmaRoutines(face: 'shmem' | 'ctx'): Record<string, RoutineEntry> {
  const out: Record<string, RoutineEntry> = {};
  const rmaData = (mentions: string): DataRef => ({ file: ROUTINE_DATA, test: 'typed, sized and mem RMA', mentions });
  for (const [k, arr] of KINDS) {
    out[`put${k}`] = { data: rmaData('`put${k}`'), error: pe('pe=2', (h) => call(h.f, `put${k}`, h.sym, arr(), 1, h.npes)) };
    out[`get${k}`] = { data: rmaData('`get${k}`'), error: pe('pe=-1', (h) => call(h.f, `get${k}`, arr(), h.sym, 1, -1)) };
    out[`put${k}Nbi`] = { data: rmaData('`put${k}Nbi`'), error: heap('dest', (h) => call(h.f, `put${k}Nbi`, arr(), arr(), 1, 0)) };
    out[`get${k}Nbi`] = { data: rmaData('`get${k}Nbi`'), error: heap('source', (h) => call(h.f, `get${k}Nbi`, arr(), arr(), 1, 0)) };
    out[`p${k}`] = { data: rmaData('`p${k}`'), error: pe('pe=2', (h) => call(h.f, `p${k}`, h.sym, arr()[0], h.npes)) };
    out[`g${k}`] = { data: rmaData('`g${k}`'), error: pe('pe=-1', (h) => call(h.f, `g${k}`, h.sym, -1)) };
    out[`iput${k}`] = { data: rmaData('`iput${k}`'), error: count('nelems=-1', (h) => call(h.f, `iput${k}`, h.sym, arr(), 1, 1, -1, 0)) };
    out[`iget${k}`] = { data: rmaData('`iget${k}`'), error: count('nelems=1.5', (h) => call(h.f, `iget${k}`, arr(), h.sym, 1, 1, 1.5, 0)) };
  }
  // long double: a private buffer is a Float64Array of (value, padding) pairs, 2 per element
  const ld = (): Float64Array => new Float64Array(2);
  const ldData = (mentions: string): DataRef => ({ file: ROUTINE_DATA, test: 'long double RMA and put-with-signal', mentions });
  out.putLongdouble = { data: ldData('putLongdouble'), error: pe('pe=2', (h) => h.f.putLongdouble(h.sym, ld(), 1, h.npes)) };
  out.getLongdouble = { data: ldData('getLongdouble'), error: pe('pe=-1', (h) => h.f.getLongdouble(ld(), h.sym, 1, -1)) };
  out.putLongdoubleNbi = { data: ldData('putLongdoubleNbi'), error: heap('dest', (h) => h.f.putLongdoubleNbi(ld() as never, ld(), 1, 0)) };
  out.getLongdoubleNbi = { data: ldData('getLongdoubleNbi'), error: arg('dest must be a Float64Array', (h) => h.f.getLongdoubleNbi(new Uint8Array(16) as never, h.sym, 1, 0)) };
  out.pLongdouble = { data: ldData('pLongdouble'), error: pe('pe=2', (h) => h.f.pLongdouble(h.sym, 1.5, h.npes)) };
  out.gLongdouble = { data: ldData('gLongdouble'), error: heap('source', (h) => h.f.gLongdouble(ld() as never, 0)) };
  out.iputLongdouble = { data: ldData('iputLongdouble'), error: count('nelems=-1', (h) => h.f.iputLongdouble(h.sym, ld(), 1, 1, -1, 0)) };
  out.igetLongdouble = { data: ldData('igetLongdouble'), error: count('nelems=2', (h) => h.f.igetLongdouble(ld(), h.sym, 1, 1, 2, 0)) };
  out.putLongdoubleSignal = { data: ldData('putLongdoubleSignal'), error: pe('pe=2', (h) => h.f.putLongdoubleSignal(h.sym, ld(), 1, h.sym.at(64), 1, 'add', h.npes)) };
  out.putLongdoubleSignalNbi = { data: ldData('putLongdoubleSignalNbi'), error: heap('dest', (h) => h.f.putLongdoubleSignalNbi(ld() as never, ld(), 1, h.sym.at(64), 1, 'set', 0)) };
  for (const b of SIZES) {
    const buf = (): Uint8Array => new Uint8Array(b / 8);
    out[`put${b}`] = { data: rmaData('`put${bits}`'), error: pe('pe=2', (h) => call(h.f, `put${b}`, h.sym, buf(), 1, h.npes)) };
    out[`get${b}`] = { data: rmaData('`get${bits}`'), error: heap('source', (h) => call(h.f, `get${b}`, buf(), buf(), 1, 0)) };
    out[`put${b}Nbi`] = { data: rmaData('`put${bits}Nbi`'), error: count('nelems=-1', (h) => call(h.f, `put${b}Nbi`, h.sym, buf(), -1, 0)) };
    out[`get${b}Nbi`] = { data: rmaData('`get${bits}Nbi`'), error: count('nelems=2', (h) => call(h.f, `get${b}Nbi`, buf(), h.sym, 2, 0)) };
    out[`iput${b}`] = { data: rmaData('`iput${bits}`'), error: arg('sst=0', (h) => call(h.f, `iput${b}`, h.sym, buf(), 1, 0, 1, 0)) };
    out[`iget${b}`] = { data: rmaData('`iget${bits}`'), error: heap('source', (h) => call(h.f, `iget${b}`, buf(), buf(), 1, 1, 1, 0)) };
  }
  out.putmem = { data: rmaData('putmem'), error: pe('pe=2', (h) => h.f.putmem(h.sym, new Uint8Array(4), 4, h.npes)) };
  out.getmem = { data: rmaData('getmem'), error: count('nbytes=-1', (h) => h.f.getmem(new Uint8Array(4), h.sym, -1, 0)) };
  out.putmemNbi = { data: rmaData('putmemNbi'), error: heap('dest', (h) => h.f.putmemNbi(new Uint8Array(4) as never, new Uint8Array(4), 4, 0)) };
  out.getmemNbi = { data: rmaData('getmemNbi'), error: pe('pe=-1', (h) => h.f.getmemNbi(new Uint8Array(4), h.sym, 4, -1)) };
  const dead = (name: 'quiet' | 'fence'): ErrorCase => ({ kind: 'ctx', value: ['the context was destroyed'], run: (h) => h.deadCtx[name]() });
  const noArgs: NoError = { none: 'takes no argument (on the default context, which cannot be destroyed)' };
  out.quiet = { data: rmaData('quiet'), error: face === 'ctx' ? dead('quiet') : noArgs };
  out.fence = { data: rmaData('fence'), error: face === 'ctx' ? dead('fence') : noArgs };
  // the atomics: a target not aligned to its type
  const atomicData: DataRef = { file: ROUTINE_DATA, test: 'every integer atomic on every integer type' };
  const misaligned = (name: string, run: (h: Bad) => unknown): RoutineEntry => ({ data: { ...atomicData, mentions: `'${name}'` }, error: { kind: 'align', value: ['byte offset 4', '8-byte int64'], run } });
  for (const name of ['atomicFetch', 'atomicInc', 'atomicFetchInc']) out[name] = misaligned(name, (h) => call(h.f, name, h.sym.at(4), 0, 'int64'));
  for (const name of ['atomicSet', 'atomicAdd', 'atomicFetchAdd', 'atomicSwap', 'atomicAnd', 'atomicFetchAnd', 'atomicOr', 'atomicFetchOr', 'atomicXor', 'atomicFetchXor']) out[name] = misaligned(name, (h) => call(h.f, name, h.sym.at(4), 1n, 0, 'int64'));
  out.atomicCompareSwap = misaligned('atomicCompareSwap', (h) => h.f.atomicCompareSwap(h.sym.at(4), 0n, 1n, 0, 'int64'));
  for (const name of ['atomicFetchNbi', 'atomicFetchIncNbi']) out[name] = misaligned(name, (h) => call(h.f, name, new BigInt64Array(1), 0, h.sym.at(4), 0, 'int64'));
  for (const name of ['atomicFetchAddNbi', 'atomicSwapNbi', 'atomicFetchAndNbi', 'atomicFetchOrNbi', 'atomicFetchXorNbi']) out[name] = misaligned(name, (h) => call(h.f, name, new BigInt64Array(1), 0, h.sym.at(4), 1n, 0, 'int64'));
  out.atomicCompareSwapNbi = misaligned('atomicCompareSwapNbi', (h) => h.f.atomicCompareSwapNbi(new BigInt64Array(1), 0, h.sym.at(4), 0n, 1n, 0, 'int64'));
  // put-with-signal
  const signalData = (mentions: string): DataRef => ({ file: ROUTINE_DATA, test: 'typed, sized and mem RMA', mentions });
  out.putSignal = { data: signalData('putSignal'), error: pe('pe=2', (h) => h.f.putSignal(h.sym, new Int32Array(2), 2, h.sym.at(64), 1, 'add', h.npes)) };
  out.putSignalNbi = { data: signalData('putSignalNbi'), error: arg('sigOp=mul', (h) => h.f.putSignalNbi(h.sym, new Int32Array(2), 2, h.sym.at(64), 1, 'mul' as never, 0)) };
  out.putmemSignal = { data: signalData('putmemSignal'), error: { kind: 'align', value: ['sigAddr is at byte offset 68'], run: (h) => h.f.putmemSignal(h.sym, new Uint8Array(8), 8, h.sym.at(68), 1, 'set', 0) } };
  out.putmemSignalNbi = { data: signalData('putmemSignalNbi'), error: heap('sigAddr', (h) => h.f.putmemSignalNbi(h.sym, new Uint8Array(8), 8, new BigUint64Array(1) as never, 1, 'set', 0)) };
  return out;
}

/** The 1.4 `..._to_all` reductions, by C type, with the operators 1.4 gives each. */
const TO_ALL: readonly [string, readonly string[]][] = [
  ['int', ['Sum', 'Prod', 'Min', 'Max', 'And', 'Or', 'Xor']],
  ['long', ['Sum', 'Prod', 'Min', 'Max', 'And', 'Or', 'Xor']],
  ['longlong', ['Sum', 'Prod', 'Min', 'Max', 'And', 'Or', 'Xor']],
  ['double', ['Sum', 'Prod', 'Min', 'Max']],
  ['short', ['Sum', 'Prod', 'Min', 'Max', 'And', 'Or', 'Xor']],
  ['float', ['Sum', 'Prod', 'Min', 'Max']],
  ['longdouble', ['Sum', 'Prod', 'Min', 'Max']],
  ['complexf', ['Sum', 'Prod']],
  ['complexd', ['Sum', 'Prod']],
];

/** The routines only `ctx.shmem` has: setup, memory, teams, contexts, collectives, waits, locks, the 1.4 active-set calls. */
function shmemOnly(): Record<string, RoutineEntry> {
  const memory = 'test/shmem-memory.test.ts';
  const teams = 'test/shmem-teams.test.ts';
  const waitMany = 'test/shmem-wait-many.test.ts';
  const noArgs = (what = 'takes no argument'): NoError => ({ none: what });
  const gaps = (mentions?: string): DataRef => ({ file: ROUTINE_DATA, test: 'team and active-set routines no other test checks the data of', mentions });
  const out: Record<string, RoutineEntry> = {
    // setup, exit and query
    init: { data: { file: memory, test: 'startPes(0) starts SHMEM as init does' }, error: noArgs() },
    startPes: { data: { file: memory, test: 'startPes(0) starts SHMEM as init does' }, error: arg('npes=0.5', (h) => h.s.startPes(0.5)) },
    finalize: { data: { file: 'test/shmem-rma.test.ts', test: 'put, get, an atomic and barrierAll give the right data on 4 PEs' }, error: noArgs() },
    initThread: { data: { file: memory, test: 'initThread gives the level asked for' }, error: arg('requested=7', (h) => h.s.initThread(7)) },
    queryThread: { data: { file: memory, test: 'queryThread reports it' }, error: noArgs() },
    pcontrol: { data: { file: memory, test: 'pcontrol takes integer levels' }, error: arg('level=0.5', (h) => h.s.pcontrol(0.5)) },
    infoGetVersion: { data: { file: memory, test: 'the accessibility queries' }, error: noArgs() },
    infoGetName: { data: { file: memory, test: 'the accessibility queries' }, error: noArgs() },
    globalExit: { data: { file: memory, test: 'globalExit(3) on one PE ends the run' }, error: arg('status=0.5', (h) => h.s.globalExit(0.5)) },
    myPe: { data: { file: 'test/shmem-typed-rma.test.ts', test: 'every element kind through put, get, nbi, p, g, iput and iget gives the values sent' }, error: noArgs() },
    nPes: { data: { file: 'test/shmem-typed-rma.test.ts', test: 'every element kind through put, get, nbi, p, g, iput and iget gives the values sent' }, error: noArgs() },
    // memory
    malloc: { data: { file: memory, test: 'realloc keeps the data and moves the address' }, error: count('bytes=-1', (h) => h.s.malloc(-1)) },
    calloc: { data: gaps('calloc'), error: count('count=-1', (h) => h.s.calloc(-1, 8)) },
    free: { data: { file: memory, test: 'the accessibility queries' }, error: heap('obj', (h) => h.s.free(new Uint8Array(8) as never)) },
    realloc: { data: { file: memory, test: 'realloc keeps the data and moves the address' }, error: count('bytes=1.5', (h) => h.s.realloc(h.sym, 1.5)) },
    align: { data: gaps('align'), error: arg('alignment=3', (h) => h.s.align(3, 8)) },
    mallocWithHints: { data: gaps('mallocWithHints'), error: arg('hints=0.5', (h) => h.s.mallocWithHints(8, 0.5)) },
    ptr: { data: { file: memory, test: 'ptr gives the copy of a PE on this node' }, error: pe('pe=-1', (h) => h.s.ptr(h.sym, -1)) },
    teamPtr: { data: { file: memory, test: 'ptr gives the copy of a PE on this node' }, error: pe('pe=2', (h) => h.s.teamPtr(h.s.TEAM_WORLD, h.sym, h.npes)) },
    // deprecated cache management: no-ops (the caches are coherent), the line forms check their address
    clearCacheInv: { data: { file: memory, test: 'the cache calls change no data and cost no time' }, error: noArgs() },
    setCacheInv: { data: { file: memory, test: 'the cache calls change no data and cost no time' }, error: noArgs() },
    udcflush: { data: { file: memory, test: 'the cache calls change no data and cost no time' }, error: noArgs() },
    clearCacheLineInv: { data: { file: memory, test: 'the cache calls change no data and cost no time' }, error: heap('dest', (h) => h.s.clearCacheLineInv(new Uint8Array(4) as never)) },
    setCacheLineInv: { data: { file: memory, test: 'the cache calls change no data and cost no time' }, error: heap('dest', (h) => h.s.setCacheLineInv(new Uint8Array(4) as never)) },
    udcflushLine: { data: { file: memory, test: 'the cache calls change no data and cost no time' }, error: heap('dest', (h) => h.s.udcflushLine(new Uint8Array(4) as never)) },
    addrAccessible: { data: { file: memory, test: 'the accessibility queries' }, error: { none: 'a bad PE or a private address is an answer (false), not an error (§9.1.7)', check: (h) => h.s.addrAccessible(h.sym, -1) === false && h.s.addrAccessible(new Uint8Array(8) as never, 0) === false } },
    peAccessible: { data: { file: memory, test: 'the accessibility queries' }, error: { none: 'a bad PE is an answer (false), not an error (§9.1.6)', check: (h) => h.s.peAccessible(-1) === false && h.s.peAccessible(h.npes) === false } },
    // teams
    teamMyPe: { data: { file: teams, test: 'splits, queries, TEAM_SHARED and every team collective' }, error: deadTeam((h) => h.s.teamMyPe(h.deadTeam)) },
    teamNPes: { data: { file: teams, test: 'splits, queries, TEAM_SHARED and every team collective' }, error: deadTeam((h) => h.s.teamNPes(h.deadTeam)) },
    teamGetConfig: { data: gaps('teamGetConfig'), error: deadTeam((h) => h.s.teamGetConfig(h.deadTeam)) },
    teamTranslatePe: { data: { file: teams, test: 'splits, queries, TEAM_SHARED and every team collective' }, error: arg('srcPe=0.5', (h) => h.s.teamTranslatePe(h.s.TEAM_WORLD, 0.5, h.s.TEAM_WORLD)) },
    teamSplitStrided: {
      data: { file: teams, test: 'splits, queries, TEAM_SHARED and every team collective' },
      error: mismatch('start', [0, 1], async (h, v) => {
        const t = await h.s.teamSplitStrided(h.s.TEAM_WORLD, v, 1, 1);
        if (t) h.s.teamDestroy(t);
      }),
    },
    teamSplit2d: { data: { file: teams, test: '3-D coordinates from two 2-D splits' }, error: arg('xrange=0', (h) => h.s.teamSplit2d(h.s.TEAM_WORLD, 0)) },
    teamDestroy: { data: { file: teams, test: 'a team is destroyed and made again from the same triplet' }, error: arg('TEAM_WORLD is predefined', (h) => h.s.teamDestroy(h.s.TEAM_WORLD)) },
    teamSync: { data: { file: teams, test: 'a team sync waits only for the PEs of the team' }, error: deadTeam((h) => h.s.teamSync(h.deadTeam)) },
    syncAll: { data: gaps('syncAll'), error: noArgs() },
    sync: { data: gaps('sync'), error: deadTeam((h) => h.s.sync(h.deadTeam)) },
    // contexts
    ctxCreate: { data: { file: ROUTINE_DATA, test: 'typed, sized and mem RMA', mentions: 'ctxCreate' }, error: arg('options.shared', (h) => h.s.ctxCreate({ shared: true } as never)) },
    teamCreateCtx: { data: { file: ROUTINE_DATA, test: 'typed, sized and mem RMA', mentions: 'teamCreateCtx' }, error: deadTeam((h) => h.s.teamCreateCtx(h.deadTeam)) },
    ctxGetTeam: { data: { file: 'test/shmem-contexts.test.ts', test: 'RMA and atomics on created contexts' }, error: { kind: 'ctx', value: ['ctx was destroyed'], run: (h) => h.s.ctxGetTeam(h.deadCtx) } },
    ctxDestroy: { data: { file: 'test/shmem-contexts.test.ts', test: 'RMA and atomics on created contexts' }, error: arg('ctx is CTX_DEFAULT', (h) => h.s.ctxDestroy(h.s.CTX_DEFAULT)) },
    // world collectives
    barrierAll: { data: { file: 'test/shmem-rma.test.ts', test: 'put, get, an atomic and barrierAll give the right data on 4 PEs' }, error: noArgs() },
    broadcastmem: { data: gaps('broadcastmem'), error: mismatch('root', [0, 1], (h, v) => h.s.broadcastmem(h.s.TEAM_WORLD, h.sym, h.sym.at(128), 8, v)) },
    collectmem: { data: gaps('collectmem'), error: heap('dest', (h) => h.s.collectmem(new Uint8Array(8) as never, h.sym, 8)) },
    fcollectmem: { data: gaps('fcollectmem'), error: count('nbytes=-1', (h) => h.s.fcollectmem(h.sym, h.sym.at(128), -1)) },
    sumToAll: { data: { file: 'test/shmem-collectives.test.ts', test: 'collectives on $n PEs', mentions: '`${op}ToAll`' }, error: arg('type=int8', (h) => h.s.sumToAll(h.sym, h.sym.at(128), 1, 'int8' as never)) },
    minToAll: { data: { file: 'test/shmem-collectives.test.ts', test: 'collectives on $n PEs', mentions: '`${op}ToAll`' }, error: heap('source', (h) => h.s.minToAll(h.sym, new Uint8Array(8) as never, 1, 'int64')) },
    maxToAll: { data: { file: 'test/shmem-collectives.test.ts', test: 'collectives on $n PEs', mentions: '`${op}ToAll`' }, error: count('nreduce=-1', (h) => h.s.maxToAll(h.sym, h.sym.at(128), -1, 'int64')) },
    // team collectives: PEs that disagree
    broadcast: { data: { file: teams, test: 'every team collective give the data' }, error: mismatch('root', [0, 1], (h, v) => h.s.broadcast(h.s.TEAM_WORLD, h.sym, h.sym.at(128), 2, v, 'int32')) },
    collect: { data: { file: teams, test: 'every team collective give the data' }, error: mismatch('type', ['int32', 'uint32'], (h, v) => h.s.collect(h.s.TEAM_WORLD, h.sym, h.sym.at(128), 1, v ? 'uint32' : 'int32')) },
    fcollect: { data: { file: teams, test: 'every team collective give the data' }, error: mismatch('nelems', [1, 2], (h, v) => h.s.fcollect(h.s.TEAM_WORLD, h.sym, h.sym.at(128), v + 1, 'int64')) },
    alltoall: { data: { file: teams, test: 'every team collective give the data' }, error: mismatch('nelems', [1, 2], (h, v) => h.s.alltoall(h.s.TEAM_WORLD, h.sym, h.sym.at(128), v + 1, 'int32')) },
    alltoalls: { data: { file: teams, test: 'every team collective give the data' }, error: mismatch('dst', [1, 2], (h, v) => h.s.alltoalls(h.s.TEAM_WORLD, h.sym, h.sym.at(128), v + 1, 1, 2, 'int32')) },
    alltoallmem: { data: gaps('alltoallmem'), error: mismatch('nbytes', [8, 16], (h, v) => h.s.alltoallmem(h.s.TEAM_WORLD, h.sym, h.sym.at(128), 8 * (v + 1))) },
    alltoallsmem: { data: gaps('alltoallsmem'), error: mismatch('sst', [1, 2], (h, v) => h.s.alltoallsmem(h.s.TEAM_WORLD, h.sym, h.sym.at(128), 1, v + 1, 4)) },
    // waits and tests
    waitUntil: { data: { file: 'test/shmem-wait-until.test.ts', test: 'waitUntil wakes on remote atomics and puts' }, error: cmp('>=', (h) => h.s.waitUntil(h.sym, '>=' as never, 1)) },
    test: { data: { file: 'test/shmem-wait-until.test.ts', test: 'test() does not wait' }, error: arg('type=int8', (h) => h.s.test(h.sym, 'eq', 0, 'int8' as never)) },
    signalFetch: { data: { file: 'test/shmem-signals.test.ts', test: 'the waiter sees all the data once the signal reaches 3' }, error: heap('sigAddr', (h) => h.s.signalFetch(new BigUint64Array(1) as never)) },
    signalWaitUntil: { data: { file: 'test/shmem-signals.test.ts', test: 'signalWaitUntil resumes one poll after the signal is visible and returns it' }, error: cmp('gte', (h) => h.s.signalWaitUntil(h.sym, 'gte' as never, 1)) },
    waitUntilAll: { data: { file: waitMany, test: 'any, some (with one element left out), all and the vector forms' }, error: cmp('eqq', (h) => h.s.waitUntilAll(h.sym, 2, null, 'eqq' as never, 1)) },
    waitUntilAny: { data: { file: waitMany, test: 'any, some (with one element left out), all and the vector forms' }, error: count('nelems=-1', (h) => h.s.waitUntilAny(h.sym, -1, null, 'eq', 1)) },
    waitUntilSome: { data: { file: waitMany, test: 'any, some (with one element left out), all and the vector forms' }, error: cmp('<', (h) => h.s.waitUntilSome(h.sym, 2, [0, 0], null, '<' as never, 1)) },
    waitUntilAllVector: { data: { file: waitMany, test: 'any, some (with one element left out), all and the vector forms' }, error: arg('values must be an array of at least nelems=2', (h) => h.s.waitUntilAllVector(h.sym, 2, null, 'eq', [1])) },
    waitUntilAnyVector: { data: { file: waitMany, test: 'any, some (with one element left out), all and the vector forms' }, error: cmp('EQ', (h) => h.s.waitUntilAnyVector(h.sym, 2, null, 'EQ' as never, [1, 1])) },
    waitUntilSomeVector: { data: { file: waitMany, test: 'any, some (with one element left out), all and the vector forms' }, error: count('nelems=1.5', (h) => h.s.waitUntilSomeVector(h.sym, 1.5, [0, 0], null, 'eq', [1, 1])) },
    testAll: { data: { file: waitMany, test: 'any, some (with one element left out), all and the vector forms' }, error: cmp('ge ', (h) => h.s.testAll(h.sym, 2, null, 'ge ' as never, 1)) },
    testAny: { data: { file: waitMany, test: 'any, some (with one element left out), all and the vector forms' }, error: heap('ivars', (h) => h.s.testAny(new BigInt64Array(2) as never, 2, null, 'eq', 1)) },
    testSome: { data: { file: waitMany, test: 'any, some (with one element left out), all and the vector forms' }, error: cmp('lte', (h) => h.s.testSome(h.sym, 2, [0, 0], null, 'lte' as never, 1)) },
    testAllVector: { data: { file: waitMany, test: 'any, some (with one element left out), all and the vector forms' }, error: cmp('neq', (h) => h.s.testAllVector(h.sym, 2, null, 'neq' as never, [1, 1])) },
    testAnyVector: { data: { file: waitMany, test: 'any, some (with one element left out), all and the vector forms' }, error: count('nelems=-1', (h) => h.s.testAnyVector(h.sym, -1, null, 'eq', [1])) },
    testSomeVector: { data: { file: waitMany, test: 'any, some (with one element left out), all and the vector forms' }, error: cmp('gt=', (h) => h.s.testSomeVector(h.sym, 2, [0, 0], null, 'gt=' as never, [1, 1])) },
    // locks
    setLock: { data: { file: 'test/shmem-locks.test.ts', test: 'get-compute-put increments per PE under the lock give exactly 6n' }, error: { kind: 'align', value: ['byte offset 4'], run: (h) => h.s.setLock(h.sym.at(4)) } },
    testLock: { data: { file: 'test/shmem-locks.test.ts', test: 'testLock takes a free lock and only then' }, error: heap('lock', (h) => h.s.testLock(new BigInt64Array(1) as never)) },
    clearLock: { data: { file: 'test/shmem-locks.test.ts', test: 'get-compute-put increments per PE under the lock give exactly 6n' }, error: { kind: 'arg', value: ['does not hold the lock', 'byte 8'], run: (h) => h.s.clearLock(h.sym.at(8)) } },
    // the active-set calls of 1.4
    barrier: { data: { file: 'test/shmem-active-set.test.ts', test: 'every call on all PEs, the even PEs and the odd PEs at once' }, error: { kind: 'pSync', value: ['pSync[0]=5'], run: (h) => h.s.barrier(0, 0, h.npes, h.dirty) } },
  };
  // team reductions: PEs that pass different counts or types
  for (const [i, op] of ['sum', 'prod', 'min', 'max', 'and', 'or', 'xor'].entries()) {
    const name = `${op}Reduce`;
    out[name] = {
      data: { file: teams, test: 'every team collective give the data', mentions: '`${op}Reduce`' },
      error: i % 2 === 0 ? mismatch('nreduce', [1, 2], (h, v) => call(h.s, name, h.s.TEAM_WORLD, h.sym, h.sym.at(128), v + 1, 'int32')) : mismatch('type', ['int32', 'uint32'], (h, v) => call(h.s, name, h.s.TEAM_WORLD, h.sym, h.sym.at(128), 1, v ? 'uint32' : 'int32')),
    };
  }
  // active-set data calls: PEs that disagree, or a pSync not reset
  const set = (h: Bad): [number, number, number, Symmetric] => [0, 0, h.npes, h.pSync];
  for (const b of [32, 64]) {
    const data = { file: ROUTINE_DATA, test: 'team and active-set routines no other test checks the data of', mentions: `\`broadcast\${bits}\`` };
    out[`broadcast${b}`] = { data, error: mismatch('PE_root', [0, 1], (h, v) => call(h.s, `broadcast${b}`, h.sym, h.sym.at(128), 2, v, ...set(h))) };
    out[`collect${b}`] = { data: { ...data, mentions: '`collect${bits}`' }, error: b === 32 ? { kind: 'pSync', value: ['pSync[0]=5'], run: (h) => call(h.s, `collect${b}`, h.sym, h.sym.at(128), 1, 0, 0, h.npes, h.dirty) } : arg('logPE_stride=-1', (h) => call(h.s, `collect${b}`, h.sym, h.sym.at(128), 1, 0, -1, h.npes, h.pSync)) };
    out[`fcollect${b}`] = { data: { ...data, mentions: '`fcollect${bits}`' }, error: mismatch('nelems', [1, 2], (h, v) => call(h.s, `fcollect${b}`, h.sym, h.sym.at(128), v + 1, ...set(h))) };
    out[`alltoall${b}`] = { data: { ...data, mentions: '`alltoall${bits}`' }, error: mismatch('nelems', [1, 2], (h, v) => call(h.s, `alltoall${b}`, h.sym, h.sym.at(128), v + 1, ...set(h))) };
    out[`alltoalls${b}`] = { data: { ...data, mentions: '`alltoalls${bits}`' }, error: mismatch('dst', [1, 2], (h, v) => call(h.s, `alltoalls${b}`, h.sym, h.sym.at(128), v + 1, 1, 2, ...set(h))) };
  }
  for (const [ctype, ops] of TO_ALL) {
    for (const op of ops) {
      const name = `${ctype}${op}ToAll`;
      out[name] = {
        data: { file: ROUTINE_DATA, test: 'team and active-set routines no other test checks the data of', mentions: '`${ctype}${op}ToAll`' },
        error: mismatch('nreduce', [1, 2], (h, v) => call(h.s, name, h.sym, h.sym.at(128), v + 1, 0, 0, h.npes, h.pWrk, h.pSync)),
      };
    }
  }
  return out;
}

/** The manifest: `shmem.<method>` for the routines of `ctx.shmem`, `ctx.<method>` for those of a context. */
export const MANIFEST: Readonly<Record<string, RoutineEntry>> = {
  ...Object.fromEntries(Object.entries({ ...rmaRoutines('shmem'), ...shmemOnly() }).map(([k, v]) => [`shmem.${k}`, v])),
  ...Object.fromEntries(Object.entries(rmaRoutines('ctx')).map(([k, v]) => [`ctx.${k}`, v])),
};
