// MPICH test/mpi/datatype/get_elements.c: MPI_Get_elements of a contiguous type of one struct
// { char a; short b; int c; } (offsets 0, 2, 4) sent to self is 3.
import { assert, type MTest, type MTestResult } from '../mtest.ts';

export default async function getElements(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  // a contig of a struct: more than one element type, and an odd number of ints in its "type
  // contents" (1), which triggered a bug in some versions of MPICH
  const blens = [1, 1, 1];
  const displs = [0, 2, 4];
  const types = [mpi.CHAR, mpi.SHORT, mpi.INT];
  const structType = mpi.typeCreateStruct(3, blens, displs, types);
  const contig = mpi.typeContiguous(1, structType);
  mpi.typeCommit(structType);
  mpi.typeCommit(contig);
  const sendbuf = new DataView(new ArrayBuffer(8));
  const recvbuf = new DataView(new ArrayBuffer(8));
  sendbuf.setInt8(0, 20);
  sendbuf.setInt16(2, 30, true);
  sendbuf.setInt32(4, 40, true);
  recvbuf.setInt8(0, -1);
  recvbuf.setInt16(2, -1, true);
  recvbuf.setInt32(4, -1, true);
  // send to ourself
  const status = await mpi.COMM_SELF.sendrecv(sendbuf, 1, contig, 0, 0, recvbuf, 1, contig, 0, 0);
  // sanity
  assert(sendbuf.getInt8(0) === recvbuf.getInt8(0), 'sendbuf.a == recvbuf.a');
  assert(sendbuf.getInt16(2, true) === recvbuf.getInt16(2, true), 'sendbuf.b == recvbuf.b');
  assert(sendbuf.getInt32(4, true) === recvbuf.getInt32(4, true), 'sendbuf.c == recvbuf.c');
  // MPI_Get_elements gives the right answer and the library does not explode
  const count = mpi.getElements(status, contig);
  mpi.typeFree(structType);
  mpi.typeFree(contig);
  if (count !== 3) {
    mt.printf(`unexpected value for count, expected 3, got ${count}`);
    errs++;
  }
  return mt.finalize(errs);
}
