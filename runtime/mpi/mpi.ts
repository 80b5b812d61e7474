import type { Proc } from '../proc.ts';
import { ERROR_CODES } from './error-classes.ts';
import { checkInfo, Info, INFO_NULL } from './info.ts';
import { Errhandler, errhandlerFree, ERRORS_ARE_FATAL, ERRORS_RETURN, errorClass, errorString, guardMethods } from './errhandler.ts';
import { createKeyval, DUP_FN, freeKeyval, NULL_COPY_FN, NULL_DELETE_FN, type CopyAttrFn, type DeleteAttrFn, type Keyval } from './attributes.ts';
import type { Win } from './rma/window.ts';
import { WIN_BASE, WIN_CREATE_FLAVOR, WIN_DISP_UNIT, WIN_FLAVORS, WIN_MODEL, WIN_SEPARATE, WIN_SIZE, WIN_UNIFIED } from './rma/win-attributes.ts';
import { Comm, CommBase, COMM_TYPE_HW_GUIDED, COMM_TYPE_HW_UNGUIDED, COMM_TYPE_RESOURCE_GUIDED, COMM_TYPE_SHARED, dimsCreate, IN_PLACE, RankState, TAG_UB, UNDEFINED, type Group, type InterComm } from './comm.ts';
import { commCreateFromGroup, intercommCreateFromGroups } from './from-groups.ts';
import { ANY_SOURCE, ANY_TAG, PROC_NULL, ROOT, type MpiWorld } from './core.ts';
import { MESSAGE_NO_PROC, type Message } from './mprobe.ts';
import * as dt from './datatype.ts';
import * as make from './datatype-make.ts';
import { basicElements, checkType, type Datatype } from './datatype.ts';
import { pack, packSize, unpack } from './datatype-pack.ts';
import { packExternal, packExternalSize, unpackExternal } from './datatype-external.ts';
import { checkGrequest, checkGrequestFns, GeneralizedRequest, statusSetCancelled, statusSetElements, type GrequestCancelFn, type GrequestFreeFn, type GrequestQueryFn, type MutableStatus } from './grequest.ts';
import * as rma from './rma/constants.ts';
import { BAND, BOR, BXOR, LAND, LOR, LXOR, MAX, MAXLOC, MIN, MINLOC, opCreate, PROD, SUM, type Op, type OpOptions, type ReduceArray, type UserFunction } from './ops.ts';
import { getCount, MpiError, type Request, type Status } from './request.ts';
import { describe } from './constants.ts';
import { reduceLocal } from './reduce-local.ts';
import { DISTRIBUTE_BLOCK, DISTRIBUTE_CYCLIC, DISTRIBUTE_DFLT_DARG, DISTRIBUTE_NONE, typeCreateDarray } from './datatype-darray.ts';
import { COMBINER, contents, envelope, first, made, type Contents, type Envelope } from './datatype-envelope.ts';
import { getTypeName, matchSize, setTypeName, TYPECLASS_COMPLEX, TYPECLASS_INTEGER, TYPECLASS_REAL } from './datatype-names.ts';

export { MpiError, type Request, type Status } from './request.ts';
export { Errhandler, ERRORS_ARE_FATAL, ERRORS_RETURN } from './errhandler.ts';
export { Info, INFO_NULL } from './info.ts';
export type { Message } from './mprobe.ts';
export type { GrequestCancelFn, GrequestFreeFn, GrequestQueryFn, MutableStatus } from './grequest.ts';
export type { Completion } from './comm-base.ts';
export { Datatype } from './datatype.ts';
export type { NumericArray, Op, ReduceArray } from './ops.ts';
export { CartComm, Comm, COMM_TYPE_SHARED, Group, InterComm, IN_PLACE, TAG_UB, UNDEFINED, BSEND_OVERHEAD, type CollOptions } from './comm.ts';
export { ALGORITHMS, chooseAlgorithm } from './coll/index.ts';
export { Win, type SharedSegment, type WinFlavor } from './rma/window.ts';
export { Keyval, type AttrCopy, type CopyAttrFn, type DeleteAttrFn } from './attributes.ts';
export type { AllocatedWin } from './rma/create.ts';

/**
 * The MPI face a rank program sees as `ctx.mpi`: MPI_COMM_WORLD (every Comm call works on it
 * directly) plus MPI's constants and process-level calls. Names follow MPI in camelCase; every
 * call checks its arguments and names the bad one; blocking calls suspend the rank in simulated
 * time.
 */
