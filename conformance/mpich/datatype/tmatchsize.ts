// MPICH test/mpi/datatype/tmatchsize.c: MPI_Type_match_size gives, for the sizes of C's float,
// double, long double, short, int, long and long long, a type of that size (errors returned, not
// fatal). The complex cases run only where Fortran's MPI_COMPLEX exists; phit has no Fortran
// types (MPI_COMPLEX is MPI_DATATYPE_NULL there), so they are skipped as the C test skips them.
import type { MTest, MTestResult } from '../mtest.ts';
import { MpiError, type Datatype } from '../../../runtime/mpi/mpi.ts';

/** sizeof of C's types on x86-64 Linux. */
const SIZEOF = { float: 4, double: 8, longDouble: 16, short: 2, int: 4, long: 8, longLong: 8 };

export default async function tmatchsize(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  mpi.setErrhandler(mpi.ERRORS_RETURN);
  const check = (label: string, typeclass: number, size: number, what: string): void => {
    let newtype: Datatype;
    try {
      newtype = mpi.typeMatchSize(typeclass, size);
    } catch (e) {
      if (!(e instanceof MpiError)) throw e;
      errs++;
      mt.printf(`${label}: `);
      mt.printError(e.code);
      return;
    }
    const dsize = mpi.typeSize(newtype);
    if (dsize !== size) {
      errs++;
      mt.printf(`Unexpected size for ${what} (${dsize} != ${size})`);
    }
  };
  check('Float', mpi.TYPECLASS_REAL, SIZEOF.float, 'float');
  check('Double', mpi.TYPECLASS_REAL, SIZEOF.double, 'double');
  check('Long double', mpi.TYPECLASS_REAL, SIZEOF.longDouble, 'long double');
  check('Short', mpi.TYPECLASS_INTEGER, SIZEOF.short, 'short');
  check('Int', mpi.TYPECLASS_INTEGER, SIZEOF.int, 'int');
  check('Long', mpi.TYPECLASS_INTEGER, SIZEOF.long, 'long');
  check('Long long', mpi.TYPECLASS_INTEGER, SIZEOF.longLong, 'long long');
  return mt.finalize(errs);
}
