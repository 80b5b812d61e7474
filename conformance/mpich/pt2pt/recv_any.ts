// MPICH test/mpi/pt2pt/recv_any.c: MPI_Recv with MPI_ANY_SOURCE, checking the data and
// status.MPI_SOURCE in every iteration. Built with TEST_NB it is irecv_any (MPI_Irecv + MPI_Wait).
import type { MTest, MTestResult } from '../mtest.ts';
import type { Status } from '../../../runtime/mpi/mpi.ts';

const BUFSIZE = 4;
const ITER = 10;

/** recv_any, or irecv_any with `nonblocking`. */
export async function recvAny(mt: MTest, nonblocking: boolean): Promise<MTestResult> {
  const { mpi } = mt;
  const rank = mpi.rank;
  const sbuf = new Int32Array(BUFSIZE);
  const rbuf = new Int32Array(BUFSIZE);
  for (let i = 0; i < BUFSIZE; i++) sbuf[i] = i + 1;
  const dst = 0;
  const src = 1;
  // the buffers go as 4 * BUFSIZE MPI_CHAR
  const rbytes = new Uint8Array(rbuf.buffer);
  const sbytes = new Uint8Array(sbuf.buffer);
  for (let x = 0; x < ITER; x++) {
    const tag = x;
    if (rank === dst) {
      let stat: Status;
      if (nonblocking) {
        const req = mpi.irecv(rbytes, mpi.ANY_SOURCE, tag);
        stat = await mpi.wait(req);
      } else {
        stat = await mpi.recv(rbytes, mpi.ANY_SOURCE, tag);
      }
      if (stat.source !== src) throw new Error(`[${rank}] Error: iter ${x}, stat.MPI_SOURCE=${stat.source}, expected ${src}`);
      for (let i = 0; i < BUFSIZE; i++) {
        if (rbuf[i] !== i + 1) throw new Error(`[${rank}] Error: iter ${x}, got rbuf[${i}]=${rbuf[i]}, expected ${i + 1}`);
      }
    } else if (rank === src) {
      await mpi.send(sbytes, dst, tag);
    }
  }
  return mt.finalize(0);
}

export default function recvAnyBlocking(mt: MTest): Promise<MTestResult> {
  return recvAny(mt, false);
}