export class Mpi extends Comm {
  readonly ANY_SOURCE = ANY_SOURCE;
  readonly ANY_TAG = ANY_TAG;
  readonly PROC_NULL = PROC_NULL;
  /** The root's own root argument in a collective on an intercommunicator (MPI_ROOT); the other ranks of its group pass PROC_NULL. */
  readonly ROOT = ROOT;
  readonly UNDEFINED = UNDEFINED;
  readonly TAG_UB = TAG_UB;
  readonly SUM: Op = SUM;
  readonly MIN: Op = MIN;
  readonly MAX: Op = MAX;
  readonly PROD: Op = PROD;
  readonly LAND: Op = LAND;
  readonly LOR: Op = LOR;
  readonly LXOR: Op = LXOR;
  readonly BAND: Op = BAND;
  readonly BOR: Op = BOR;
  readonly BXOR: Op = BXOR;
  /** On interleaved (value, index) pairs; ties take the lower index. */
  readonly MINLOC: Op = MINLOC;
  readonly MAXLOC: Op = MAXLOC;
  /** Stands for a collective's send buffer when the data is already in the receive buffer. */
  readonly IN_PLACE: typeof IN_PLACE = IN_PLACE;
  /** The message a matched probe of PROC_NULL returns; `mrecv` of it receives nothing (MPI_MESSAGE_NO_PROC). */
  readonly MESSAGE_NO_PROC: Message = MESSAGE_NO_PROC;

  /** The default error handler: a failing call fails the run, even if the program catches its error. */
  readonly ERRORS_ARE_FATAL = ERRORS_ARE_FATAL;
  /** A failing call raises an MpiError (with `errorClass` and `code`) that the program may catch and go on. */
  readonly ERRORS_RETURN = ERRORS_RETURN;
  /** MPI's error classes by name without the MPI_ prefix (mpi.ERR_RANK, mpi.ERR_TRUNCATE, ...), MPICH's numbers. */
  readonly errorCodes: Readonly<Record<string, number>> = ERROR_CODES;

  /** No hints (MPI_INFO_NULL), where a call takes an info object. */
  readonly INFO_NULL = INFO_NULL;

  /** Split type of `splitType`: the ranks of one node (MPI_COMM_TYPE_SHARED). */
  readonly COMM_TYPE_SHARED = COMM_TYPE_SHARED;
  /** Split types of `splitType` by hardware (MPI 4.0, 4.1): the resource `info`'s mpi_hw_resource_type names, or the widest level that splits. */
  readonly COMM_TYPE_HW_GUIDED = COMM_TYPE_HW_GUIDED;
  readonly COMM_TYPE_HW_UNGUIDED = COMM_TYPE_HW_UNGUIDED;
  readonly COMM_TYPE_RESOURCE_GUIDED = COMM_TYPE_RESOURCE_GUIDED;
  private selfComm: Comm | null = null;
  /** The keyvals this rank made so far (their numbers). */
  private keyvals = 0;

  /** Predefined window attributes (MPI-4.0 §12.2.6): `win.getAttr(mpi.WIN_BASE).value` is the window's memory, as `win.buf`. */
  readonly WIN_BASE: Keyval<Win> = WIN_BASE;
  /** The window's size in bytes. */
  readonly WIN_SIZE: Keyval<Win> = WIN_SIZE;
  /** The window's displacement unit in bytes. */
  readonly WIN_DISP_UNIT: Keyval<Win> = WIN_DISP_UNIT;
  /** How the window was made: WIN_FLAVOR_CREATE, _ALLOCATE, _DYNAMIC or _SHARED. */
  readonly WIN_CREATE_FLAVOR: Keyval<Win> = WIN_CREATE_FLAVOR;
  /** The window's memory model: WIN_UNIFIED (phit keeps one copy of a window's memory). */
  readonly WIN_MODEL: Keyval<Win> = WIN_MODEL;
  readonly WIN_FLAVOR_CREATE = WIN_FLAVORS.create;
  readonly WIN_FLAVOR_ALLOCATE = WIN_FLAVORS.allocate;
  readonly WIN_FLAVOR_DYNAMIC = WIN_FLAVORS.dynamic;
  readonly WIN_FLAVOR_SHARED = WIN_FLAVORS.shared;
  readonly WIN_SEPARATE = WIN_SEPARATE;
  readonly WIN_UNIFIED = WIN_UNIFIED;
  /** Callbacks of winCreateKeyval: no copy, copy the value, nothing to delete. */
  readonly WIN_NULL_COPY_FN: CopyAttrFn<Win> = NULL_COPY_FN;
  readonly WIN_DUP_FN: CopyAttrFn<Win> = DUP_FN;
  readonly WIN_NULL_DELETE_FN: DeleteAttrFn<Win> = NULL_DELETE_FN;

