/**
 * MPI's error classes with MPICH's numbers (mpi.h), and the text `errorString` gives for each.
 * An MpiError carries its class's name; `code` is its number here.
 */
const CLASSES: readonly (readonly [string, number, string])[] = [
  ['MPI_SUCCESS', 0, 'no MPI error'],
  ['MPI_ERR_BUFFER', 1, 'invalid buffer pointer'],
  ['MPI_ERR_COUNT', 2, 'invalid count argument'],
  ['MPI_ERR_TYPE', 3, 'invalid datatype'],
  ['MPI_ERR_TAG', 4, 'invalid tag'],
  ['MPI_ERR_COMM', 5, 'invalid communicator'],
  ['MPI_ERR_RANK', 6, 'invalid rank'],
  ['MPI_ERR_ROOT', 7, 'invalid root'],
  ['MPI_ERR_GROUP', 8, 'invalid group'],
  ['MPI_ERR_OP', 9, 'invalid reduce operation'],
  ['MPI_ERR_TOPOLOGY', 10, 'invalid topology'],
  ['MPI_ERR_DIMS', 11, 'invalid dimension argument'],
  ['MPI_ERR_ARG', 12, 'invalid argument of some other kind'],
  ['MPI_ERR_UNKNOWN', 13, 'unknown error'],
  ['MPI_ERR_TRUNCATE', 14, 'message truncated'],
  ['MPI_ERR_OTHER', 15, 'other error'],
  ['MPI_ERR_INTERN', 16, 'internal error'],
  ['MPI_ERR_IN_STATUS', 17, 'error code is in status'],
  ['MPI_ERR_PENDING', 18, 'pending request'],
  ['MPI_ERR_REQUEST', 19, 'invalid request'],
  ['MPI_ERR_INFO', 28, 'invalid info object'],
  ['MPI_ERR_INFO_KEY', 29, 'invalid info key'],
  ['MPI_ERR_INFO_VALUE', 30, 'invalid info value'],
  ['MPI_ERR_INFO_NOKEY', 31, 'no such info key'],
  ['MPI_ERR_NO_MEM', 34, 'out of memory'],
  ['MPI_ERR_UNSUPPORTED_OPERATION', 44, 'unsupported operation'],
  ['MPI_ERR_WIN', 45, 'invalid window'],
  ['MPI_ERR_BASE', 46, 'invalid base address'],
  ['MPI_ERR_LOCKTYPE', 47, 'invalid lock type'],
  ['MPI_ERR_KEYVAL', 48, 'invalid keyval'],
  ['MPI_ERR_RMA_CONFLICT', 49, 'conflicting accesses to a window'],
  ['MPI_ERR_RMA_SYNC', 50, 'wrong synchronisation of RMA calls'],
  ['MPI_ERR_SIZE', 51, 'invalid size argument'],
  ['MPI_ERR_DISP', 52, 'invalid displacement argument'],
  ['MPI_ERR_ASSERT', 53, 'invalid assert argument'],
  ['MPI_ERR_RMA_RANGE', 55, 'target memory is not part of the window'],
  ['MPI_ERR_RMA_ATTACH', 56, 'memory cannot be attached'],
  ['MPI_ERR_RMA_SHARED', 57, 'memory cannot be shared'],
  ['MPI_ERR_RMA_FLAVOR', 58, 'the window is of the wrong flavor'],
];

const BY_NAME = new Map(CLASSES.map(([name, code]) => [name, code]));
const BY_CODE = new Map(CLASSES.map(([name, code, text]) => [code, { name, text }]));

/** The class name and meaning of an error code, or undefined. */
export function errorInfo(code: number): { readonly name: string; readonly text: string } | undefined {
  return BY_CODE.get(code);
}

/** The number of an error class named `name` (MPI_ERR_OTHER's for a name MPI does not have). */
export function errorCode(name: string): number {
  return BY_NAME.get(name) ?? BY_NAME.get('MPI_ERR_OTHER')!;
}

/** The MPI error classes by name, as `mpi.ERR_RANK` etc. give them. */
export const ERROR_CODES: Readonly<Record<string, number>> = Object.fromEntries(CLASSES.map(([name, code]) => [name.replace(/^MPI_/, ''), code]));

