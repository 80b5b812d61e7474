// MPICH test/mpi/comm/probe_intercomm.c: MPI_Probe on MTest's intercommunicators: rank 0 of the
// right group sends "test" to rank 0 of the left group, which probes it, checks its length and
// receives it.
import type { MTest, MTestResult } from '../mtest.ts';

const MAX_DATA_LEN = 100;

/** The C string at the start of `buf` (up to its first NUL). */
const cstr = (buf: Uint8Array): string => {
  const end = buf.indexOf(0);
  return new TextDecoder().decode(buf.subarray(0, end < 0 ? buf.length : end));
};

export default async function probeIntercomm(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const buf = new Uint8Array(MAX_DATA_LEN);
  const testStr = 'test';
  if (mpi.size < 2) throw new Error('This test requires at least two processes.');
  for await (const { comm: intercomm, isLeftGroup: isLeft } of mt.intercomms(2)) {
    if (!intercomm) continue;
    const rank = intercomm.rank;
    // the 0 ranks on each side communicate, everyone else does nothing
    if (rank === 0) {
      if (isLeft) {
        const status = await intercomm.probe(0, 0);
        const recvlen = mpi.getCount(status, mpi.CHAR);
        if (recvlen !== testStr.length + 1) {
          mt.printf(` Error: recvlen (${recvlen}) != strlen("${testStr}")+1 (${testStr.length + 1})`);
          ++errs;
        }
        buf[0] = 0;
        await intercomm.recv(buf, recvlen, mpi.CHAR, 0, 0);
        if (cstr(buf) !== testStr) {
          mt.printf(' Error: strcmp(test_str,buf)!=0');
          ++errs;
        }
      } else {
        buf.set(new TextEncoder().encode(testStr + '\0'));
        await intercomm.send(buf, cstr(buf).length + 1, mpi.CHAR, 0, 0);
      }
    }
  }
  return mt.finalize(errs);
}