  // predefined datatypes, sized as C's types on x86-64 Linux (long: 8 bytes)
  readonly BYTE: Datatype = dt.BYTE;
  readonly CHAR: Datatype = dt.CHAR;
  readonly SIGNED_CHAR: Datatype = dt.SIGNED_CHAR;
  readonly UNSIGNED_CHAR: Datatype = dt.UNSIGNED_CHAR;
  readonly SHORT: Datatype = dt.SHORT;
  readonly UNSIGNED_SHORT: Datatype = dt.UNSIGNED_SHORT;
  readonly INT: Datatype = dt.INT;
  readonly UNSIGNED: Datatype = dt.UNSIGNED;
  readonly LONG: Datatype = dt.LONG;
  readonly UNSIGNED_LONG: Datatype = dt.UNSIGNED_LONG;
  readonly LONG_LONG: Datatype = dt.LONG_LONG;
  readonly UNSIGNED_LONG_LONG: Datatype = dt.UNSIGNED_LONG_LONG;
  readonly FLOAT: Datatype = dt.FLOAT;
  readonly DOUBLE: Datatype = dt.DOUBLE;
  readonly INT8_T: Datatype = dt.INT8_T;
  readonly INT16_T: Datatype = dt.INT16_T;
  readonly INT32_T: Datatype = dt.INT32_T;
  readonly INT64_T: Datatype = dt.INT64_T;
  readonly UINT8_T: Datatype = dt.UINT8_T;
  readonly UINT16_T: Datatype = dt.UINT16_T;
  readonly UINT32_T: Datatype = dt.UINT32_T;
  readonly UINT64_T: Datatype = dt.UINT64_T;
  readonly C_BOOL: Datatype = dt.C_BOOL;
  readonly PACKED: Datatype = dt.PACKED;
  /** C's wchar_t (4 bytes). */
  readonly WCHAR: Datatype = dt.WCHAR;
  /** MPI_LONG_LONG_INT: MPI's synonym of MPI_LONG_LONG (the same type). */
  readonly LONG_LONG_INT: Datatype = dt.LONG_LONG;
  /** MPI_Aint, MPI_Offset and MPI_Count values: 8-byte integers, reduced as BigInt64Array. */
  readonly AINT: Datatype = dt.AINT;
  readonly OFFSET: Datatype = dt.OFFSET;
  readonly COUNT: Datatype = dt.COUNT;
  /** x86-64's long double in its 16-byte slot, held as a Float64Array of (value, padding) pairs (a double's precision). */
  readonly LONG_DOUBLE: Datatype = dt.LONG_DOUBLE;
  /** C's complex types, real part first: float (MPI_C_COMPLEX is the same type), double, and long double as (value, padding) pairs. */
  readonly C_COMPLEX: Datatype = dt.C_FLOAT_COMPLEX;
  readonly C_FLOAT_COMPLEX: Datatype = dt.C_FLOAT_COMPLEX;
  readonly C_DOUBLE_COMPLEX: Datatype = dt.C_DOUBLE_COMPLEX;
  readonly C_LONG_DOUBLE_COMPLEX: Datatype = dt.C_LONG_DOUBLE_COMPLEX;
  /** MINLOC/MAXLOC pair types: struct { value; int } as in C. */
  readonly FLOAT_INT: Datatype = dt.FLOAT_INT;
  readonly DOUBLE_INT: Datatype = dt.DOUBLE_INT;
  readonly LONG_INT: Datatype = dt.LONG_INT;
  readonly SHORT_INT: Datatype = dt.SHORT_INT;
  /** MPI_2INT. */
  readonly TWO_INT: Datatype = dt.TWO_INT;
  /** Combiners of `typeGetEnvelope` (MPICH's values). */
  readonly COMBINER_NAMED = COMBINER.NAMED;
  readonly COMBINER_DUP = COMBINER.DUP;
  readonly COMBINER_CONTIGUOUS = COMBINER.CONTIGUOUS;
  readonly COMBINER_VECTOR = COMBINER.VECTOR;
  readonly COMBINER_HVECTOR = COMBINER.HVECTOR;
  readonly COMBINER_INDEXED = COMBINER.INDEXED;
  readonly COMBINER_HINDEXED = COMBINER.HINDEXED;
  readonly COMBINER_INDEXED_BLOCK = COMBINER.INDEXED_BLOCK;
  readonly COMBINER_HINDEXED_BLOCK = COMBINER.HINDEXED_BLOCK;
  readonly COMBINER_STRUCT = COMBINER.STRUCT;
  readonly COMBINER_SUBARRAY = COMBINER.SUBARRAY;
  readonly COMBINER_DARRAY = COMBINER.DARRAY;
  readonly COMBINER_RESIZED = COMBINER.RESIZED;
  /** Distributions of `typeCreateDarray`, and its default distribution argument. */
  readonly DISTRIBUTE_BLOCK = DISTRIBUTE_BLOCK;
  readonly DISTRIBUTE_CYCLIC = DISTRIBUTE_CYCLIC;
  readonly DISTRIBUTE_NONE = DISTRIBUTE_NONE;
  readonly DISTRIBUTE_DFLT_DARG = DISTRIBUTE_DFLT_DARG;
  /** Type classes of `typeMatchSize` (MPICH's values). */
  readonly TYPECLASS_REAL = TYPECLASS_REAL;
  readonly TYPECLASS_INTEGER = TYPECLASS_INTEGER;
  readonly TYPECLASS_COMPLEX = TYPECLASS_COMPLEX;
  /** typeCreateSubarray's array orders. */
  readonly ORDER_C = dt.ORDER_C;
  readonly ORDER_FORTRAN = dt.ORDER_FORTRAN;
  /** One-sided accumulates: the target element becomes the origin's; NO_OP leaves it (fetching calls only). */
  readonly REPLACE: Op = rma.REPLACE;
  readonly NO_OP: Op = rma.NO_OP;
  /** Lock types of `win.lock`. */
  readonly LOCK_EXCLUSIVE = rma.LOCK_EXCLUSIVE;
  readonly LOCK_SHARED = rma.LOCK_SHARED;
  /** Asserts of the window synchronisation calls (OR them). */
  readonly MODE_NOCHECK = rma.MODE_NOCHECK;
  readonly MODE_NOSTORE = rma.MODE_NOSTORE;
  readonly MODE_NOPUT = rma.MODE_NOPUT;
  readonly MODE_NOPRECEDE = rma.MODE_NOPRECEDE;
  readonly MODE_NOSUCCEED = rma.MODE_NOSUCCEED;

