// MPICH test/mpi/pt2pt/sendrecv3.c: head to head send-recv to test backoff in the device when
// large messages are being transferred (with -isendrecv, the handshake is an MPI_Isendrecv).
import type { MTest, MTestResult } from '../mtest.ts';
import type { Request } from '../../../runtime/mpi/mpi.ts';

const MAX_NMSGS = 100;

export default async function sendrecv3(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const msgsizes = [100, 1000, 10000, 100000, -1];
  const nmsgs = [100, 10, 10, 4];
  const useIsendrecv = mt.argv[0] === '-isendrecv';
  const comm = mpi.COMM_WORLD;
  const rank = comm.rank;
  const size = comm.size;
  const source = 0;
  const dest = 1;
  if (size < 2) throw new Error('This test requires at least 2 processes');
  for (let testnum = 0; msgsizes[testnum]! > 0; testnum++) {
    if (rank === source || rank === dest) {
      const nmsg = nmsgs[testnum]!;
      const msgSize = msgsizes[testnum]!;
      const r: Request[] = new Array(MAX_NMSGS + 1);
      const buf: Int32Array[] = [];
      for (let i = 0; i < nmsg; i++) buf[i] = new Int32Array(msgSize);
      const partner = (rank + 1) % size;
      let numRequests: number;
      if (useIsendrecv) {
        r[nmsg] = comm.isendrecv(new Int32Array(0), partner, 10, new Int32Array(0), partner, 10);
        numRequests = nmsg + 1;
      } else {
        await comm.sendrecv(new Int32Array(0), partner, 10, new Int32Array(0), partner, 10);
        numRequests = nmsg;
      }
      // try to fill up the outgoing message buffers
      for (let i = 0; i < nmsg; i++) r[i] = comm.isend(buf[i]!, partner, testnum);
      for (let i = 0; i < nmsg; i++) await comm.recv(buf[i]!, partner, testnum);
      await comm.waitAll(r.slice(0, numRequests));

      // repeat the test, but make one of the processes sleep
      if (useIsendrecv) r[nmsg] = comm.isendrecv(new Int32Array(0), partner, 10, new Int32Array(0), partner, 10);
      else await comm.sendrecv(new Int32Array(0), partner, 10, new Int32Array(0), partner, 10);
      if (rank === dest) await mt.sleep(1);
      let tsend = mpi.wtime();
      for (let i = 0; i < nmsg; i++) r[i] = comm.isend(buf[i]!, partner, testnum);
      tsend = mpi.wtime() - tsend;
      for (let i = 0; i < nmsg; i++) await comm.recv(buf[i]!, partner, testnum);
      await comm.waitAll(r.slice(0, numRequests));
      if (tsend > 0.5) {
        mt.printf(`Isends for ${nmsg} messages of size ${msgSize} took too long (${tsend} seconds)`);
        errs++;
      }
      mt.printfMsg(1, `${nmsg} Isends for size = ${msgSize} took ${tsend} seconds`);
    }
  }
  return mt.finalize(errs);
}
