// MPICH test/mpi/datatype/dataalign2.c: for each predefined C type T, the struct type { MPI_CHAR
// at 0, a dup of T at offsetof(struct { char a; T b; }, b) } has the extent sizeof(struct { char
// a; T b; }), the padding C adds after the last member.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Datatype } from '../../../runtime/mpi/mpi.ts';

/**
 * offsetof(b) and sizeof of struct { char a; T b; } for each T the test names, on x86-64 Linux
 * (System V AMD64 ABI §3.1.2: b sits at T's alignment; the size rounds up to it).
 */
const LAYOUT = [
  ['CHAR', 1, 2],
  ['SHORT', 2, 4],
  ['INT', 4, 8],
  ['LONG', 8, 16],
  ['FLOAT', 4, 8],
  ['DOUBLE', 8, 16],
  ['LONG_DOUBLE', 16, 32],
  ['INT8_T', 1, 2],
  ['INT16_T', 2, 4],
  ['INT32_T', 4, 8],
  ['INT64_T', 8, 16],
  ['AINT', 8, 16],
  ['COUNT', 8, 16],
  ['OFFSET', 8, 16],
  ['C_BOOL', 1, 2],
  ['C_COMPLEX', 4, 12],
  ['C_DOUBLE_COMPLEX', 8, 24],
  ['C_LONG_DOUBLE_COMPLEX', 16, 48],
] as const;

export default async function dataalign2(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const blklens = [1, 1];
  const displs = [0, 0];
  const types: Datatype[] = [mpi.CHAR, mpi.CHAR];
  for (const [name, offset, size] of LAYOUT) {
    displs[1] = offset;
    types[1] = mpi.typeDup(mpi[name]);
    const newtype = mpi.typeCreateStruct(2, blklens, displs, types);
    const { extent } = mpi.typeGetExtent(newtype);
    if (extent !== size) {
      mt.printf(`Wrong extent with struct ${name}, expect ${size}, got ${extent}`);
      errs++;
    }
    mpi.typeFree(types[1]);
    mpi.typeFree(newtype);
  }
  return mt.finalize(errs);
}
