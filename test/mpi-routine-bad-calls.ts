/**
 * One bad call of every public MPI routine (test/mpi-routine-manifest.ts joins them to the
 * routines' data tests; test/mpi-routine-errors.test.ts makes them on 2 ranks under
 * ERRORS_RETURN). Each names the MPI error class it must fail with and the values its one-line
 * message must show; the call's name is the routine's.
 */
import { SUM } from '../runtime/mpi/ops.ts';
import type { CartComm, Comm, Datatype, Group, Info, InterComm, Mpi, Request, Win } from '../runtime/mpi/mpi.ts';

/** What a bad call gets to work with, on each rank (2 ranks, ERRORS_RETURN on every object). */
export interface Bad {
  readonly mpi: Mpi;
  /** A dup of MPI_COMM_WORLD, freed. */
  readonly dead: Comm;
  /** A 1-D periodic Cartesian communicator of the 2 ranks. */
  readonly cart: CartComm;
  /** The intercommunicator of rank 0 and rank 1. */
  readonly ic: InterComm;
  /** A dup of `ic`, freed. */
  readonly deadIc: InterComm;
  /** A window of 16 bytes per rank (displacement unit 8), in no epoch. */
  readonly win: Win;
  /** A window freed. */
  readonly deadWin: Win;
  /** The group of MPI_COMM_WORLD. */
  readonly group: Group;
  /** An info object freed. */
  readonly deadInfo: Info;
  /** A live info object with key "a" set. */
  readonly info: Info;
  /** A contiguous type of 2 doubles, not committed. */
  readonly raw: Datatype;
  /** A contiguous type committed, then freed. */
  readonly freedType: Datatype;
  /** A persistent receive request, freed. */
  readonly freedReq: Request;
  /** 4 doubles. */
  readonly b: Float64Array;
}

/** The MPI error classes the bad calls fail with. */
export type ErrorClass =
  | 'MPI_ERR_ARG'
  | 'MPI_ERR_BUFFER'
  | 'MPI_ERR_BASE'
  | 'MPI_ERR_DISP'
  | 'MPI_ERR_RMA_FLAVOR'
  | 'MPI_ERR_SIZE'
  | 'MPI_ERR_COMM'
  | 'MPI_ERR_COUNT'
  | 'MPI_ERR_DIMS'
  | 'MPI_ERR_GROUP'
  | 'MPI_ERR_INFO'
  | 'MPI_ERR_INFO_KEY'
  | 'MPI_ERR_INFO_NOKEY'
  | 'MPI_ERR_KEYVAL'
  | 'MPI_ERR_OP'
  | 'MPI_ERR_RANK'
  | 'MPI_ERR_REQUEST'
  | 'MPI_ERR_RMA_RANGE'
  | 'MPI_ERR_RMA_SYNC'
  | 'MPI_ERR_ROOT'
  | 'MPI_ERR_TAG'
  | 'MPI_ERR_TOPOLOGY'
  | 'MPI_ERR_TRUNCATE'
  | 'MPI_ERR_TYPE'
  | 'MPI_ERR_WIN'
  | 'MPI_ERR_OTHER';

/**
 * One bad call, made on every rank: it must fail there with an MpiError of class `cls` whose
 * one-line message starts with `<cls>: <routine's name>` and contains every string of `value`.
 */
export interface ErrorCase {
  readonly cls: ErrorClass;
  readonly value: readonly string[];
  readonly run: (h: Bad) => unknown;
  /** The name the message gives the call when it is not the routine's: an info object's calls are named as MPI names them (`infoSet` for MPI_Info_set). */
  readonly call?: string;
}

/** Calls `obj`'s method `name` (the table is keyed by name, as the inventory is). */
function call(obj: object, name: string, ...args: unknown[]): unknown {
  return (obj as Record<string, (...a: unknown[]) => unknown>)[name]!(...args);
}

