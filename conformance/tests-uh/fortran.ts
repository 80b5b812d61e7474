import type { Symmetric } from '../../runtime/shmem/shmem.ts';
import type { ShmemTest } from '../shmem/harness.ts';
import { ctype, type CType } from '../shmem/ctypes.ts';

/**
 * What the ports of tests-uh's Fortran feature tests share: the Fortran types of their type
 * variants (the `_int4`, `_real8`, `_char`, ... suffix of each test) as phit's typed calls take
 * them, the variant number (`_01` SAVE variables, `_02` COMMON blocks, `_03` shpalloc'd memory:
 * all symmetric, so one port serves the three), and the Fortran binding's shpalloc.
 */
export type FType = 'int4' | 'int8' | 'real4' | 'real8' | 'double' | 'char' | 'logical';

export interface FortranType {
  /** The C type of the same size and kind (logical: Fortran's default 4-byte LOGICAL). */
  readonly T: CType;
  /** The type as the tests spell it in their messages (`integer*4`, `double precision`). */
  readonly fname: string;
  /** Its 32-bit words (shpalloc's unit). */
  readonly words: number;
}

export const FTYPES: Readonly<Record<FType, FortranType>> = {
  int4: { T: ctype('int32_t'), fname: 'integer*4', words: 1 },
  int8: { T: ctype('int64_t'), fname: 'integer*8', words: 2 },
  real4: { T: ctype('float'), fname: 'real*4', words: 1 },
  real8: { T: ctype('double'), fname: 'real*8', words: 2 },
  double: { T: ctype('double'), fname: 'double precision', words: 2 },
  char: { T: ctype('char'), fname: 'character', words: 0.25 },
  logical: { T: ctype('int32_t'), fname: 'logical', words: 1 },
};

/** Fortran's .TRUE. and .FALSE. in a LOGICAL (gfortran's values). */
export const TRUE = 1;
export const FALSE = 0;

/** The family, variant and type of a test name such as `test_shmem_add_03_int8`. */
export function parseName(name: string): { family: string; variant: string; type: FType } {
  const m = /^(.*)_(\d\d)_(int4|int8|real4|real8|double|char|logical)$/.exec(name);
  if (!m) throw new Error(`not a typed Fortran test name: ${name}`);
  return { family: m[1]!, variant: m[2]!, type: m[3] as FType };
}

/**
 * The Fortran binding's `shpalloc(ptr, length, errcode, abort)`: `length` 32-bit words of the
 * symmetric heap (collective, as shmem_malloc), errcode 0; -1 and no allocation when `length`
 * is not positive, -2 when the heap has no room for it (shmem_malloc gives null: the heap's
 * bound, `dmapp.symmetricSize`), as the Cray man page and SOS's binding say. phit's SHMEM has no
 * Fortran binding: this is that binding's own check in front of `shmem.malloc`.
 */
export async function shpalloc(t: ShmemTest, length: number): Promise<{ ptr: Symmetric | null; errcode: number }> {
  if (!(length > 0)) return { ptr: null, errcode: -1 };
  const ptr: Symmetric | null = await t.shmem.malloc(Math.ceil(length * 4));
  return ptr === null ? { ptr, errcode: -2 } : { ptr, errcode: 0 };
}

/** `shpdeallc(ptr, errcode, abort)`: frees what shpalloc gave. */
export async function shpdeallc(t: ShmemTest, ptr: Symmetric | null): Promise<void> {
  if (ptr) await t.shmem.free(ptr);
}
