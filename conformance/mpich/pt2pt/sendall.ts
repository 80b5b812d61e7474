// MPICH test/mpi/pt2pt/sendall.c: every rank sends to every other rank, for message lengths of 1
// to 16 Ki ints; completion is all that is asked.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Request } from '../../../runtime/mpi/mpi.ts';

const MAXPES = 32;
const MYBUFSIZE = 16 * 1024;
const NUM_RUNS = 10;

export default async function sendall(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  const self = mpi.rank;
  const npes = mpi.size;
  if (npes > MAXPES) throw new Error(`This program requires a comm_world no larger than ${MAXPES}`);
  const buffer: Int32Array[] = [];
  for (let i = 0; i < MAXPES; i++) buffer[i] = new Int32Array(MYBUFSIZE);
  const request: Request[] = new Array(MAXPES);
  for (let size = 1; size <= MYBUFSIZE; size += size) {
    let secs = -mpi.wtime();
    for (let count = 0; count < NUM_RUNS; count++) {
      await mpi.barrier();
      for (let i = 0; i < npes; i++) if (i !== self) request[i] = mpi.irecv(buffer[i]!.subarray(0, size), i, mpi.ANY_TAG);
      for (let i = 0; i < npes; i++) if (i !== self) await mpi.send(buffer[self]!.subarray(0, size), i, 0);
      for (let i = 0; i < npes; i++) if (i !== self) await mpi.wait(request[i]!);
    }
    await mpi.barrier();
    secs += mpi.wtime();
    if (self === 0) {
      secs = secs / NUM_RUNS;
      mt.printfMsg(1, `length = ${size} ints, ${secs} s per run`);
    }
  }
  // simple completion is all that we normally ask of this program
  return mt.finalize(0);
}