const f64 = (n: number): Float64Array => new Float64Array(n);
const freedComm = (name: string, ...args: unknown[]): ErrorCase => ({ cls: 'MPI_ERR_COMM', value: ['was freed'], run: (h) => call(h.dead, name, ...args) });
const freedInter = (name: string, ...args: unknown[]): ErrorCase => ({ cls: 'MPI_ERR_COMM', value: ['was freed'], run: (h) => call(h.deadIc, name, ...args) });
const badRoot = (name: string, args: (h: Bad) => unknown[]): ErrorCase => ({ cls: 'MPI_ERR_ROOT', value: ['root=9'], run: (h) => call(h.mpi, name, ...args(h)) });
/** `{}` in place of an op. */
const NOT_AN_OP = {};
const badOp = (name: string, args: (h: Bad) => unknown[]): ErrorCase => ({ cls: 'MPI_ERR_OP', value: ['op must be an MPI op', 'got Object'], run: (h) => call(h.mpi, name, ...args(h)) });
const noTopo = (name: string, ...args: unknown[]): ErrorCase => ({ cls: 'MPI_ERR_TOPOLOGY', value: ['no topology'], run: (h) => call(h.mpi, name, ...args) });
const badDest = (name: string): ErrorCase => ({ cls: 'MPI_ERR_RANK', value: ['dest=9'], run: (h) => call(h.mpi, name, h.b, 9, 0) });
const badTag = (name: string): ErrorCase => ({ cls: 'MPI_ERR_TAG', value: ['tag=-5'], run: (h) => call(h.mpi, name, h.b, 0, -5) });
const uncommitted = (name: string, args: (h: Bad) => unknown[]): ErrorCase => ({ cls: 'MPI_ERR_TYPE', value: ['not committed'], run: (h) => call(h.mpi, name, ...args(h)) });
const freedType = (name: string, args: (h: Bad) => unknown[]): ErrorCase => ({ cls: 'MPI_ERR_TYPE', value: ['freed'], run: (h) => call(h.mpi, name, ...args(h)) });
const negCount = (name: string, args: (h: Bad) => unknown[], what = 'count=-1'): ErrorCase => ({ cls: 'MPI_ERR_COUNT', value: [what], run: (h) => call(h.mpi, name, ...args(h)) });
const freedRequest = (name: string, wrap: boolean): ErrorCase => ({ cls: 'MPI_ERR_REQUEST', value: ['freed'], run: (h) => call(h.mpi, name, wrap ? [h.freedReq] : h.freedReq) });
const noEpoch = (name: string, args: (h: Bad) => unknown[]): ErrorCase => ({ cls: 'MPI_ERR_RMA_SYNC', value: ['epoch'], run: (h) => call(h.win, name, ...args(h)) });
const freedWin = (name: string, ...args: unknown[]): ErrorCase => ({ cls: 'MPI_ERR_WIN', value: ['freed'], run: (h) => call(h.deadWin, name, ...args) });

