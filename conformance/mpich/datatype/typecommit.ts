// MPICH test/mpi/datatype/typecommit.c: a struct of 256 of each pair type (MPI_FLOAT_INT,
// MPI_DOUBLE_INT, MPI_LONG_INT, MPI_SHORT_INT, MPI_2INT) and 256 bytes commits and frees. The C
// test places the two blocks at the addresses 0x1 and 0x2 (MPI_Get_address): displacements 1
// and 2 here. (No long double in TypeScript: MPI_LONG_DOUBLE_INT is left out, as C does when the
// type is absent.)
import type { MTest, MTestResult } from '../mtest.ts';
import type { Datatype } from '../../../runtime/mpi/mpi.ts';

export default async function typecommit(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const errs = 0;
  const foo = (sendbuf: number, sendtype: Datatype, recvbuf: number, _recvtype: Datatype): void => {
    const blocks = [256, 256];
    const structDispls = [sendbuf, recvbuf];
    const types = [sendtype, mpi.BYTE];
    const tmpType = mpi.typeCreateStruct(2, blocks, structDispls, types);
    mpi.typeCommit(tmpType);
    mpi.typeFree(tmpType);
  };
  foo(0x1, mpi.FLOAT_INT, 0x2, mpi.BYTE);
  foo(0x1, mpi.DOUBLE_INT, 0x2, mpi.BYTE);
  foo(0x1, mpi.LONG_INT, 0x2, mpi.BYTE);
  foo(0x1, mpi.SHORT_INT, 0x2, mpi.BYTE);
  foo(0x1, mpi.TWO_INT, 0x2, mpi.BYTE);
  return mt.finalize(errs);
}