  constructor(world: MpiWorld, proc: Proc) {
    super(world, proc, new RankState(), { members: world.registry.worldMembers, inv: null, ctx: 0, rank: proc.rank });
  }

  /** MPI_COMM_WORLD itself. */
  get COMM_WORLD(): Comm {
    return this;
  }

  /** The null communicator handle (MPI_COMM_NULL): what calls return to ranks outside the communicator they make. */
  readonly COMM_NULL = null;

  /** MPI_COMM_SELF: this rank alone. */
  get COMM_SELF(): Comm {
    return (this.selfComm ??= Comm.self(this.world, this.proc, this.state));
  }

  /**
   * The inactive request that stands for no operation (MPI_REQUEST_NULL): waits and tests on it
   * return the empty status at once; waitAny and the others put it in place of a request whose
   * completion they return.
   */
  get REQUEST_NULL(): Request {
    return this.requestNull;
  }

  /** Simulated time of this rank in seconds (MPI_Wtime). */
  wtime(): number {
    return this.proc.time() / 1e12;
  }

  /**
   * A user-defined reduction (MPI_Op_create): `fn(inout, input, len, datatype)` sets inout = inout
   * op input for `len` elements of `datatype`, `inout` holding the lower ranks' operand; both are
   * laid out as `datatype` describes (a non-contiguous type's values by its extent, as in C);
   * `commute` false keeps rank order.
   */
  opCreate(fn: UserFunction, commute: boolean, options?: OpOptions): Op {
    return opCreate(fn, commute, options);
  }

  /**
   * `bytes` of memory from the library (MPI_Alloc_mem), for windows and messages alike; view it
   * with any typed array. `info`'s hints are accepted and ignored. Give it back with `freeMem`.
   */
  allocMem(bytes: number, info?: Info | null): Uint8Array {
    checkInfo('allocMem', info);
    if (!Number.isInteger(bytes) || bytes < 0) throw new MpiError('MPI_ERR_SIZE', `allocMem: bytes=${bytes} must be a non-negative integer`);
    const mem = new Uint8Array(bytes);
    this.allocated.add(mem.buffer);
    return mem;
  }

  /** Gives back memory of `allocMem` (MPI_Free_mem): MPI_ERR_BASE for memory it did not give or gave back already. */
  freeMem(mem: ArrayBufferView): void {
    if (!ArrayBuffer.isView(mem) || !this.allocated.delete(mem.buffer)) throw new MpiError('MPI_ERR_BASE', `freeMem: ${describe(mem)} is not memory of allocMem that is still allocated`);
  }
  private readonly allocated = new WeakSet<ArrayBufferLike>();

  /**
   * The address `disp` bytes past `base` (MPI_Aint_add), for the addresses of a dynamic window
   * (`win.attach`'s result): the sum, as a C program's address arithmetic gives it.
   */
  aintAdd(base: number, disp: number): number {
    checkAint('aintAdd', 'base', base);
    checkAint('aintAdd', 'disp', disp);
    return base + disp;
  }

  /** The distance in bytes from address `addr2` to `addr1` (MPI_Aint_diff): `addr1 - addr2`. */
  aintDiff(addr1: number, addr2: number): number {
    checkAint('aintDiff', 'addr1', addr1);
    checkAint('aintDiff', 'addr2', addr2);
    return addr1 - addr2;
  }