/** The bad call of each routine, keyed as the inventory names them. */
export const BAD_CALLS: Record<string, ErrorCase> = {
  // process-level calls and datatypes
  'mpi.opCreate': { cls: 'MPI_ERR_ARG', value: ['fn'], run: (h) => h.mpi.opCreate(5 as never, true) },
  'mpi.allocMem': { cls: 'MPI_ERR_SIZE', value: ['bytes=-8'], run: (h) => h.mpi.allocMem(-8) },
  'mpi.freeMem': { cls: 'MPI_ERR_BASE', value: ['Float64Array is not memory of allocMem'], run: (h) => h.mpi.freeMem(h.b) },
  'mpi.aintAdd': { cls: 'MPI_ERR_ARG', value: ['disp=9223372036854776000', 'safe integer'], run: (h) => h.mpi.aintAdd(0, 2 ** 63) },
  'mpi.aintDiff': { cls: 'MPI_ERR_ARG', value: ['addr2=0.5'], run: (h) => h.mpi.aintDiff(0, 0.5) },
  'mpi.errorString': { cls: 'MPI_ERR_ARG', value: ['12345 is not an MPI error code'], run: (h) => h.mpi.errorString(12345) },
  'mpi.errorClass': { cls: 'MPI_ERR_ARG', value: ['12345 is not an MPI error code'], run: (h) => h.mpi.errorClass(12345) },
  'mpi.winCreateErrhandler': { cls: 'MPI_ERR_ARG', value: ['expected a function', 'got null'], run: (h) => h.mpi.winCreateErrhandler(null as never) },
  'mpi.errhandlerFree': { cls: 'MPI_ERR_ARG', value: ['MPI_ERRORS_RETURN is predefined'], run: (h) => h.mpi.errhandlerFree(h.mpi.ERRORS_RETURN) },
  'mpi.callErrhandler': { cls: 'MPI_ERR_ARG', value: ['code=12345'], run: (h) => h.mpi.callErrhandler(12345) },
  'mpi.winCreateKeyval': { cls: 'MPI_ERR_ARG', value: ['copyFn must be a function', 'got null'], run: (h) => h.mpi.winCreateKeyval(null as never, h.mpi.WIN_NULL_DELETE_FN) },
  'mpi.winFreeKeyval': { cls: 'MPI_ERR_KEYVAL', value: ['MPI_WIN_BASE is predefined'], run: (h) => h.mpi.winFreeKeyval(h.mpi.WIN_BASE) },
  'mpi.commCreateErrhandler': { cls: 'MPI_ERR_ARG', value: ['expected a function', 'got object'], run: (h) => h.mpi.commCreateErrhandler(null as never) },
  'mpi.commCreateFromGroup': { cls: 'MPI_ERR_TAG', value: ['stringtag must be a string', 'got number'], run: (h) => h.mpi.commCreateFromGroup(h.group, 5 as never) },
  'mpi.intercommCreateFromGroups': { cls: 'MPI_ERR_GROUP', value: ['in both localGroup and remoteGroup'], run: (h) => h.mpi.intercommCreateFromGroups(h.group, 0, h.group, 0, 't') },
  'mpi.commGetName': { cls: 'MPI_ERR_COMM', value: ['comm must be a communicator or mpi.COMM_NULL', 'got number'], run: (h) => h.mpi.commGetName(7 as never) },
  'mpi.dimsCreate': { cls: 'MPI_ERR_DIMS', value: ['nnodes=7'], run: (h) => h.mpi.dimsCreate(7, [2, 0]) },
  'mpi.typeContiguous': negCount('typeContiguous', (h) => [2 ** 63, h.mpi.DOUBLE], 'count=9223372036854776000'),
  'mpi.typeVector': negCount('typeVector', (h) => [-1, 1, 1, h.mpi.DOUBLE]),
  'mpi.typeCreateHvector': negCount('typeCreateHvector', (h) => [-1, 1, 8, h.mpi.DOUBLE]),
  'mpi.typeIndexed': { cls: 'MPI_ERR_ARG', value: ['displacements[0]=9223372036854776000', 'safe integer'], run: (h) => h.mpi.typeIndexed(1, [1], [2 ** 63], h.mpi.DOUBLE) },
  'mpi.typeCreateHindexed': { cls: 'MPI_ERR_ARG', value: ['displacements[0]=9223372036854776000', 'safe integer'], run: (h) => h.mpi.typeCreateHindexed(1, [1], [2 ** 63], h.mpi.DOUBLE) },
  'mpi.typeCreateIndexedBlock': negCount('typeCreateIndexedBlock', (h) => [-1, 1, [], h.mpi.DOUBLE]),
  'mpi.typeCreateHindexedBlock': negCount('typeCreateHindexedBlock', (h) => [-1, 1, [], h.mpi.DOUBLE]),
  'mpi.typeCreateStruct': freedType('typeCreateStruct', (h) => [1, [1], [0], [h.freedType]]),
  'mpi.typeCreateSubarray': { cls: 'MPI_ERR_ARG', value: ['ndims=0'], run: (h) => h.mpi.typeCreateSubarray(0, [], [], [], h.mpi.ORDER_C, h.mpi.DOUBLE) },
  'mpi.typeCreateDarray': { cls: 'MPI_ERR_ARG', value: ['rank=5'], run: (h) => h.mpi.typeCreateDarray(2, 5, 1, [4], [h.mpi.DISTRIBUTE_BLOCK], [h.mpi.DISTRIBUTE_DFLT_DARG], [2], h.mpi.ORDER_C, h.mpi.DOUBLE) },
  'mpi.typeCreateResized': freedType('typeCreateResized', (h) => [h.freedType, 0, 8]),
  'mpi.typeDup': freedType('typeDup', (h) => [h.freedType]),
  'mpi.typeGetEnvelope': freedType('typeGetEnvelope', (h) => [h.freedType]),
  'mpi.typeGetContents': freedType('typeGetContents', (h) => [h.freedType]),
  'mpi.typeSetName': freedType('typeSetName', (h) => [h.freedType, 'x']),
  'mpi.typeGetName': freedType('typeGetName', (h) => [h.freedType]),
  'mpi.typeMatchSize': { cls: 'MPI_ERR_ARG', value: ['size=3'], run: (h) => h.mpi.typeMatchSize(h.mpi.TYPECLASS_INTEGER, 3) },
  'mpi.reduceLocal': badOp('reduceLocal', (h) => [h.b, f64(4), NOT_AN_OP]),
  'mpi.typeCommit': freedType('typeCommit', (h) => [h.freedType]),
  'mpi.typeFree': freedType('typeFree', (h) => [h.freedType]),
  'mpi.typeSize': freedType('typeSize', (h) => [h.freedType]),
  'mpi.typeGetExtent': freedType('typeGetExtent', (h) => [h.freedType]),
  'mpi.typeGetTrueExtent': freedType('typeGetTrueExtent', (h) => [h.freedType]),
  'mpi.getCount': freedType('getCount', (h) => [{ source: 0, tag: 0, bytes: 8, error: 0, cancelled: false }, h.freedType]),
  'mpi.getElements': freedType('getElements', (h) => [{ source: 0, tag: 0, bytes: 8, error: 0, cancelled: false }, h.freedType]),
  'mpi.pack': uncommitted('pack', (h) => [h.b, 1, h.raw, new Uint8Array(64), 0]),
  'mpi.unpack': uncommitted('unpack', (h) => [new Uint8Array(64), 0, h.b, 1, h.raw]),
  'mpi.packSize': negCount('packSize', (h) => [-1, h.mpi.DOUBLE], 'incount=-1'),
  'mpi.grequestStart': { cls: 'MPI_ERR_ARG', value: ['queryFn', 'null'], run: (h) => h.mpi.grequestStart(null as never, () => 0, () => 0, 0) },
  'mpi.grequestComplete': { cls: 'MPI_ERR_REQUEST', value: ['grequestStart', 'REQUEST_NULL'], run: (h) => h.mpi.grequestComplete(h.mpi.REQUEST_NULL) },
  'mpi.statusSetElements': negCount('statusSetElements', (h) => [{ source: 0, tag: 0, count: 0, bytes: 0 }, h.mpi.INT, -1]),
  'mpi.statusSetCancelled': { cls: 'MPI_ERR_ARG', value: ['flag', '1'], run: (h) => h.mpi.statusSetCancelled({ source: 0, tag: 0, count: 0, bytes: 0 }, 1 as never) },
  'mpi.packExternal': { cls: 'MPI_ERR_ARG', value: ['datarep="native"', 'external32'], run: (h) => h.mpi.packExternal('native', h.b, 1, h.mpi.DOUBLE, new Uint8Array(64), 0) },
  'mpi.unpackExternal': uncommitted('unpackExternal', (h) => ['external32', new Uint8Array(64), 0, h.b, 1, h.raw]),
  'mpi.packExternalSize': negCount('packExternalSize', (h) => ['external32', -1, h.mpi.DOUBLE], 'incount=-1'),
  // communicators
  'mpi.dup': freedComm('dup'),
  'mpi.dupWithInfo': { cls: 'MPI_ERR_INFO', value: ['freed'], run: (h) => h.mpi.dupWithInfo(h.deadInfo) },
  'mpi.setInfo': { cls: 'MPI_ERR_INFO', value: ['freed'], run: (h) => h.mpi.setInfo(h.deadInfo) },
  'mpi.getInfo': freedComm('getInfo'),
  'mpi.split': { cls: 'MPI_ERR_ARG', value: ['key=0.5'], run: (h) => h.mpi.split(0, 0.5) },
  'mpi.create': { cls: 'MPI_ERR_GROUP', value: ['got null'], run: (h) => h.mpi.create(null as never) },
  'mpi.cartCreate': { cls: 'MPI_ERR_DIMS', value: ['3x3', '9 ranks'], run: (h) => h.mpi.cartCreate([3, 3], [false, false]) },
  'mpi.intercommCreate': { cls: 'MPI_ERR_RANK', value: ['localLeader=9'], run: (h) => h.mpi.intercommCreate(9, h.mpi, 0, 1) },
  'mpi.compare': freedComm('compare', null),
  'mpi.free': freedComm('free'),
  'mpi.disconnect': { cls: 'MPI_ERR_COMM', value: ['MPI_COMM_WORLD cannot be disconnected'], run: (h) => h.mpi.disconnect() },
  'mpi.splitType': { cls: 'MPI_ERR_ARG', value: ['type=77'], run: (h) => h.mpi.splitType(77) },
  'mpi.idup': freedComm('idup'),
  'mpi.idupWithInfo': { cls: 'MPI_ERR_INFO', value: ['freed'], run: (h) => h.mpi.idupWithInfo(h.deadInfo) },
  'mpi.setName': { cls: 'MPI_ERR_ARG', value: ['name'], run: (h) => h.mpi.setName(5 as never) },
  'mpi.getName': freedComm('getName'),
  'mpi.createGroup': { cls: 'MPI_ERR_GROUP', value: ['got null'], run: (h) => h.mpi.createGroup(null as never) },
  'mpi.winCreate': { cls: 'MPI_ERR_DISP', value: ['dispUnit=0'], run: (h) => h.mpi.winCreate(h.b, 0) },
  'mpi.winAllocate': { cls: 'MPI_ERR_SIZE', value: ['bytes=-8'], run: (h) => h.mpi.winAllocate(-8) },
  'mpi.winAllocateShared': { cls: 'MPI_ERR_SIZE', value: ['bytes=-8'], run: (h) => h.mpi.winAllocateShared(-8) },
  'mpi.winCreateDynamic': { cls: 'MPI_ERR_INFO', value: ['freed'], run: (h) => h.mpi.winCreateDynamic(h.deadInfo) },
  'mpi.testInter': freedComm('testInter'),
  'mpi.setErrhandler': { cls: 'MPI_ERR_ARG', value: ['got null'], run: (h) => h.mpi.setErrhandler(null as never) },
  'mpi.getErrhandler': freedComm('getErrhandler'),
  // topologies
  'mpi.topoTest': freedComm('topoTest'),
  'mpi.cartMap': { cls: 'MPI_ERR_DIMS', value: ['dims'], run: (h) => h.mpi.cartMap([-1], [false]) },
  'mpi.graphCreate': { cls: 'MPI_ERR_ARG', value: ['index[1]=0'], run: (h) => h.mpi.graphCreate([1, 0], [1]) },
  'mpi.graphMap': { cls: 'MPI_ERR_ARG', value: ['index[1]=0'], run: (h) => h.mpi.graphMap([1, 0], [1]) },
  'mpi.graphdimsGet': noTopo('graphdimsGet'),
  'mpi.graphGet': noTopo('graphGet'),
  'mpi.graphNeighborsCount': noTopo('graphNeighborsCount', 0),
  'mpi.graphNeighbors': noTopo('graphNeighbors', 0),
  'mpi.distGraphCreateAdjacent': { cls: 'MPI_ERR_RANK', value: ['sources[0]=9'], run: (h) => h.mpi.distGraphCreateAdjacent([9], null, [], null) },
  'mpi.distGraphCreate': { cls: 'MPI_ERR_RANK', value: ['sources[0]=9'], run: (h) => h.mpi.distGraphCreate([9], [1], [0], null) },
  'mpi.distGraphNeighborsCount': noTopo('distGraphNeighborsCount'),
  'mpi.distGraphNeighbors': noTopo('distGraphNeighbors'),
  'cart.cartCoords': { cls: 'MPI_ERR_RANK', value: ['rank=9'], run: (h) => h.cart.cartCoords(9) },
  'cart.cartRank': { cls: 'MPI_ERR_ARG', value: ['coords'], run: (h) => h.cart.cartRank([0, 0]) },
  'cart.cartShift': { cls: 'MPI_ERR_DIMS', value: ['direction=3'], run: (h) => h.cart.cartShift(3, 1) },
  'cart.cartSub': { cls: 'MPI_ERR_ARG', value: ['remainDims'], run: (h) => h.cart.cartSub([true, true]) },
};
// a persistent call checks its arguments when started (under the nonblocking call's name); made, it checks its communicator
for (const n of ['neighborAllgatherInit', 'neighborAlltoallInit', 'neighborAllgathervInit', 'neighborAlltoallvInit']) BAD_CALLS[`mpi.${n}`] = freedComm(n, f64(1), f64(1));
for (const n of ['neighborAllgather', 'ineighborAllgather', 'neighborAlltoall', 'ineighborAlltoall']) BAD_CALLS[`mpi.${n}`] = noTopo(n, f64(1), f64(1));
for (const n of ['neighborAllgatherv', 'ineighborAllgatherv']) BAD_CALLS[`mpi.${n}`] = noTopo(n, f64(1), f64(1), [1], [0]);
for (const n of ['neighborAlltoallv', 'ineighborAlltoallv']) BAD_CALLS[`mpi.${n}`] = noTopo(n, f64(1), [1], [0], f64(1), [1], [0]);
for (const n of ['neighborAlltoallw', 'ineighborAlltoallw', 'neighborAlltoallwInit']) BAD_CALLS[`mpi.${n}`] = freedComm(n, f64(1), [1], [0], [], f64(1), [1], [0], []);
/** Two things that are not datatypes. */
const D = [{}, {}];

