/**
 * OTF2's one-sided (RMA) records as the writer and the reader here share them: the event record
 * types and enumerations of OTF2 3.0 (otf2_events_int.h, OTF2_Events.h), and the attributes phit
 * adds to carry what replaying a one-sided call needs and the RMA records lack (the target
 * displacement, the element size, the accumulate's op, the window's size and displacement unit,
 * the MPI_MODE_* assertions). An attribute is an AttributeList record just before the event it
 * belongs to, naming Attribute definitions of the global definitions (OTF2 allows one before any
 * event); readers that do not know them pass them over.
 */

/** RMA event record types (otf2_events_int.h, OTF2 1.2 on). */
export const RMA = {
  winCreate: 35,
  winDestroy: 36,
  collectiveBegin: 37,
  collectiveEnd: 38,
  groupSync: 39,
  requestLock: 40,
  acquireLock: 41,
  tryLock: 42,
  releaseLock: 43,
  sync: 44,
  waitChange: 45,
  put: 46,
  get: 47,
  atomic: 48,
  opCompleteBlocking: 49,
  opCompleteNonBlocking: 50,
  opTest: 51,
  opCompleteRemote: 52,
} as const;

/** The AttributeList record type (OTF2_ATTRIBUTE_LIST). */
export const ATTRIBUTE_LIST = 6;

/** OTF2_RmaSyncLevel bits. */
export const SYNC_LEVEL = { none: 0, process: 1, memory: 2 } as const;
/** OTF2_LockType. */
export const LOCK = { exclusive: 0, shared: 1 } as const;
/** OTF2_RmaAtomicType of MPI_Accumulate. */
export const ATOMIC_ACCUMULATE = 0;
/** OTF2_CollectiveOp values of the window collectives (barrier: MPI_Win_fence). */
export const WIN_COLL = { barrier: 0, createHandle: 17, destroyHandle: 18, createHandleAndAllocate: 21, destroyHandleAndDeallocate: 22 } as const;
/** OTF2_RmaWinFlag: the window has RmaWinCreate and RmaWinDestroy events (OTF2 3.0). */
export const WIN_FLAG_CREATE_DESTROY_EVENTS = 1;

/** OTF2_Type values of attributes. */
export const TYPE = { uint32: 3, uint64: 4, string: 11 } as const;

/** phit's attributes: name, OTF2 type, and the description written in the definitions. */
export const ATTRIBUTES = {
  windowBytes: { name: 'phit::window_bytes', type: TYPE.uint64, description: 'bytes of the window this rank exposes (MPI_Win_create size)' },
  dispUnit: { name: 'phit::displacement_unit', type: TYPE.uint32, description: 'the window\'s displacement unit in bytes (MPI_Win_create disp_unit)' },
  displacement: { name: 'phit::displacement', type: TYPE.uint64, description: 'target displacement, in the target window\'s displacement units' },
  elementBytes: { name: 'phit::element_bytes', type: TYPE.uint32, description: 'bytes of one element of the origin datatype (count = bytes / element_bytes)' },
  op: { name: 'phit::op', type: TYPE.string, description: 'the reduction op of an MPI_Accumulate (MPI_SUM, ...)' },
  assert: { name: 'phit::assert', type: TYPE.uint32, description: 'MPI_MODE_* assertions: NOCHECK 1, NOSTORE 2, NOPUT 4, NOPRECEDE 8, NOSUCCEED 16' },
} as const;

/** One of phit's attributes. */
export type PhitAttribute = keyof typeof ATTRIBUTES;