  /**
   * A generalized request (MPI_Grequest_start) for an operation the program carries out itself:
   * active until `grequestComplete(request)`; taking its completion (wait, test, ...) calls
   * `queryFn(extraState, status)` to fill the status, then `freeFn(extraState)`; `request.cancel()`
   * calls `cancelFn(extraState, complete)`. Each returns an MPI error code, 0 for success.
   */
  grequestStart<T>(queryFn: GrequestQueryFn<T>, freeFn: GrequestFreeFn<T>, cancelFn: GrequestCancelFn<T>, extraState: T): Request {
    checkGrequestFns('grequestStart', { queryFn, freeFn, cancelFn });
    return new GeneralizedRequest(this.proc, this.world.params.testOverheadPs, this.world.progressOf(this.proc.rank), queryFn, freeFn, cancelFn, extraState);
  }

  /** Tells MPI that the operation of a generalized request is complete (MPI_Grequest_complete). */
  grequestComplete(request: Request): void {
    checkGrequest('grequestComplete', request).signal('grequestComplete');
  }

  /** Sets `status` to cover `count` elements of `datatype` (MPI_Status_set_elements), in a query function. */
  statusSetElements(status: MutableStatus, datatype: Datatype, count: number): void {
    statusSetElements(status, datatype, count);
  }

  /** Marks `status` cancelled or not (MPI_Status_set_cancelled), in a query function. */
  statusSetCancelled(status: MutableStatus, flag: boolean): void {
    statusSetCancelled(status, flag);
  }

  /** A new, empty info object (MPI_Info_create), to pass hints to a call that takes them. */
  infoCreate(): Info {
    return new Info();
  }

  /** The text of an error code (MPI_Error_string), e.g. `MPI_ERR_RANK: invalid rank`. */
  errorString(code: number): string {
    return errorString(code);
  }

  /** The class of an error code (MPI_Error_class). */
  errorClass(code: number): number {
    return errorClass(code);
  }

  /**
   * An error handler calling `fn(comm, code)` when a call on a communicator it is set on fails
   * (MPI_Comm_create_errhandler); the call then raises its MpiError, as with ERRORS_RETURN.
   */
  commCreateErrhandler(fn: (comm: Comm, code: number) => void): Errhandler {
    if (typeof fn !== 'function') throw new MpiError('MPI_ERR_ARG', `commCreateErrhandler: expected a function (comm, code) => void, got ${typeof fn}`);
    return new Errhandler('user', false, fn as (comm: unknown, code: number) => void, 'comm');
  }

  /**
   * An error handler calling `fn(win, code)` when a call on a window it is set on fails
   * (MPI_Win_create_errhandler); the call then raises its MpiError, as with ERRORS_RETURN.
   */
  winCreateErrhandler(fn: (win: Win, code: number) => void): Errhandler {
    if (typeof fn !== 'function') throw new MpiError('MPI_ERR_ARG', `winCreateErrhandler: expected a function (win, code) => void, got ${describe(fn)}`);
    return new Errhandler('user', false, fn as (win: unknown, code: number) => void, 'win');
  }

  /** Frees a handler of commCreateErrhandler or winCreateErrhandler (MPI_Errhandler_free): objects that have it keep it, none may take it any more. */
  errhandlerFree(errhandler: Errhandler): void {
    errhandlerFree(errhandler);
  }

  // ---------------------------------------------------------------- window attributes (attributes.ts)

  /**
   * A keyval for window attributes (MPI_Win_create_keyval): `copyFn` is never called (windows are
   * not duplicated), `deleteFn(win, keyval, value, extraState)` runs when the attribute is deleted,
   * replaced or its window freed. mpi.WIN_NULL_COPY_FN, WIN_DUP_FN and WIN_NULL_DELETE_FN are MPI's.
   */
  winCreateKeyval(copyFn: CopyAttrFn<Win>, deleteFn: DeleteAttrFn<Win>, extraState: unknown = null): Keyval<Win> {
    return createKeyval('winCreateKeyval', 'win', ++this.keyvals, copyFn, deleteFn, extraState);
  }

  /** Frees a keyval of winCreateKeyval (MPI_Win_free_keyval): the attributes it keys stay until deleted or their window is freed. */
  winFreeKeyval(keyval: Keyval<Win>): void {
    freeKeyval('winFreeKeyval', 'win', keyval);
  }

  /**
   * A communicator of the ranks of `group` made from the group alone (MPI_Comm_create_from_group):
   * collective over the group's ranks, which pass the same `stringtag`; it gets `errhandler`.
   */
  commCreateFromGroup(group: Group, stringtag: string, info?: Info | null, errhandler?: Errhandler): Promise<Comm> {
    return commCreateFromGroup({ world: this.world, proc: this.proc, state: this.state }, group, stringtag, info, errhandler);
  }

  /**
   * An intercommunicator of `localGroup` (holding this rank) and `remoteGroup` made from the groups
   * alone (MPI_Intercomm_create_from_groups): collective over both groups; it gets `errhandler`.
   */
  intercommCreateFromGroups(localGroup: Group, localLeader: number, remoteGroup: Group, remoteLeader: number, stringtag: string, info?: Info | null, errhandler?: Errhandler): Promise<InterComm> {
    return intercommCreateFromGroups({ world: this.world, proc: this.proc, state: this.state }, localGroup, localLeader, remoteGroup, remoteLeader, stringtag, info, errhandler);
  }