// collectives, with their nonblocking and persistent forms: a bad root, a bad op, or a freed communicator
for (const form of ['', 'i', 'Init']) {
  const name = (n: string): string => (form === 'i' ? `i${n}` : form === 'Init' ? `${n}Init` : n);
  const add = (n: string, c: ErrorCase): void => {
    BAD_CALLS[`mpi.${name(n)}`] = form === 'Init' ? freedComm(name(n)) : c;
  };
  add('barrier', freedComm(name('barrier')));
  add('bcast', badRoot(name('bcast'), (h) => [h.b, 9]));
  add('reduce', badRoot(name('reduce'), (h) => [h.b, f64(4), h.mpi.SUM, 9]));
  add('allreduce', badOp(name('allreduce'), (h) => [h.b, f64(4), NOT_AN_OP]));
  add('allgather', freedComm(name('allgather'), f64(1), f64(2)));
  add('allgatherv', freedComm(name('allgatherv'), f64(1), f64(2), [1, 1], [0, 1]));
  add('alltoall', freedComm(name('alltoall'), f64(2), f64(2)));
  add('alltoallv', freedComm(name('alltoallv'), f64(2), [1, 1], [0, 1], f64(2), [1, 1], [0, 1]));
  add('alltoallw', { cls: 'MPI_ERR_TYPE', value: ['sendTypes[0] must be an MPI datatype', 'got Object'], run: (h) => call(h.mpi, name('alltoallw'), f64(2), [1, 1], [0, 8], D, f64(2), [1, 1], [0, 8], D) });
  add('reduceScatter', badOp(name('reduceScatter'), (h) => [h.b, f64(2), [2, 2], NOT_AN_OP]));
  add('reduceScatterBlock', badOp(name('reduceScatterBlock'), (h) => [h.b, f64(2), NOT_AN_OP]));
  add('gather', badRoot(name('gather'), (h) => [h.b, f64(8), 9]));
  add('gatherv', badRoot(name('gatherv'), (h) => [h.b, f64(8), [4, 4], [0, 4], 9]));
  add('scatter', badRoot(name('scatter'), (h) => [f64(8), h.b, 9]));
  add('scatterv', badRoot(name('scatterv'), (h) => [f64(8), [4, 4], [0, 4], h.b, 9]));
  add('scan', badOp(name('scan'), (h) => [h.b, f64(4), NOT_AN_OP]));
  add('exscan', badOp(name('exscan'), (h) => [h.b, f64(4), NOT_AN_OP]));
}

