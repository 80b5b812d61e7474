// MPICH test/mpi/coll/allgather_struct.c: MPI_Allgather of one struct { int first; long second; }
// per rank as a two-field struct datatype (int at 0, long at 8, as C lays it out), on every
// intracommunicator of MTest with at least 2 ranks.
import type { MTest, MTestResult } from '../mtest.ts';

// sizeof(int_long_t) and the offset of its long on the C ABI (the int padded to the long's alignment)
const SIZEOF = 16;
const SECOND = 8;

export default async function allgatherStruct(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  for await (const comm of mt.intracomms(2, true)) {
    if (!comm) continue;
    const rank = comm.rank;
    const size = comm.size;
    const gathered = new DataView(new ArrayBuffer(size * SIZEOF));
    // local object
    const object = new DataView(new ArrayBuffer(SIZEOF));
    object.setInt32(0, rank, true);
    object.setBigInt64(SECOND, BigInt(rank * 10), true);
    // datatype creation: the displacements of first and second from the object's address
    const type = mpi.typeCreateStruct(2, [1, 1], [0, SECOND], [mpi.INT, mpi.LONG]);
    mpi.typeCommit(type);
    await comm.allgather(object, 1, type, gathered, 1, type);
    for (let i = 0; i < size; i++) {
      if (gathered.getInt32(i * SIZEOF, true) !== i || gathered.getBigInt64(i * SIZEOF + SECOND, true) !== BigInt(i * 10)) errs++;
    }
    mpi.typeFree(type);
  }
  return mt.finalize(errs);
}
