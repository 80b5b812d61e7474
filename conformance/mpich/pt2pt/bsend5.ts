// MPICH test/mpi/pt2pt/bsend5.c: MPI_Bsend on an intercommunicator of the even and the odd ranks:
// every rank sends 10 messages of 10 ints (tags 27 to 36) to rank 0 of the other group, which
// receives them by source and tag and checks tag, source and data.
import type { MTest, MTestResult } from '../mtest.ts';

const BUFSIZE = 2000;

export default async function bsend5(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const a = new Int32Array(10);
  const b = new Int32Array(10);
  let rank = mpi.rank;
  const color = rank % 2;
  const scomm = (await mpi.split(color, rank))!;
  const comm = await scomm.intercommCreate(0, mpi, 1 - color, 52);
  rank = comm.rank;
  const size = comm.remoteSize;
  // MPI_Buffer_attach of an int buf[BUFSIZE] passes BUFSIZE bytes
  mpi.bufferAttach(BUFSIZE);
  for (let j = 0; j < 10; j++) {
    for (let i = 0; i < 10; i++) a[i] = (rank + 10 * j) * size + i;
    await comm.bsend(a, 0, 27 + j);
  }
  if (rank === 0) {
    for (let i = 0; i < size; i++) {
      for (let j = 0; j < 10; j++) {
        const status = await comm.recv(b, i, 27 + j);
        if (status.tag !== 27 + j) {
          errs++;
          mt.printf(`Wrong tag = ${status.tag}`);
        }
        if (status.source !== i) {
          errs++;
          mt.printf(`Wrong source = ${status.source}`);
        }
        for (let k = 0; k < 10; k++) {
          if (b[k] !== (i + 10 * j) * size + k) {
            errs++;
            mt.printf(`received b[${k}] = ${b[k]} from ${i} tag ${27 + j}`);
          }
        }
      }
    }
  }
  await mpi.bufferDetach();
  await scomm.free();
  await comm.free();
  return mt.finalize(errs);
}