// point-to-point and requests
for (const n of ['send', 'isend', 'ssend', 'issend', 'rsend', 'irsend', 'bsend', 'ibsend', 'sendInit', 'ssendInit', 'rsendInit', 'bsendInit']) BAD_CALLS[`mpi.${n}`] = badDest(n);
for (const n of ['recv', 'irecv', 'recvInit']) BAD_CALLS[`mpi.${n}`] = badTag(n);
Object.assign(BAD_CALLS, {
  'mpi.sendrecv': { cls: 'MPI_ERR_TAG', value: ['recvTag=-5', 'or mpi.ANY_TAG'], run: (h: Bad) => h.mpi.sendrecv(h.b, 0, 0, f64(4), 0, -5) },
  'mpi.sendrecvReplace': { cls: 'MPI_ERR_RANK', value: ['dest=9'], run: (h: Bad) => h.mpi.sendrecvReplace(h.b, 9, 0, 0, 0) },
  'mpi.isendrecv': { cls: 'MPI_ERR_RANK', value: ['source=9'], run: (h: Bad) => h.mpi.isendrecv(h.b, 0, 0, f64(4), 9, 0) },
  'mpi.isendrecvReplace': { cls: 'MPI_ERR_TAG', value: ['sendTag=-5'], run: (h: Bad) => h.mpi.isendrecvReplace(h.b, 0, -5, 0, 0) },
  'mpi.iprobe': { cls: 'MPI_ERR_RANK', value: ['source=9'], run: (h: Bad) => h.mpi.iprobe(9, 0) },
  'mpi.probe': { cls: 'MPI_ERR_TAG', value: ['tag=-5'], run: (h: Bad) => h.mpi.probe(0, -5) },
  'mpi.improbe': { cls: 'MPI_ERR_RANK', value: ['source=9'], run: (h: Bad) => h.mpi.improbe(9, 0) },
  'mpi.mprobe': { cls: 'MPI_ERR_TAG', value: ['tag=-5'], run: (h: Bad) => h.mpi.mprobe(0, -5) },
  'mpi.mrecv': { cls: 'MPI_ERR_REQUEST', value: ['message'], run: (h: Bad) => h.mpi.mrecv(h.b, null as never) },
  'mpi.imrecv': { cls: 'MPI_ERR_REQUEST', value: ['message'], run: (h: Bad) => h.mpi.imrecv(h.b, null as never) },
  'mpi.bufferAttach': { cls: 'MPI_ERR_BUFFER', value: ['bytes=-1'], run: (h: Bad) => h.mpi.bufferAttach(-1) },
  'mpi.wait': freedRequest('wait', false),
  'mpi.test': freedRequest('test', false),
  'mpi.waitAll': freedRequest('waitAll', true),
  'mpi.waitAny': freedRequest('waitAny', true),
  'mpi.waitSome': freedRequest('waitSome', true),
  'mpi.testAll': freedRequest('testAll', true),
  'mpi.testAny': freedRequest('testAny', true),
  'mpi.testSome': freedRequest('testSome', true),
  'mpi.requestGetStatus': freedRequest('requestGetStatus', false),
  'mpi.requestGetStatusAny': freedRequest('requestGetStatusAny', true),
  'mpi.requestGetStatusAll': freedRequest('requestGetStatusAll', true),
  'mpi.requestGetStatusSome': freedRequest('requestGetStatusSome', true),
  'mpi.requestFree': freedRequest('requestFree', false),
  'mpi.cancel': freedRequest('cancel', false),
  'mpi.start': freedRequest('start', false),
  'mpi.startAll': freedRequest('startAll', true),
  'request.wait': { cls: 'MPI_ERR_REQUEST', value: ['freed'], run: (h: Bad) => h.freedReq.wait() },
  'request.test': { cls: 'MPI_ERR_REQUEST', value: ['freed'], run: (h: Bad) => h.freedReq.test() },
  'request.cancel': { cls: 'MPI_ERR_REQUEST', value: ['freed'], run: (h: Bad) => h.freedReq.cancel() },
  'persistent.start': { cls: 'MPI_ERR_REQUEST', value: ['freed'], run: (h: Bad) => (h.freedReq as unknown as { start(): void }).start() },
  'persistent.cancel': { cls: 'MPI_ERR_REQUEST', value: ['freed'], run: (h: Bad) => h.freedReq.cancel() },
  'mpi.algorithmFor': { cls: 'MPI_ERR_ARG', value: ['coll=nosuch', 'allreduce'], run: (h: Bad) => h.mpi.algorithmFor('nosuch' as never, 8) },
  'mpi.collective': { cls: 'MPI_ERR_ARG', value: ['collective: alg must be a running collective algorithm', 'got Object'], run: (h: Bad) => h.mpi.collective({} as never, 'mine') },
  'mpi.worldRank': { cls: 'MPI_ERR_RANK', value: ['worldRank: r=9'], run: (h: Bad) => h.mpi.worldRank(9) },
  'inter.worldRank': { cls: 'MPI_ERR_RANK', value: ['worldRank: r=9', 'remote group'], run: (h: Bad) => h.ic.worldRank(9) },
});

