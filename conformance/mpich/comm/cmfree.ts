// MPICH test/mpi/comm/cmfree.c: communicators have reference-count semantics: a receive posted on a
// communicator that is then freed still completes, while 1,020 other communicators come and go.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Comm } from '../../../runtime/mpi/mpi.ts';

const NELM = 128;
const NCOMM = 1020;

export default async function cmfree(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  let comm: Comm | null = await mpi.dup();
  const rank = comm.rank;
  const size = comm.size;
  if (size < 2) throw new Error('This test requires at least two processes.');
  const source = 0;
  const dest = size - 1;
  const tmpComm: Comm[] = [];
  if (rank === dest) {
    const buf = new Int32Array(NELM);
    for (let i = 0; i < NELM; i++) buf[i] = -i;
    const req = comm.irecv(buf, source, 0);
    await comm.free();
    // MPI_Comm_free sets the handle to MPI_COMM_NULL
    comm = null;
    for (let i = 0; i < NCOMM; i++) tmpComm[i] = (await mpi.split(0, size - rank))!;
    await mpi.sendrecv(new Int32Array(0), source, 1, new Int32Array(0), source, 1);
    await mpi.wait(req);
    for (let i = 0; i < NELM; i++) {
      if (buf[i] !== i) {
        errs++;
        if (errs < 10) mt.printf(`buf[${i}] = ${buf[i]}, expected ${i}`);
      }
    }
    for (let i = 0; i < NCOMM; i++) await tmpComm[i]!.free();
  } else if (rank === source) {
    const buf = new Int32Array(NELM);
    for (let i = 0; i < NELM; i++) buf[i] = i;
    for (let i = 0; i < NCOMM; i++) tmpComm[i] = (await mpi.split(0, size - rank))!;
    // synchronize with the receiver
    await mpi.sendrecv(new Int32Array(0), dest, 1, new Int32Array(0), dest, 1);
    await comm.send(buf, dest, 0);
  } else {
    for (let i = 0; i < NCOMM; i++) tmpComm[i] = (await mpi.split(0, size - rank))!;
  }
  await mpi.barrier();
  if (rank !== dest) for (let i = 0; i < NCOMM; i++) await tmpComm[i]!.free();
  if (comm !== null) await comm.free();
  return mt.finalize(errs);
}