  /**
   * MPI_Comm_get_name in its C form, which takes the handle: `comm.getName()` of a communicator,
   * and 'MPI_COMM_NULL' for mpi.COMM_NULL (null), the name MPI 4.1 gives the null handle.
   */
  commGetName(comm: Comm | InterComm | null): string {
    if (comm === null) return 'MPI_COMM_NULL';
    if (!(comm instanceof CommBase)) throw new MpiError('MPI_ERR_COMM', `commGetName: comm must be a communicator or mpi.COMM_NULL, got ${describe(comm)}`);
    return comm.getName();
  }

  /** Balanced Cartesian dimensions (MPI_Dims_create): zero entries of `dims` are filled. */
  dimsCreate(nnodes: number, dims: readonly number[]): number[] {
    return dimsCreate(nnodes, dims);
  }

  // ---------------------------------------------------------------- datatypes

  /** `count` consecutive copies of `oldtype` (MPI_Type_contiguous). */
  typeContiguous(count: number, oldtype: Datatype): Datatype {
    return made(make.typeContiguous(count, oldtype), COMBINER.CONTIGUOUS, [count], [], [oldtype]);
  }

  /** `count` blocks of `blocklength` copies of `oldtype`, `stride` extents of `oldtype` apart (MPI_Type_vector). */
  typeVector(count: number, blocklength: number, stride: number, oldtype: Datatype): Datatype {
    return made(make.typeVector(count, blocklength, stride, oldtype), COMBINER.VECTOR, [count, blocklength, stride], [], [oldtype]);
  }

  /** typeVector with the stride in bytes (MPI_Type_create_hvector). */
  typeCreateHvector(count: number, blocklength: number, stride: number, oldtype: Datatype): Datatype {
    return made(make.typeCreateHvector(count, blocklength, stride, oldtype), COMBINER.HVECTOR, [count, blocklength], [stride], [oldtype]);
  }

  /** Blocks of `blocklengths[i]` copies of `oldtype` at `displacements[i]` extents of it (MPI_Type_indexed). */
  typeIndexed(count: number, blocklengths: ArrayLike<number>, displacements: ArrayLike<number>, oldtype: Datatype): Datatype {
    return made(make.typeIndexed(count, blocklengths, displacements, oldtype), COMBINER.INDEXED, [count, ...first(blocklengths, count), ...first(displacements, count)], [], [oldtype]);
  }

  /** typeIndexed with displacements in bytes (MPI_Type_create_hindexed). */
  typeCreateHindexed(count: number, blocklengths: ArrayLike<number>, displacements: ArrayLike<number>, oldtype: Datatype): Datatype {
    return made(make.typeCreateHindexed(count, blocklengths, displacements, oldtype), COMBINER.HINDEXED, [count, ...first(blocklengths, count)], first(displacements, count), [oldtype]);
  }

  /** Blocks of `blocklength` copies of `oldtype` at `displacements[i]` extents of it (MPI_Type_create_indexed_block). */
  typeCreateIndexedBlock(count: number, blocklength: number, displacements: ArrayLike<number>, oldtype: Datatype): Datatype {
    return made(make.typeCreateIndexedBlock(count, blocklength, displacements, oldtype), COMBINER.INDEXED_BLOCK, [count, blocklength, ...first(displacements, count)], [], [oldtype]);
  }

  /** typeCreateIndexedBlock with displacements in bytes (MPI_Type_create_hindexed_block). */
  typeCreateHindexedBlock(count: number, blocklength: number, displacements: ArrayLike<number>, oldtype: Datatype): Datatype {
    return made(make.typeCreateHindexedBlock(count, blocklength, displacements, oldtype), COMBINER.HINDEXED_BLOCK, [count, blocklength], first(displacements, count), [oldtype]);
  }

  /** Blocks of `blocklengths[i]` copies of `types[i]` at byte `displacements[i]`, padded as a C struct (MPI_Type_create_struct). */
  typeCreateStruct(count: number, blocklengths: ArrayLike<number>, displacements: ArrayLike<number>, types: readonly Datatype[]): Datatype {
    return made(make.typeCreateStruct(count, blocklengths, displacements, types), COMBINER.STRUCT, [count, ...first(blocklengths, count)], first(displacements, count), types.slice(0, count));
  }

  /** A block of an n-dimensional array (MPI_Type_create_subarray; `order` mpi.ORDER_C or mpi.ORDER_FORTRAN); its extent is the whole array's. */
  typeCreateSubarray(ndims: number, sizes: ArrayLike<number>, subsizes: ArrayLike<number>, starts: ArrayLike<number>, order: number, oldtype: Datatype): Datatype {
    return made(make.typeCreateSubarray(ndims, sizes, subsizes, starts, order, oldtype), COMBINER.SUBARRAY, [ndims, ...first(sizes, ndims), ...first(subsizes, ndims), ...first(starts, ndims), order], [], [oldtype]);
  }