// the intercommunicator's own calls, on a freed one
for (const n of ['dup', 'free', 'disconnect', 'barrier', 'ibarrier', 'testInter']) BAD_CALLS[`inter.${n}`] = freedInter(n);
BAD_CALLS['inter.intercommMerge'] = freedInter('intercommMerge', false);
for (const n of ['idup', 'getName']) BAD_CALLS[`inter.${n}`] = freedInter(n);
BAD_CALLS['inter.compare'] = freedInter('compare', null);
BAD_CALLS['inter.split'] = { cls: 'MPI_ERR_ARG', value: ['split: color=-3'], run: (h) => h.ic.split(-3, 0) };
BAD_CALLS['inter.create'] = { cls: 'MPI_ERR_GROUP', value: ['expected a Group', 'got null'], run: (h) => h.ic.create(null as never) };
BAD_CALLS['inter.setName'] = { cls: 'MPI_ERR_ARG', value: ['name must be a string', 'got number'], run: (h) => h.ic.setName(5 as never) };
for (const n of ['alltoallw', 'ialltoallw']) BAD_CALLS[`inter.${n}`] = { cls: 'MPI_ERR_COMM', value: ['was freed'], run: (h) => call(h.deadIc, n, new Int32Array(1), [1], [0], [h.mpi.INT], new Int32Array(1), [1], [0], [h.mpi.INT]) };
for (const n of ['bcast', 'ibcast']) BAD_CALLS[`inter.${n}`] = freedInter(n, f64(1), 0);
for (const n of ['reduce', 'ireduce']) BAD_CALLS[`inter.${n}`] = freedInter(n, f64(1), f64(1), SUM, 0);
for (const n of ['allreduce', 'iallreduce', 'reduceScatterBlock', 'ireduceScatterBlock']) BAD_CALLS[`inter.${n}`] = freedInter(n, f64(1), f64(1), SUM);
for (const n of ['allgather', 'iallgather', 'alltoall', 'ialltoall']) BAD_CALLS[`inter.${n}`] = freedInter(n, f64(1), f64(1));
for (const n of ['allgatherv', 'iallgatherv']) BAD_CALLS[`inter.${n}`] = freedInter(n, f64(1), f64(1), [1], [0]);
for (const n of ['alltoallv', 'ialltoallv']) BAD_CALLS[`inter.${n}`] = freedInter(n, f64(1), [1], [0], f64(1), [1], [0]);
for (const n of ['gather', 'igather', 'scatter', 'iscatter']) BAD_CALLS[`inter.${n}`] = freedInter(n, f64(1), f64(1), 0);
for (const n of ['gatherv', 'igatherv']) BAD_CALLS[`inter.${n}`] = freedInter(n, f64(1), f64(1), [1], [0], 0);
for (const n of ['scatterv', 'iscatterv']) BAD_CALLS[`inter.${n}`] = freedInter(n, f64(1), [1], [0], f64(1), 0);
for (const n of ['reduceScatter', 'ireduceScatter']) BAD_CALLS[`inter.${n}`] = freedInter(n, f64(1), f64(1), [1], SUM);

