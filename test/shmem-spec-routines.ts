/**
 * The C routines of OpenSHMEM 1.5 (OpenSHMEM Application Programming Interface, version 1.5,
 * 8 June 2020, chapter 9 and the profiling annex), written out as data with the section of each,
 * and the phit routine that serves each one: `shmem.putInt64` (a method of `ctx.shmem`) or
 * `ctx.putInt64` (a method of a context from `shmem.ctxCreate`), with the element type a typed
 * family passes as an argument. A routine phit does not have is an exclusion with its reason.
 * test/shmem-routines.test.ts expands the `{T}` families over their type tables and checks every
 * C name against phit's routines, so that a routine of 1.5 phit lacks cannot go unnoticed.
 *
 * Written from the specification's routine lists, not from phit's code: the type tables are the
 * specification's (Tables 5 to 10), and what each TYPENAME is on LP64 (x86-64, as on the Cray
 * XE and XC) is C's layout: char is signed, long and long long are 8 bytes, size_t is an unsigned
 * long, ptrdiff_t a long.
 */

/** A TYPENAME of the specification's type tables. */
export type TypeName = string;

/** The standard RMA types (Table 5), the types of put, get, their nbi forms, p, g, iput, iget and the typed collectives. */
export const RMA_TYPES: readonly TypeName[] = ['float', 'double', 'longdouble', 'char', 'schar', 'short', 'int', 'long', 'longlong', 'uchar', 'ushort', 'uint', 'ulong', 'ulonglong', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'size', 'ptrdiff'];
/** The standard AMO types (Table 6): compare_swap, fetch_inc, inc, fetch_add, add. */
export const AMO_TYPES: readonly TypeName[] = ['int', 'long', 'longlong', 'uint', 'ulong', 'ulonglong', 'int32', 'int64', 'uint32', 'uint64', 'size', 'ptrdiff'];
/** The extended AMO types (Table 7): fetch, set, swap. */
export const EXT_AMO_TYPES: readonly TypeName[] = ['float', 'double', ...AMO_TYPES];
/** The bitwise AMO types (Table 8): fetch_and, and, fetch_or, or, fetch_xor, xor. */
export const BITWISE_AMO_TYPES: readonly TypeName[] = ['uint', 'ulong', 'ulonglong', 'int32', 'int64', 'uint32', 'uint64'];
/** The point-to-point synchronization types (Table 9): the waits and tests. */
export const SYNC_TYPES: readonly TypeName[] = ['short', 'int', 'long', 'longlong', 'ushort', 'uint', 'ulong', 'ulonglong', 'int32', 'int64', 'uint32', 'uint64', 'size', 'ptrdiff'];
/** The reduction types of the bitwise operators (Table 10). */
export const BITWISE_REDUCE_TYPES: readonly TypeName[] = ['uchar', 'ushort', 'uint', 'ulong', 'ulonglong', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'size'];
/** The reduction types of min and max (Table 10). */
export const MINMAX_REDUCE_TYPES: readonly TypeName[] = ['char', 'schar', 'short', 'int', 'long', 'longlong', 'ptrdiff', 'uchar', 'ushort', 'uint', 'ulong', 'ulonglong', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64', 'size', 'float', 'double', 'longdouble'];
/** The reduction types of sum and prod (Table 10). */
export const ARITH_REDUCE_TYPES: readonly TypeName[] = [...MINMAX_REDUCE_TYPES, 'complexd', 'complexf'];

/** What each TYPENAME is on LP64, as phit's element types name it (size and kind). */
export const LP64: Readonly<Record<TypeName, string>> = {
  char: 'int8', schar: 'int8', int8: 'int8', uchar: 'uint8', uint8: 'uint8',
  short: 'int16', int16: 'int16', ushort: 'uint16', uint16: 'uint16',
  int: 'int32', int32: 'int32', uint: 'uint32', uint32: 'uint32',
  long: 'int64', longlong: 'int64', int64: 'int64', ptrdiff: 'int64',
  ulong: 'uint64', ulonglong: 'uint64', uint64: 'uint64', size: 'uint64',
  float: 'float32', double: 'float64', longdouble: 'longdouble', complexf: 'complexf', complexd: 'complexd',
};

/** phit's typed RMA methods are named by element kind (`putInt16`, `putLongdouble`): the kind of an element type. */
export function kindOf(type: string): string {
  return type.replace(/^u?int|^float|^longdouble/, (m) => (m.startsWith('u') ? 'Uint' : m === 'int' ? 'Int' : m === 'float' ? 'Float' : 'Longdouble'));
}

/**
 * One routine or typed family of the specification. `phit` names the routine that serves it
 * (`face.method`), and for a family that routine's element-type argument; `exclude` gives the
 * reason phit has none (for a whole family, or per TYPENAME in `excludeTypes`).
 */
export interface SpecRoutine {
  /** The C name, `{T}` standing for each TYPENAME of `types`. */
  readonly c: string;
  /** The section of the specification that defines it. */
  readonly section: string;
  readonly types?: readonly TypeName[];
  /** `shmem.method` or `ctx.method`: `{K}` stands for the element kind (Int16, ...) of the TYPENAME, `{t}` for the TYPENAME itself. */
  readonly phit?: string;
  readonly exclude?: string;
  readonly excludeTypes?: Readonly<Record<TypeName, string>>;
  /** Deprecated in the specification (kept by 1.5 as a deprecated synopsis). */
  readonly deprecated?: boolean;
}

/** The routines of one section on the default context and on a context (`shmem_ctx_...`). */
function withCtx(r: SpecRoutine): SpecRoutine[] {
  return [r, { ...r, c: r.c.replace(/^shmem_/, 'shmem_ctx_'), phit: r.phit?.replace(/^shmem\./, 'ctx.') }];
}

const SIZES = [8, 16, 32, 64, 128];

/** Every RMA family of §9.6: the typed, sized and mem forms of one operation, on both faces. */
function rma(op: string, section: string, sized: boolean, mem: boolean): SpecRoutine[] {
  const camel = op.replace(/_nbi$/, 'Nbi');
  const out: SpecRoutine[] = [...withCtx({ c: `shmem_{T}_${op}`, section, types: RMA_TYPES, phit: `shmem.${camel.replace(/^(i?)(put|get|p|g)/, '$1$2{K}')}` })];
  if (sized) for (const b of SIZES) out.push(...withCtx({ c: `shmem_${op.replace(/^(i?(put|get))/, `$1${b}`)}`, section, phit: `shmem.${camel.replace(/^(i?(put|get))/, `$1${b}`)}` }));
  if (mem) out.push(...withCtx({ c: `shmem_${op.replace(/^(put|get)/, '$1mem')}`, section, phit: `shmem.${camel.replace(/^(put|get)/, '$1mem')}` }));
  return out;
}

/** An atomic of §9.7 on its type table, on both faces. */
function amo(op: string, section: string, types: readonly TypeName[], method: string): SpecRoutine[] {
  return withCtx({ c: `shmem_{T}_atomic_${op}`, section, types, phit: `shmem.${method}` });
}

/** The waits and tests of §9.10 on the synchronization types. */
function p2p(name: string, section: string): SpecRoutine {
  return { c: `shmem_{T}_${name}`, section, types: SYNC_TYPES, phit: `shmem.${name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())}` };
}

/** The OpenSHMEM 1.5 C routines, by section. */
export const SPEC_ROUTINES: readonly SpecRoutine[] = [
  // 9.1 Library setup, exit, and query routines
  { c: 'shmem_init', section: '9.1.1 SHMEM_INIT', phit: 'shmem.init' },
  { c: 'shmem_my_pe', section: '9.1.2 SHMEM_MY_PE', phit: 'shmem.myPe' },
  { c: '_my_pe', section: '9.1.2 SHMEM_MY_PE', phit: 'shmem.myPe', deprecated: true },
  { c: 'shmem_n_pes', section: '9.1.3 SHMEM_N_PES', phit: 'shmem.nPes' },
  { c: '_num_pes', section: '9.1.3 SHMEM_N_PES', phit: 'shmem.nPes', deprecated: true },
  { c: 'shmem_finalize', section: '9.1.4 SHMEM_FINALIZE', phit: 'shmem.finalize' },
  { c: 'shmem_global_exit', section: '9.1.5 SHMEM_GLOBAL_EXIT', phit: 'shmem.globalExit' },
  { c: 'shmem_pe_accessible', section: '9.1.6 SHMEM_PE_ACCESSIBLE', phit: 'shmem.peAccessible' },
  { c: 'shmem_addr_accessible', section: '9.1.7 SHMEM_ADDR_ACCESSIBLE', phit: 'shmem.addrAccessible' },
  { c: 'shmem_ptr', section: '9.1.8 SHMEM_PTR', phit: 'shmem.ptr' },
  { c: 'shmem_team_ptr', section: '9.1.9 SHMEM_TEAM_PTR', phit: 'shmem.teamPtr' },
  { c: 'shmem_info_get_version', section: '9.1.10 SHMEM_INFO_GET_VERSION', phit: 'shmem.infoGetVersion' },
  { c: 'shmem_info_get_name', section: '9.1.11 SHMEM_INFO_GET_NAME', phit: 'shmem.infoGetName' },
  { c: 'start_pes', section: '9.1.12 START_PES', phit: 'shmem.startPes', deprecated: true },
  // 9.2 Thread support
  { c: 'shmem_init_thread', section: '9.2.1 SHMEM_INIT_THREAD', phit: 'shmem.initThread' },
  { c: 'shmem_query_thread', section: '9.2.2 SHMEM_QUERY_THREAD', phit: 'shmem.queryThread' },
  // 9.3 Memory management
  { c: 'shmem_malloc', section: '9.3.1 SHMEM_MALLOC, SHMEM_FREE, SHMEM_REALLOC, SHMEM_ALIGN', phit: 'shmem.malloc' },
  { c: 'shmem_free', section: '9.3.1 SHMEM_MALLOC, SHMEM_FREE, SHMEM_REALLOC, SHMEM_ALIGN', phit: 'shmem.free' },
  { c: 'shmem_realloc', section: '9.3.1 SHMEM_MALLOC, SHMEM_FREE, SHMEM_REALLOC, SHMEM_ALIGN', phit: 'shmem.realloc' },
  { c: 'shmem_align', section: '9.3.1 SHMEM_MALLOC, SHMEM_FREE, SHMEM_REALLOC, SHMEM_ALIGN', phit: 'shmem.align' },
  { c: 'shmem_malloc_with_hints', section: '9.3.2 SHMEM_MALLOC_WITH_HINTS', phit: 'shmem.mallocWithHints' },
  { c: 'shmem_calloc', section: '9.3.3 SHMEM_CALLOC', phit: 'shmem.calloc' },
  // the names of OpenSHMEM 1.0, deprecated in 1.2 (SOS's shmem.h still declares them)
  ...[
    ['shmalloc', 'malloc'],
    ['shfree', 'free'],
    ['shrealloc', 'realloc'],
    ['shmemalign', 'align'],
  ].map(([c, m]) => ({ c: c!, section: '9.3.1 SHMEM_MALLOC, SHMEM_FREE, SHMEM_REALLOC, SHMEM_ALIGN (deprecated names)', phit: `shmem.${m!}`, deprecated: true })),
  // 9.4 Team management
  { c: 'shmem_team_my_pe', section: '9.4.1 SHMEM_TEAM_MY_PE', phit: 'shmem.teamMyPe' },
  { c: 'shmem_team_n_pes', section: '9.4.2 SHMEM_TEAM_N_PES', phit: 'shmem.teamNPes' },
  { c: 'shmem_team_get_config', section: '9.4.3 SHMEM_TEAM_GET_CONFIG', phit: 'shmem.teamGetConfig' },
  { c: 'shmem_team_translate_pe', section: '9.4.4 SHMEM_TEAM_TRANSLATE_PE', phit: 'shmem.teamTranslatePe' },
  { c: 'shmem_team_split_strided', section: '9.4.5 SHMEM_TEAM_SPLIT_STRIDED', phit: 'shmem.teamSplitStrided' },
  { c: 'shmem_team_split_2d', section: '9.4.6 SHMEM_TEAM_SPLIT_2D', phit: 'shmem.teamSplit2d' },
  { c: 'shmem_team_destroy', section: '9.4.7 SHMEM_TEAM_DESTROY', phit: 'shmem.teamDestroy' },
  // 9.5 Communication management (contexts)
  { c: 'shmem_ctx_create', section: '9.5.1 SHMEM_CTX_CREATE', phit: 'shmem.ctxCreate' },
  { c: 'shmem_team_create_ctx', section: '9.5.2 SHMEM_TEAM_CREATE_CTX', phit: 'shmem.teamCreateCtx' },
  { c: 'shmem_ctx_destroy', section: '9.5.3 SHMEM_CTX_DESTROY', phit: 'shmem.ctxDestroy' },
  { c: 'shmem_ctx_get_team', section: '9.5.4 SHMEM_CTX_GET_TEAM', phit: 'shmem.ctxGetTeam' },
  // 9.6 Remote memory access
  ...rma('put', '9.6.1 SHMEM_PUT', true, true),
  ...rma('p', '9.6.2 SHMEM_P', false, false),
  ...rma('iput', '9.6.3 SHMEM_IPUT', true, false),
  ...rma('get', '9.6.4 SHMEM_GET', true, true),
  ...rma('g', '9.6.5 SHMEM_G', false, false),
  ...rma('iget', '9.6.6 SHMEM_IGET', true, false),
  ...rma('put_nbi', '9.6.7 SHMEM_PUT_NBI', true, true),
  ...rma('get_nbi', '9.6.8 SHMEM_GET_NBI', true, true),
  // 9.7 Atomic memory operations, with their nbi forms
  ...amo('fetch', '9.7.1 SHMEM_ATOMIC_FETCH', EXT_AMO_TYPES, 'atomicFetch'),
  ...amo('fetch_nbi', '9.7.1 SHMEM_ATOMIC_FETCH', EXT_AMO_TYPES, 'atomicFetchNbi'),
  ...amo('set', '9.7.2 SHMEM_ATOMIC_SET', EXT_AMO_TYPES, 'atomicSet'),
  ...amo('compare_swap', '9.7.3 SHMEM_ATOMIC_COMPARE_SWAP', AMO_TYPES, 'atomicCompareSwap'),
  ...amo('compare_swap_nbi', '9.7.3 SHMEM_ATOMIC_COMPARE_SWAP', AMO_TYPES, 'atomicCompareSwapNbi'),
  ...amo('swap', '9.7.4 SHMEM_ATOMIC_SWAP', EXT_AMO_TYPES, 'atomicSwap'),
  ...amo('swap_nbi', '9.7.4 SHMEM_ATOMIC_SWAP', EXT_AMO_TYPES, 'atomicSwapNbi'),
  ...amo('fetch_inc', '9.7.5 SHMEM_ATOMIC_FETCH_INC', AMO_TYPES, 'atomicFetchInc'),
  ...amo('fetch_inc_nbi', '9.7.5 SHMEM_ATOMIC_FETCH_INC', AMO_TYPES, 'atomicFetchIncNbi'),
  ...amo('inc', '9.7.6 SHMEM_ATOMIC_INC', AMO_TYPES, 'atomicInc'),
  ...amo('fetch_add', '9.7.7 SHMEM_ATOMIC_FETCH_ADD', AMO_TYPES, 'atomicFetchAdd'),
  ...amo('fetch_add_nbi', '9.7.7 SHMEM_ATOMIC_FETCH_ADD', AMO_TYPES, 'atomicFetchAddNbi'),
  ...amo('add', '9.7.8 SHMEM_ATOMIC_ADD', AMO_TYPES, 'atomicAdd'),
  ...amo('fetch_and', '9.7.9 SHMEM_ATOMIC_FETCH_AND', BITWISE_AMO_TYPES, 'atomicFetchAnd'),
  ...amo('fetch_and_nbi', '9.7.9 SHMEM_ATOMIC_FETCH_AND', BITWISE_AMO_TYPES, 'atomicFetchAndNbi'),
  ...amo('and', '9.7.10 SHMEM_ATOMIC_AND', BITWISE_AMO_TYPES, 'atomicAnd'),
  ...amo('fetch_or', '9.7.11 SHMEM_ATOMIC_FETCH_OR', BITWISE_AMO_TYPES, 'atomicFetchOr'),
  ...amo('fetch_or_nbi', '9.7.11 SHMEM_ATOMIC_FETCH_OR', BITWISE_AMO_TYPES, 'atomicFetchOrNbi'),
  ...amo('or', '9.7.12 SHMEM_ATOMIC_OR', BITWISE_AMO_TYPES, 'atomicOr'),
  ...amo('fetch_xor', '9.7.13 SHMEM_ATOMIC_FETCH_XOR', BITWISE_AMO_TYPES, 'atomicFetchXor'),
  ...amo('fetch_xor_nbi', '9.7.13 SHMEM_ATOMIC_FETCH_XOR', BITWISE_AMO_TYPES, 'atomicFetchXorNbi'),
  ...amo('xor', '9.7.14 SHMEM_ATOMIC_XOR', BITWISE_AMO_TYPES, 'atomicXor'),
  // the atomics' names before 1.4, deprecated (short, int, long, long long; fetch, set and swap also float and double)
  ...[
    ['fetch', 'atomicFetch', true],
    ['set', 'atomicSet', true],
    ['swap', 'atomicSwap', true],
    ['cswap', 'atomicCompareSwap', false],
    ['finc', 'atomicFetchInc', false],
    ['inc', 'atomicInc', false],
    ['fadd', 'atomicFetchAdd', false],
    ['add', 'atomicAdd', false],
  ].map(([op, method, float]) => ({ c: `shmem_{T}_${String(op)}`, section: '9.7 Atomic memory operations (deprecated synopses)', types: [...(float ? ['float', 'double'] : []), 'int', 'long', 'longlong'], phit: `shmem.${String(method)}`, deprecated: true })),
  // 9.8 Signaling operations
  // the typed put-with-signal takes the element size from its typed array; long double, which has no typed array of its own, has a routine of its own
  ...withCtx({ c: 'shmem_{T}_put_signal', section: '9.8.3 SHMEM_PUT_SIGNAL', types: RMA_TYPES.filter((t) => t !== 'longdouble'), phit: 'shmem.putSignal' }),
  ...withCtx({ c: 'shmem_longdouble_put_signal', section: '9.8.3 SHMEM_PUT_SIGNAL', phit: 'shmem.putLongdoubleSignal' }),
  ...SIZES.flatMap((b) => withCtx({ c: `shmem_put${b}_signal`, section: '9.8.3 SHMEM_PUT_SIGNAL', phit: b === 128 ? 'shmem.putmemSignal' : 'shmem.putSignal' })),
  ...withCtx({ c: 'shmem_putmem_signal', section: '9.8.3 SHMEM_PUT_SIGNAL', phit: 'shmem.putmemSignal' }),
  ...withCtx({ c: 'shmem_{T}_put_signal_nbi', section: '9.8.4 SHMEM_PUT_SIGNAL_NBI', types: RMA_TYPES.filter((t) => t !== 'longdouble'), phit: 'shmem.putSignalNbi' }),
  ...withCtx({ c: 'shmem_longdouble_put_signal_nbi', section: '9.8.4 SHMEM_PUT_SIGNAL_NBI', phit: 'shmem.putLongdoubleSignalNbi' }),
  ...SIZES.flatMap((b) => withCtx({ c: `shmem_put${b}_signal_nbi`, section: '9.8.4 SHMEM_PUT_SIGNAL_NBI', phit: b === 128 ? 'shmem.putmemSignalNbi' : 'shmem.putSignalNbi' })),
  ...withCtx({ c: 'shmem_putmem_signal_nbi', section: '9.8.4 SHMEM_PUT_SIGNAL_NBI', phit: 'shmem.putmemSignalNbi' }),
  { c: 'shmem_signal_fetch', section: '9.8.5 SHMEM_SIGNAL_FETCH', phit: 'shmem.signalFetch' },
  // 9.9 Collective routines
  { c: 'shmem_barrier_all', section: '9.9.1 SHMEM_BARRIER_ALL', phit: 'shmem.barrierAll' },
  { c: 'shmem_barrier', section: '9.9.2 SHMEM_BARRIER', phit: 'shmem.barrier', deprecated: true },
  { c: 'shmem_sync', section: '9.9.3 SHMEM_SYNC', phit: 'shmem.sync' },
  { c: 'shmem_team_sync', section: '9.9.3 SHMEM_SYNC', phit: 'shmem.teamSync' },
  { c: 'shmem_sync_all', section: '9.9.4 SHMEM_SYNC_ALL', phit: 'shmem.syncAll' },
  { c: 'shmem_{T}_alltoall', section: '9.9.5 SHMEM_ALLTOALL', types: RMA_TYPES, phit: 'shmem.alltoall' },
  { c: 'shmem_alltoallmem', section: '9.9.5 SHMEM_ALLTOALL', phit: 'shmem.alltoallmem' },
  { c: 'shmem_alltoall32', section: '9.9.5 SHMEM_ALLTOALL', phit: 'shmem.alltoall32', deprecated: true },
  { c: 'shmem_alltoall64', section: '9.9.5 SHMEM_ALLTOALL', phit: 'shmem.alltoall64', deprecated: true },
  { c: 'shmem_{T}_alltoalls', section: '9.9.6 SHMEM_ALLTOALLS', types: RMA_TYPES, phit: 'shmem.alltoalls' },
  { c: 'shmem_alltoallsmem', section: '9.9.6 SHMEM_ALLTOALLS', phit: 'shmem.alltoallsmem' },
  { c: 'shmem_alltoalls32', section: '9.9.6 SHMEM_ALLTOALLS', phit: 'shmem.alltoalls32', deprecated: true },
  { c: 'shmem_alltoalls64', section: '9.9.6 SHMEM_ALLTOALLS', phit: 'shmem.alltoalls64', deprecated: true },
  { c: 'shmem_{T}_broadcast', section: '9.9.7 SHMEM_BROADCAST', types: RMA_TYPES, phit: 'shmem.broadcast' },
  { c: 'shmem_broadcastmem', section: '9.9.7 SHMEM_BROADCAST', phit: 'shmem.broadcastmem' },
  { c: 'shmem_broadcast32', section: '9.9.7 SHMEM_BROADCAST', phit: 'shmem.broadcast32', deprecated: true },
  { c: 'shmem_broadcast64', section: '9.9.7 SHMEM_BROADCAST', phit: 'shmem.broadcast64', deprecated: true },
  { c: 'shmem_{T}_collect', section: '9.9.8 SHMEM_COLLECT, SHMEM_FCOLLECT', types: RMA_TYPES, phit: 'shmem.collect' },
  { c: 'shmem_collectmem', section: '9.9.8 SHMEM_COLLECT, SHMEM_FCOLLECT', phit: 'shmem.collectmem' },
  { c: 'shmem_collect32', section: '9.9.8 SHMEM_COLLECT, SHMEM_FCOLLECT', phit: 'shmem.collect32', deprecated: true },
  { c: 'shmem_collect64', section: '9.9.8 SHMEM_COLLECT, SHMEM_FCOLLECT', phit: 'shmem.collect64', deprecated: true },
  { c: 'shmem_{T}_fcollect', section: '9.9.8 SHMEM_COLLECT, SHMEM_FCOLLECT', types: RMA_TYPES, phit: 'shmem.fcollect' },
  { c: 'shmem_fcollectmem', section: '9.9.8 SHMEM_COLLECT, SHMEM_FCOLLECT', phit: 'shmem.fcollectmem' },
  { c: 'shmem_fcollect32', section: '9.9.8 SHMEM_COLLECT, SHMEM_FCOLLECT', phit: 'shmem.fcollect32', deprecated: true },
  { c: 'shmem_fcollect64', section: '9.9.8 SHMEM_COLLECT, SHMEM_FCOLLECT', phit: 'shmem.fcollect64', deprecated: true },
  ...(['and', 'or', 'xor'] as const).map((op) => ({ c: `shmem_{T}_${op}_reduce`, section: '9.9.9 SHMEM_REDUCTIONS', types: BITWISE_REDUCE_TYPES, phit: `shmem.${op}Reduce` })),
  ...(['max', 'min'] as const).map((op) => ({ c: `shmem_{T}_${op}_reduce`, section: '9.9.9 SHMEM_REDUCTIONS', types: MINMAX_REDUCE_TYPES, phit: `shmem.${op}Reduce` })),
  ...(['sum', 'prod'] as const).map((op) => ({ c: `shmem_{T}_${op}_reduce`, section: '9.9.9 SHMEM_REDUCTIONS', types: ARITH_REDUCE_TYPES, phit: `shmem.${op}Reduce` })),
  // the active-set reductions of 1.4 and earlier, deprecated: the types each operator had there
  ...(['and', 'or', 'xor'] as const).map((op) => ({ c: `shmem_{T}_${op}_to_all`, section: '9.9.9 SHMEM_REDUCTIONS (deprecated synopses)', types: ['short', 'int', 'long', 'longlong'], phit: `shmem.{t}${cap(op)}ToAll`, deprecated: true })),
  ...(['max', 'min'] as const).map((op) => ({ c: `shmem_{T}_${op}_to_all`, section: '9.9.9 SHMEM_REDUCTIONS (deprecated synopses)', types: ['short', 'int', 'long', 'longlong', 'float', 'double', 'longdouble'], phit: `shmem.{t}${cap(op)}ToAll`, deprecated: true })),
  ...(['sum', 'prod'] as const).map((op) => ({ c: `shmem_{T}_${op}_to_all`, section: '9.9.9 SHMEM_REDUCTIONS (deprecated synopses)', types: ['short', 'int', 'long', 'longlong', 'float', 'double', 'longdouble', 'complexd', 'complexf'], phit: `shmem.{t}${cap(op)}ToAll`, deprecated: true })),
  // 9.10 Point-to-point synchronization
  p2p('wait_until', '9.10.1 SHMEM_WAIT_UNTIL'),
  p2p('wait_until_all', '9.10.2 SHMEM_WAIT_UNTIL_ALL'),
  p2p('wait_until_any', '9.10.3 SHMEM_WAIT_UNTIL_ANY'),
  p2p('wait_until_some', '9.10.4 SHMEM_WAIT_UNTIL_SOME'),
  p2p('wait_until_all_vector', '9.10.5 SHMEM_WAIT_UNTIL_ALL_VECTOR'),
  p2p('wait_until_any_vector', '9.10.6 SHMEM_WAIT_UNTIL_ANY_VECTOR'),
  p2p('wait_until_some_vector', '9.10.7 SHMEM_WAIT_UNTIL_SOME_VECTOR'),
  p2p('test', '9.10.8 SHMEM_TEST'),
  p2p('test_all', '9.10.9 SHMEM_TEST_ALL'),
  p2p('test_any', '9.10.10 SHMEM_TEST_ANY'),
  p2p('test_some', '9.10.11 SHMEM_TEST_SOME'),
  p2p('test_all_vector', '9.10.12 SHMEM_TEST_ALL_VECTOR'),
  p2p('test_any_vector', '9.10.13 SHMEM_TEST_ANY_VECTOR'),
  p2p('test_some_vector', '9.10.14 SHMEM_TEST_SOME_VECTOR'),
  { c: 'shmem_signal_wait_until', section: '9.10.15 SHMEM_SIGNAL_WAIT_UNTIL', phit: 'shmem.signalWaitUntil' },
  // the waits before 1.4, deprecated: shmem_wait(ivar, v) is a wait until ivar != v
  { c: 'shmem_wait', section: '9.10.1 SHMEM_WAIT_UNTIL (deprecated synopses)', phit: 'shmem.waitUntil', deprecated: true },
  { c: 'shmem_wait_until', section: '9.10.1 SHMEM_WAIT_UNTIL (deprecated synopses: the long form, where C11 has its generic)', phit: 'shmem.waitUntil', deprecated: true },
  { c: 'shmem_{T}_wait', section: '9.10.1 SHMEM_WAIT_UNTIL (deprecated synopses)', types: ['short', 'int', 'long', 'longlong'], phit: 'shmem.waitUntil', deprecated: true },
  // 9.11 Memory ordering
  ...withCtx({ c: 'shmem_fence', section: '9.11.1 SHMEM_FENCE', phit: 'shmem.fence' }),
  ...withCtx({ c: 'shmem_quiet', section: '9.11.2 SHMEM_QUIET', phit: 'shmem.quiet' }),
  // 9.12 Distributed locking
  { c: 'shmem_set_lock', section: '9.12.1 SHMEM_LOCK', phit: 'shmem.setLock' },
  { c: 'shmem_test_lock', section: '9.12.1 SHMEM_LOCK', phit: 'shmem.testLock' },
  { c: 'shmem_clear_lock', section: '9.12.1 SHMEM_LOCK', phit: 'shmem.clearLock' },
  // 9.13 Cache management, deprecated
  ...(
    [
      ['shmem_clear_cache_inv', 'clearCacheInv'],
      ['shmem_set_cache_inv', 'setCacheInv'],
      ['shmem_clear_cache_line_inv', 'clearCacheLineInv'],
      ['shmem_set_cache_line_inv', 'setCacheLineInv'],
      ['shmem_udcflush', 'udcflush'],
      ['shmem_udcflush_line', 'udcflushLine'],
    ] as const
  ).map(([c, m]) => ({ c, section: '9.13 Cache management', phit: `shmem.${m}`, deprecated: true })),
  // the profiling interface
  { c: 'shmem_pcontrol', section: 'Annex: profiling interface, SHMEM_PCONTROL', phit: 'shmem.pcontrol' },
];

function cap(s: string): string {
  return s[0]!.toUpperCase() + s.slice(1);
}

/**
 * What the specification leaves out of this list, with the reason: routines that need threads
 * or several programs (none in 1.5: every thread level holds for a single-threaded PE, see
 * `initThread`) and the Fortran interface.
 */
export const SPEC_LEFT_OUT: readonly { readonly what: string; readonly why: string }[] = [
  { what: 'the Fortran interface (deprecated in 1.4: SHMEM_INT4_WAIT, SHPALLOC, ...)', why: 'phit programs are TypeScript; the tests-uh Fortran tests are ported to the C calls they stand for' },
  { what: 'the C11 generic names (shmem_put, shmem_atomic_fetch_add, ... without a TYPENAME)', why: 'in C a _Generic over the typed routines listed here; phit has no overloading on element type, the typed routine is called' },
  { what: 'C++ and thread-safety behaviour of SHMEM_THREAD_MULTIPLE', why: 'a phit PE is one thread of control, so no routine needs threads' },
];

/**
 * phit routines no C name of the specification stands for, with the reason they exist: the
 * world forms of OpenSHMEM 1.4 reductions without pSync, which phit keeps for its apps.
 */
export const PHIT_EXTRAS: Readonly<Record<string, string>> = {
  'shmem.sumToAll': "phit's world reduction (shmem_TYPE_sum_to_all over all PEs, without pSync and pWrk), used by phit's apps before teams",
  'shmem.minToAll': "phit's world reduction (shmem_TYPE_min_to_all over all PEs, without pSync and pWrk)",
  'shmem.maxToAll': "phit's world reduction (shmem_TYPE_max_to_all over all PEs, without pSync and pWrk)",
};

/** One C name of the specification, expanded: the phit routine that serves it and the element type it passes, or why there is none. */
export interface SpecName {
  readonly c: string;
  readonly section: string;
  readonly phit?: string;
  readonly type?: string;
  readonly exclude?: string;
  readonly deprecated: boolean;
}

/** Every C name of SPEC_ROUTINES, the `{T}` families expanded over their types. */
export function specNames(): SpecName[] {
  const out: SpecName[] = [];
  for (const r of SPEC_ROUTINES) {
    const deprecated = r.deprecated ?? false;
    if (!r.types) {
      out.push({ c: r.c, section: r.section, phit: r.phit, exclude: r.exclude, deprecated });
      continue;
    }
    for (const t of r.types) {
      const c = r.c.replace('{T}', t);
      const why = r.exclude ?? r.excludeTypes?.[t];
      const type = LP64[t]!;
      const phit = r.phit?.replace('{K}', kindOf(type)).replace('{t}', t);
      out.push(why ? { c, section: r.section, exclude: why, deprecated } : { c, section: r.section, phit, type, deprecated });
    }
  }
  return out;
}
