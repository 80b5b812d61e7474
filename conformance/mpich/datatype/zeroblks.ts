// MPICH test/mpi/datatype/zeroblks.c: MPI_Pack and MPI_Unpack of an indexed type whose first block
// is empty: only the last 40 ints move.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function zeroblks(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const sendBuffer = new Int32Array(60);
  const recvBuffer = new Int32Array(60);
  const packBuffer = new Int32Array(1000);
  for (let i = 0; i < 60; i++) {
    sendBuffer[i] = i;
    recvBuffer[i] = -1;
    packBuffer[i] = -2;
  }
  // an indexed type with an empty first block
  const type = mpi.typeCommit(mpi.typeIndexed(2, [0, 40], [0, 20], mpi.INT));
  const packSize = mpi.pack(sendBuffer, 1, type, packBuffer, 0);
  mpi.unpack(new Uint8Array(packBuffer.buffer, 0, packSize), 0, recvBuffer, 1, type);
  // the last 40 entries of recvBuffer have the send buffer's elements
  for (let i = 0; i < 20; i++) {
    if (recvBuffer[i] !== -1) {
      errs++;
      mt.printf(`recv_buffer[${i}] = ${recvBuffer[i]}, should = -1`);
    }
  }
  for (let i = 20; i < 60; i++) {
    if (recvBuffer[i] !== i) {
      errs++;
      mt.printf(`recv_buffer[${i}] = ${recvBuffer[i]}, should = ${i}`);
    }
  }
  mpi.typeFree(type);
  return mt.finalize(errs);
}