  /**
   * The elements of a global array of `gsizes` that process `rank` of a `psizes` grid of `size`
   * owns under per-dimension distributions `distribs` (mpi.DISTRIBUTE_BLOCK, _CYCLIC, _NONE) with
   * arguments `dargs` (block size, cycle length, or mpi.DISTRIBUTE_DFLT_DARG)
   * (MPI_Type_create_darray); its extent is the whole array's.
   */
  typeCreateDarray(size: number, rank: number, ndims: number, gsizes: ArrayLike<number>, distribs: ArrayLike<number>, dargs: ArrayLike<number>, psizes: ArrayLike<number>, order: number, oldtype: Datatype): Datatype {
    const t = typeCreateDarray(size, rank, ndims, gsizes, distribs, dargs, psizes, order, oldtype);
    return made(t, COMBINER.DARRAY, [size, rank, ndims, ...first(gsizes, ndims), ...first(distribs, ndims), ...first(dargs, ndims), ...first(psizes, ndims), order], [], [oldtype]);
  }

  /** `oldtype` with a new lower bound and extent, in bytes (MPI_Type_create_resized). */
  typeCreateResized(oldtype: Datatype, lb: number, extent: number): Datatype {
    return made(make.typeCreateResized(oldtype, lb, extent), COMBINER.RESIZED, [], [lb, extent], [oldtype]);
  }

  /** A copy of `oldtype`, committed if it is (MPI_Type_dup). */
  typeDup(oldtype: Datatype): Datatype {
    return made(make.typeDup(oldtype), COMBINER.DUP, [], [], [oldtype]);
  }

  /**
   * How `datatype` was made (MPI_Type_get_envelope): its combiner (`mpi.COMBINER_VECTOR`, ...,
   * `mpi.COMBINER_NAMED` for a predefined type) and how many integers, addresses and datatypes
   * `typeGetContents` returns.
   */
  typeGetEnvelope(datatype: Datatype): Envelope {
    return envelope('typeGetEnvelope', datatype);
  }

  /**
   * The arguments `datatype` was made with (MPI_Type_get_contents), in MPI's order; derived
   * datatypes among them are new handles to free. MPI_ERR_TYPE for a predefined type.
   */
  typeGetContents(datatype: Datatype): Contents {
    return contents('typeGetContents', datatype);
  }

  /** Names `datatype` (MPI_Type_set_name; local): `typeGetName` returns the name. */
  typeSetName(datatype: Datatype, name: string): void {
    setTypeName('typeSetName', datatype, name);
  }

  /** The name of `datatype` (MPI_Type_get_name): MPI's for a predefined type (`MPI_INT`), what typeSetName gave, else ''. */
  typeGetName(datatype: Datatype): string {
    return getTypeName('typeGetName', datatype);
  }

  /**
   * The predefined type of `typeclass` (mpi.TYPECLASS_REAL, _INTEGER, _COMPLEX) whose size is
   * `size` bytes (MPI_Type_match_size), among C's types (phit has no Fortran types: a complex
   * class answers with C's complex types); MPI_ERR_ARG when there is none of that size.
   */
  typeMatchSize(typeclass: number, size: number): Datatype {
    return matchSize('typeMatchSize', typeclass, size);
  }

  /**
   * Reduces on this rank alone (MPI_Reduce_local): `inoutbuf = inbuf ∘ inoutbuf` element by
   * element, `inbuf` the left operand: (inbuf, inoutbuf, op) on typed arrays of one type and
   * length, or the long form (inbuf, inoutbuf, count, datatype, op). Costs the CPU time of the
   * combine, as in a collective.
   */
  reduceLocal(inbuf: ReduceArray, inoutbuf: ReduceArray, op: Op): void;
  reduceLocal(inbuf: ArrayBufferView, inoutbuf: ArrayBufferView, count: number, datatype: Datatype, op: Op): void;
  reduceLocal(...a: unknown[]): void {
    this.proc.charge(reduceLocal(this.packer, this.proc.machine.config.cpu.flopsPerPs, a));
  }

  /** Commits `datatype` so communication may use it (MPI_Type_commit); returns it. */
  typeCommit(datatype: Datatype): Datatype {
    dt.checkOldType('typeCommit', 'datatype', datatype).commit('typeCommit');
    return datatype;
  }

  /** Frees `datatype` (MPI_Type_free): later use fails; types built from it and operations under way are unaffected. */
  typeFree(datatype: Datatype): void {
    if (!(datatype instanceof dt.Datatype)) dt.checkOldType('typeFree', 'datatype', datatype);
    datatype.free('typeFree');
  }

  /** Bytes of data in one element of `datatype` (MPI_Type_size). */
  typeSize(datatype: Datatype): number {
    return dt.checkOldType('typeSize', 'datatype', datatype).size;
  }

