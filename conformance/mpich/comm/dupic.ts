// MPICH test/mpi/comm/dupic.c: MPI_Comm_dup of MTest's intercommunicators gives a separate context
// (a message on the original does not complete a receive posted on the copy), and a dup of the
// dup works.
import type { MTest, MTestResult } from '../mtest.ts';

export default async function dupic(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  for await (const { comm } of mt.intercomms(2)) {
    if (!comm) continue;
    const dupcomm = await comm.dup();
    // separate contexts: receives posted on both communicators, a message sent on one; a test on
    // the other must find no message
    const rank = comm.rank;
    if (rank === 0) {
      const s1buf = Int32Array.of(456);
      const s2buf = Int32Array.of(17);
      const r1buf = Int32Array.of(-1);
      const r2buf = Int32Array.of(-1);
      // to and from rank zero of the other group
      const rreq = [dupcomm.irecv(r1buf, 0, 0), comm.irecv(r2buf, 0, 0)];
      await comm.send(s2buf, 0, 0);
      const done = await mpi.waitSome(rreq);
      const indices = done === mpi.UNDEFINED ? [] : done.map((c) => c.index);
      const count = done === mpi.UNDEFINED ? mpi.UNDEFINED : done.length;
      if (count !== 1 || indices[0] !== 1) {
        // the only valid return is that exactly one message has been received
        errs++;
        if (count === 1 && indices[0] !== 1) mt.printf('Error in context values for intercomm');
        else if (count === 2) mt.printf('Error: two messages received!');
        else mt.printf(`Error: count = ${count}${indices.map((x, i) => ` indices[${i}] = ${x}`).join('')}`);
      }
      // do not send the next message until rank zero of the other group has done the first step
      await comm.sendrecv(new Uint8Array(0), 0, 37, new Uint8Array(0), 0, 37);
      // complete the receive on dupcomm
      await dupcomm.send(s1buf, 0, 0);
      await mpi.wait(rreq[0]!);
      if (r1buf[0] !== s1buf[0]) {
        errs++;
        mt.printf(`Wrong value in communication on dupcomm ${r1buf[0]} != ${s1buf[0]}`);
      }
      if (r2buf[0] !== s2buf[0]) {
        errs++;
        mt.printf(`Wrong value in communication on comm ${r2buf[0]} != ${s2buf[0]}`);
      }
    }
    // a dup of a dup'ed intercommunicator (this caused problems with some MPIs)
    const dupcomm2 = await dupcomm.dup();
    await dupcomm2.free();
    await dupcomm.free();
  }
  return mt.finalize(errs);
}
