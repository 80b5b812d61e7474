// The window of the rma tests that MPICH builds twice, once plain and once with -DUSE_WIN_ALLOCATE
// (the _shm builds): MPI_Win_create over the test's buffer, or MPI_Win_allocate of as many bytes.
import type { Comm, Mpi, Win } from '../../../runtime/mpi/mpi.ts';

type Typed = Uint8Array | Int32Array | Float64Array;

/** A window of `buf`'s size and `dispUnit`: over `buf`, or (allocate) over library memory viewed as `buf`'s type. */
export async function winOver<T extends Typed>(comm: Comm, allocate: boolean, buf: T, dispUnit: number): Promise<{ win: Win; mem: T }> {
  if (!allocate) return { win: await comm.winCreate(buf, dispUnit, null), mem: buf };
  const { win, buf: bytes } = await comm.winAllocate(buf.byteLength, dispUnit, null);
  const Ctor = buf.constructor as new (b: ArrayBufferLike, o: number, n: number) => T;
  return { win, mem: new Ctor(bytes.buffer, bytes.byteOffset, buf.length) };
}

/** `n` ints from MPI_Alloc_mem (the _am builds) or from the program (malloc, an array). */
export function ints(mpi: Mpi, n: number, am: boolean): Int32Array {
  if (!am) return new Int32Array(n);
  const mem = mpi.allocMem(4 * n, null);
  return new Int32Array(mem.buffer, mem.byteOffset, n);
}