  /** Lower bound and extent of `datatype`, in bytes (MPI_Type_get_extent). */
  typeGetExtent(datatype: Datatype): { lb: number; extent: number } {
    const t = dt.checkOldType('typeGetExtent', 'datatype', datatype);
    return { lb: t.lb, extent: t.extent };
  }

  /** Lower bound and extent of the bytes `datatype`'s data really occupies (MPI_Type_get_true_extent). */
  typeGetTrueExtent(datatype: Datatype): { lb: number; extent: number } {
    const t = dt.checkOldType('typeGetTrueExtent', 'datatype', datatype);
    return { lb: t.trueLb, extent: t.trueExtent };
  }

  /**
   * Elements a status covers (MPI_Get_count), of `type`: a Datatype, an element size in bytes, or
   * a typed array constructor (`Float64Array`); UNDEFINED when the bytes end inside an element.
   */
  getCount(status: Status, type: Datatype | number | { readonly BYTES_PER_ELEMENT: number }): number {
    if (typeof type === 'number' || (typeof type === 'function' && 'BYTES_PER_ELEMENT' in type)) return getCount(status, type as number | { readonly BYTES_PER_ELEMENT: number });
    const datatype = type as Datatype;
    const t = checkType('getCount', 'datatype', datatype);
    const bytes = statusBytes('getCount', status);
    if (t.size === 0) return bytes === 0 ? 0 : UNDEFINED;
    return bytes % t.size === 0 ? bytes / t.size : UNDEFINED;
  }

  /** Basic elements a receive's status holds (MPI_Get_elements): UNDEFINED when the bytes end inside one. */
  getElements(status: Status, datatype: Datatype): number {
    const n = basicElements(checkType('getElements', 'datatype', datatype), statusBytes('getElements', status));
    return n < 0 ? UNDEFINED : n;
  }

  /**
   * Packs `incount` elements of `datatype` from `inbuf` into `outbuf` from byte `position`
   * (MPI_Pack); returns the position after them. Costs the library's packing time.
   */
  pack(inbuf: ArrayBufferView, incount: number, datatype: Datatype, outbuf: ArrayBufferView, position: number): number {
    return pack(this.packer, inbuf, incount, datatype, outbuf, position);
  }

  /** Unpacks `outcount` elements of `datatype` from `inbuf` at byte `position` into `outbuf` (MPI_Unpack); returns the position after them. */
  unpack(inbuf: ArrayBufferView, position: number, outbuf: ArrayBufferView, outcount: number, datatype: Datatype): number {
    return unpack(this.packer, inbuf, position, outbuf, outcount, datatype);
  }

  /** Bytes `incount` elements of `datatype` take packed (MPI_Pack_size). */
  packSize(incount: number, datatype: Datatype): number {
    return packSize(incount, datatype);
  }

  /**
   * Packs `incount` elements of `datatype` from `inbuf` into `outbuf` from byte `position` in
   * the portable representation `datarep` ("external32": big-endian, MPI's sizes)
   * (MPI_Pack_external); returns the position after them.
   */
  packExternal(datarep: string, inbuf: ArrayBufferView, incount: number, datatype: Datatype, outbuf: ArrayBufferView, position: number): number {
    return packExternal(this.packer, datarep, inbuf, incount, datatype, outbuf, position);
  }

  /** Unpacks `outcount` elements of `datatype` in `datarep` ("external32") from `inbuf` at byte `position` into `outbuf` (MPI_Unpack_external); returns the position after them. */
  unpackExternal(datarep: string, inbuf: ArrayBufferView, position: number, outbuf: ArrayBufferView, outcount: number, datatype: Datatype): number {
    return unpackExternal(this.packer, datarep, inbuf, position, outbuf, outcount, datatype);
  }

  /** Bytes `incount` elements of `datatype` take in `datarep` ("external32") (MPI_Pack_external_size). */
  packExternalSize(datarep: string, incount: number, datatype: Datatype): number {
    return packExternalSize(datarep, incount, datatype);
  }
}

function statusBytes(call: string, status: Status): number {
  if (status === null || typeof status !== 'object' || typeof status.bytes !== 'number') throw new MpiError('MPI_ERR_ARG', `${call}: status must be the status of a receive, got ${status === null ? 'null' : typeof status}`);
  return status.bytes;
}

// the process-level calls (datatypes, ops, errors) report to MPI_COMM_WORLD's handler
guardMethods(Mpi.prototype);

/** An MPI_Aint argument: a safe integer, else MPI_ERR_ARG naming the call and argument. */
function checkAint(call: string, name: string, v: number): void {
  if (!Number.isSafeInteger(v)) throw new MpiError('MPI_ERR_ARG', `${call}: ${name}=${String(v)} must be a safe integer (within ±2^53): an address or displacement in bytes`);
}
