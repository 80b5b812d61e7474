// MPICH test/mpi/datatype/getpartelm.c: messages that fill a struct { int; char[256] } type only
// partly (an int and 16 chars, an int and 17 chars, an int and "message" packed as MPI_PACKED):
// MPI_Get_elements counts the basic elements received (the int's value + 1) and MPI_Get_count
// gives MPI_UNDEFINED.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function getpartelm(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const comm = mpi;
  const rank = comm.rank;
  const size = comm.size;
  if (size < 2) throw new Error('This test requires at least 2 processes');
  const src = 0;
  const dest = 1;
  const oldtypes = [mpi.INT, mpi.CHAR];
  const offsets = [0, 4];
  if (rank === src) {
    const buf = new Int32Array(128);
    // sender: a struct type of a multiple of sizeof(int) bytes
    let outtype = mpi.typeCreateStruct(2, [1, 4 * 4], offsets, oldtypes);
    mpi.typeCommit(outtype);
    buf[0] = 4 * 4;
    await comm.send(buf, 1, outtype, dest, 0);
    mpi.typeFree(outtype);
    // not a multiple of sizeof(int)
    outtype = mpi.typeCreateStruct(2, [1, 4 * 4 + 1], offsets, oldtypes);
    mpi.typeCommit(outtype);
    buf[0] = 4 * 4 + 1;
    await comm.send(buf, 1, outtype, dest, 1);
    mpi.typeFree(outtype);
    // pack data and send it as packed
    let position = 0;
    const cnt = Int32Array.of(7);
    position = mpi.pack(cnt, 1, mpi.INT, buf, position);
    position = mpi.pack(new TextEncoder().encode('message'), 7, mpi.CHAR, buf, position);
    await comm.send(buf, position, mpi.PACKED, dest, 2);
  } else if (rank === dest) {
    const buf = new Int32Array(128);
    // receiver: a receive struct type
    const outtype = mpi.typeCreateStruct(2, [1, 256], offsets, oldtypes);
    mpi.typeCommit(outtype);
    for (let i = 0; i < 3; i++) {
      const tag = i;
      const status = await comm.recv(buf, 1, outtype, src, tag);
      const elms = mpi.getElements(status, outtype);
      if (elms !== buf[0]! + 1) {
        errs++;
        mt.printf(`For test ${i}, Get elements gave ${elms} but should be ${buf[0]! + 1}`);
      }
      const count = mpi.getCount(status, outtype);
      if (count !== mpi.UNDEFINED) {
        errs++;
        mt.printf('For partial send, Get_count did not return MPI_UNDEFINED');
      }
    }
    mpi.typeFree(outtype);
  }
  return mt.finalize(errs);
}