// groups
Object.assign(BAD_CALLS, {
  'group.translateRanks': { cls: 'MPI_ERR_RANK', value: ['ranks[0]=9'], run: (h: Bad) => h.group.translateRanks([9], h.group) },
  'group.incl': { cls: 'MPI_ERR_RANK', value: ['ranks[0]=9'], run: (h: Bad) => h.group.incl([9]) },
  'group.excl': { cls: 'MPI_ERR_RANK', value: ['ranks[0]=9'], run: (h: Bad) => h.group.excl([9]) },
  'group.rangeIncl': { cls: 'MPI_ERR_ARG', value: ['stride 0'], run: (h: Bad) => h.group.rangeIncl([[0, 1, 0]]) },
  'group.rangeExcl': { cls: 'MPI_ERR_ARG', value: ['stride 0'], run: (h: Bad) => h.group.rangeExcl([[0, 1, 0]]) },
  'group.union': { cls: 'MPI_ERR_GROUP', value: ['other must be a Group', 'got null'], run: (h: Bad) => h.group.union(null as never) },
  'group.intersection': { cls: 'MPI_ERR_GROUP', value: ['other must be a Group', 'got null'], run: (h: Bad) => h.group.intersection(null as never) },
  'group.difference': { cls: 'MPI_ERR_GROUP', value: ['other must be a Group', 'got null'], run: (h: Bad) => h.group.difference(null as never) },
  'group.compare': { cls: 'MPI_ERR_GROUP', value: ['other must be a Group', 'got null'], run: (h: Bad) => h.group.compare(null as never) },
});

