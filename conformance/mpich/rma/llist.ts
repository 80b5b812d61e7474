// The distributed linked list of MPICH's test/mpi/rma/linked_list*.c: elements of MPI_Alloc_mem'd
// memory attached one by one to a dynamic window, linked by (rank, MPI_Aint address) pointers.
// The C structs as an LP64 compiler lays them out: llist_ptr_t is { int rank; MPI_Aint disp; }
// (rank at byte 0, disp at byte 8, 16 bytes), llist_elem_t { int value; llist_ptr_t next; }
// (value at 0, next.rank at 8, next.disp at 16, 24 bytes). MPI_Get_address of an element becomes
// the address MPI_Win_attach returns (phit's addresses are those of its dynamic windows); an
// MPI_AINT is 8 bytes, here MPI_LONG over a BigInt64Array (phit has no MPI_AINT type).
import type { Mpi, Win } from '../../../runtime/mpi/mpi.ts';
import { assert, type MTest } from '../mtest.ts';

/** A linked-list pointer (llist_ptr_t): the rank holding the element and its address there. */
export interface LlistPtr {
  readonly rank: number;
  readonly disp: number;
}

/** The null pointer (nil: rank -1, MPI_BOTTOM). */
export const NIL: LlistPtr = { rank: -1, disp: 0 };
/** sizeof(llist_ptr_t). */
export const PTR_BYTES = 16;
/** sizeof(llist_elem_t). */
export const ELEM_BYTES = 24;
/** offsetof(llist_elem_t, next): next.rank. */
export const NEXT_RANK = 8;
/** offsetof(llist_elem_t, next.disp). */
export const NEXT_DISP = 16;

/** A pointer as the 16 bytes of an llist_ptr_t (padding zeroed, as MTEST_VG_MEM_INIT does). */
export function ptrBytes(p: LlistPtr): Uint8Array {
  const b = new Uint8Array(PTR_BYTES);
  const v = new DataView(b.buffer);
  v.setInt32(0, p.rank, true);
  v.setBigInt64(8, BigInt(p.disp), true);
  return b;
}

/** The pointer held in the 16 bytes of an llist_ptr_t at `offset` of `b`. */
export function readPtr(b: Uint8Array, offset = 0): LlistPtr {
  const v = new DataView(b.buffer, b.byteOffset + offset, PTR_BYTES);
  return { rank: v.getInt32(0, true), disp: Number(v.getBigInt64(8, true)) };
}

/** The elements this rank allocated (alloc_elem's my_elems), to free once the window is gone. */
export class LocalElems {
  private readonly elems: Uint8Array[] = [];

  constructor(
    private readonly mpi: Mpi,
    private readonly win: Win,
  ) {}

  /** alloc_elem: a new element of `value` pointing at nil, attached to the window; returns its address. */
  alloc(value: number): number {
    const elem = this.mpi.allocMem(ELEM_BYTES, this.mpi.INFO_NULL);
    const v = new DataView(elem.buffer, elem.byteOffset, ELEM_BYTES);
    v.setInt32(0, value, true);
    elem.set(ptrBytes(NIL), NEXT_RANK);
    const disp = this.win.attach(elem);
    this.elems.push(elem);
    return disp;
  }

  /** MPI_Free_mem of every element, the last allocated first. */
  freeAll(): void {
    while (this.elems.length > 0) this.mpi.freeMem(this.elems.pop()!);
  }
}

/**
 * Rank 0's check: walks the list from `head`, reading each element with `fetch` (the test's own
 * synchronisation around an MPI_Get of the element's bytes), and counts the elements of each
 * rank; with `hasRoot` the first element is the root (value -1), not counted. Each rank must have
 * inserted `expected(rank)`; returns the errors, printing each as the C test does.
 */
export async function checkList(mt: MTest, head: LlistPtr, hasRoot: boolean, expected: (rank: number) => number, fetch: (p: LlistPtr, elem: Uint8Array) => Promise<void>): Promise<number> {
  const nproc = mt.mpi.size;
  const counts = new Array<number>(nproc).fill(0);
  let haveRoot = !hasRoot;
  let tail = head;
  const elem = new Uint8Array(ELEM_BYTES);
  while (tail.disp !== NIL.disp) {
    await fetch(tail, elem);
    const value = new DataView(elem.buffer).getInt32(0, true);
    tail = readPtr(elem, NEXT_RANK);
    if (haveRoot) {
      assert(value >= 0 && value < nproc, 'elem.value >= 0 && elem.value < nproc');
      counts[value]!++;
    } else {
      assert(value === -1, 'elem.value == -1');
      haveRoot = true;
    }
  }
  let errs = 0;
  for (let i = 0; i < nproc; i++) {
    if (counts[i] !== expected(i)) {
      mt.printf(`Error: Rank ${i} inserted ${counts[i]} elements, expected ${expected(i)}`);
      errs++;
    }
  }
  return errs;
}