// info objects
Object.assign(BAD_CALLS, {
  'info.set': { cls: 'MPI_ERR_INFO_KEY', call: 'infoSet', value: ['key of 0 characters'], run: (h: Bad) => h.info.set('', 'v') },
  'info.get': { cls: 'MPI_ERR_INFO', call: 'infoGet', value: ['freed'], run: (h: Bad) => h.deadInfo.get('a') },
  'info.delete': { cls: 'MPI_ERR_INFO_NOKEY', call: 'infoDelete', value: ["'nokey' is not set"], run: (h: Bad) => h.info.delete('nokey') },
  'info.nthkey': { cls: 'MPI_ERR_ARG', call: 'infoGetNthkey', value: ['n=5'], run: (h: Bad) => h.info.nthkey(5) },
  'info.dup': { cls: 'MPI_ERR_INFO', call: 'infoDup', value: ['freed'], run: (h: Bad) => h.deadInfo.dup() },
  'info.free': { cls: 'MPI_ERR_INFO', call: 'infoFree', value: ['freed'], run: (h: Bad) => h.deadInfo.free() },
});

// windows: an RMA call outside an epoch, a target outside the window, a freed window
Object.assign(BAD_CALLS, {
  'win.setAttr': { cls: 'MPI_ERR_KEYVAL', value: ['MPI_WIN_BASE is predefined and cannot be set'], run: (h: Bad) => h.win.setAttr(h.mpi.WIN_BASE, 0) },
  'win.getAttr': { cls: 'MPI_ERR_KEYVAL', value: ['got null'], run: (h: Bad) => h.win.getAttr(null as never) },
  'win.deleteAttr': freedWin('deleteAttr'),
  'win.setName': { cls: 'MPI_ERR_ARG', value: ['name must be a string', 'got number'], run: (h: Bad) => h.win.setName(5 as never) },
  'win.getName': freedWin('getName'),
  'win.callErrhandler': { cls: 'MPI_ERR_ARG', value: ['code=12345'], run: (h: Bad) => h.win.callErrhandler(12345) },
  'win.setErrhandler': { cls: 'MPI_ERR_ARG', value: ['got null'], run: (h: Bad) => h.win.setErrhandler(null as never) },
  'win.getErrhandler': freedWin('getErrhandler'),
  'win.getGroup': freedWin('getGroup'),
  'win.sharedQuery': { cls: 'MPI_ERR_RANK', value: ['rank=99'], run: (h: Bad) => h.win.sharedQuery(99) },
  'win.attach': { cls: 'MPI_ERR_RMA_FLAVOR', value: ['winCreateDynamic'], run: (h: Bad) => h.win.attach(h.b) },
  'win.detach': { cls: 'MPI_ERR_RMA_FLAVOR', value: ['winCreateDynamic'], run: (h: Bad) => h.win.detach(h.b) },
  'win.free': freedWin('free'),
  'win.fence': freedWin('fence'),
  'win.post': freedWin('post', null),
  'win.start': freedWin('start', null),
  'win.complete': noEpoch('complete', () => []),
  'win.wait': noEpoch('wait', () => []),
  'win.test': noEpoch('test', () => []),
  'win.lock': { cls: 'MPI_ERR_RANK', value: ['rank=9'], run: (h: Bad) => h.win.lock(h.mpi.LOCK_SHARED, 9) },
  'win.unlock': { cls: 'MPI_ERR_RMA_SYNC', value: ['holds no lock on rank 1'], run: (h: Bad) => h.win.unlock(1) },
  'win.lockAll': freedWin('lockAll'),
  'win.unlockAll': noEpoch('unlockAll', () => []),
  'win.flush': noEpoch('flush', () => [1]),
  'win.flushAll': freedWin('flushAll'),
  'win.flushLocal': noEpoch('flushLocal', () => [1]),
  'win.flushLocalAll': freedWin('flushLocalAll'),
  'win.sync': freedWin('sync'),
  'win.put': noEpoch('put', (h) => [h.b.subarray(0, 1), 1, 0]),
  'win.get': noEpoch('get', (h) => [h.b.subarray(0, 1), 1, 0]),
  'win.rput': noEpoch('rput', (h) => [h.b.subarray(0, 1), 1, 0]),
  'win.rget': noEpoch('rget', (h) => [h.b.subarray(0, 1), 1, 0]),
  'win.accumulate': noEpoch('accumulate', (h) => [h.b.subarray(0, 1), 1, 0, h.mpi.SUM]),
  'win.raccumulate': noEpoch('raccumulate', (h) => [h.b.subarray(0, 1), 1, 0, h.mpi.SUM]),
  'win.getAccumulate': noEpoch('getAccumulate', (h) => [h.b.subarray(0, 1), f64(1), 1, 0, h.mpi.SUM]),
  'win.rgetAccumulate': noEpoch('rgetAccumulate', (h) => [h.b.subarray(0, 1), f64(1), 1, 0, h.mpi.SUM]),
  'win.fetchAndOp': noEpoch('fetchAndOp', (h) => [h.b.subarray(0, 1), f64(1), 1, 0, h.mpi.SUM]),
  'win.compareAndSwap': noEpoch('compareAndSwap', () => [new Int32Array(1), new Int32Array(1), new Int32Array(1), 1, 0]),
});
