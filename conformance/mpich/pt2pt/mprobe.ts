// MPICH test/mpi/pt2pt/mprobe.c: matched probes between ranks 0 and 1: mprobe or improbe with mrecv
// or imrecv of 2 ints (send and ssend), the same on MPI_PROC_NULL (MPI_MESSAGE_NO_PROC, an empty
// status, the buffer untouched), 512 x 512 ints contiguous and as a vector, a 2-int vector, the
// order against a plain receive, zero ints and a zero-size type. phit's statuses have no MPI_ERROR
// field and its messages no handle that MPI_Mrecv sets to MPI_MESSAGE_NULL, so the C's checks of
// those are not made; the Fortran handle conversions (MPI_Message_c2f/f2c) have no counterpart.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Datatype, Message, Status } from '../../../runtime/mpi/mpi.ts';

const LARGE_DIM = 512;
const LARGE_SZ = LARGE_DIM * LARGE_DIM;
// C ints
const DEADBEEF = 0xdeadbeef | 0;
const FEEDFACE = 0xfeedface | 0;
const X01234567 = 0x01234567;
const X89ABCDEF = 0x89abcdef | 0;

export default async function mprobe(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const rank = mpi.rank;
  // the C's check(): counts and prints a condition that does not hold
  const check = (cond: boolean, what: string): void => {
    if (!cond) {
      errs++;
      mt.printf(`check failed: (${what})`);
    }
  };
  // MPI_Abort
  if (mpi.size < 2) throw new Error('this test requires at least 2 processes');
  // all processes besides ranks 0 & 1 aren't used by this test
  if (rank >= 2) return mt.finalize(errs);

  const sendbuf = new Int32Array(LARGE_SZ);
  const recvbuf = new Int32Array(LARGE_SZ);

  /** Rank 1's matched probe of (source, tag): mprobe, or improbe until it finds the message. */
  const probe = async (source: number, tag: number, how: 'm' | 'i'): Promise<{ message: Message; status: Status }> => {
    if (how === 'm') return mpi.mprobe(source, tag);
    for (;;) {
      const got = await mpi.improbe(source, tag);
      if (got) return got;
    }
  };
  /** Rank 1's receive of the matched message: mrecv, or imrecv and a wait. */
  const receive = async (count: number, type: Datatype, message: Message, how: 'm' | 'i'): Promise<Status> => (how === 'm' ? mpi.mrecv(recvbuf, count, type, message) : mpi.wait(mpi.imrecv(recvbuf, count, type, message)));

  // tests 0-3 and 8: 2 ints, mprobe or improbe, mrecv or imrecv (test 8 with ssend)
  const twoInts: [string, 'm' | 'i', 'm' | 'i', boolean][] = [
    ['test 0: simple send & mprobe+mrecv', 'm', 'm', false],
    ['test 1: simple send & mprobe+imrecv', 'm', 'i', false],
    ['test 2: simple send & improbe+mrecv', 'i', 'm', false],
    ['test 3: simple send & improbe+imrecv', 'i', 'i', false],
  ];
  const runTwoInts = async ([, p, r, sync]: [string, 'm' | 'i', 'm' | 'i', boolean]): Promise<void> => {
    if (rank === 0) {
      sendbuf[0] = DEADBEEF;
      sendbuf[1] = FEEDFACE;
      if (sync) await mpi.ssend(sendbuf, 2, mpi.INT, 1, 5);
      else await mpi.send(sendbuf, 2, mpi.INT, 1, 5);
      return;
    }
    const { message, status: s1 } = await probe(0, 5, p);
    check(s1.source === 0, 's1.MPI_SOURCE == 0');
    check(s1.tag === 5, 's1.MPI_TAG == 5');
    const count = mpi.getCount(s1, mpi.INT);
    check(count === 2, 'count == 2');
    recvbuf[0] = X01234567;
    recvbuf[1] = X89ABCDEF;
    const s2 = await receive(count, mpi.INT, message, r);
    check(recvbuf[0] === DEADBEEF, 'recvbuf[0] == 0xdeadbeef');
    check(recvbuf[1] === FEEDFACE, 'recvbuf[1] == 0xfeedface');
    check(s2.source === 0, 's2.MPI_SOURCE == 0');
    check(s2.tag === 5, 's2.MPI_TAG == 5');
  };
  for (const t of twoInts) await runTwoInts(t);

  // tests 4-7: MPI_PROC_NULL, on both ranks
  for (const [p, r] of [
    ['m', 'm'],
    ['m', 'i'],
    ['i', 'm'],
    ['i', 'i'],
  ] as const) {
    // improbe of PROC_NULL finds the message at once (check(found))
    const got = p === 'm' ? await mpi.mprobe(mpi.PROC_NULL, 5) : await mpi.improbe(mpi.PROC_NULL, 5);
    check(got !== null, 'found');
    if (!got) continue;
    const { message, status: s1 } = got;
    check(s1.source === mpi.PROC_NULL, 's1.MPI_SOURCE == MPI_PROC_NULL');
    check(s1.tag === mpi.ANY_TAG, 's1.MPI_TAG == MPI_ANY_TAG');
    check(message === mpi.MESSAGE_NO_PROC, 'msg == MPI_MESSAGE_NO_PROC');
    let count = mpi.getCount(s1, mpi.INT);
    check(count === 0, 'count == 0');
    recvbuf[0] = X01234567;
    recvbuf[1] = X89ABCDEF;
    let s2: Status;
    if (r === 'm') s2 = await mpi.mrecv(recvbuf, count, mpi.INT, message);
    else {
      const rreq = mpi.imrecv(recvbuf, count, mpi.INT, message);
      // a single test should always succeed
      check(await mpi.test(rreq), 'completed');
      // phit's test leaves the status for one wait
      s2 = await mpi.wait(rreq);
    }
    // recvbuf should remain unmodified
    check(recvbuf[0] === X01234567, 'recvbuf[0] == 0x01234567');
    check(recvbuf[1] === X89ABCDEF, 'recvbuf[1] == 0x89abcdef');
    // should get back "proc null status"
    check(s2.source === mpi.PROC_NULL, 's2.MPI_SOURCE == MPI_PROC_NULL');
    check(s2.tag === mpi.ANY_TAG, 's2.MPI_TAG == MPI_ANY_TAG');
    count = mpi.getCount(s2, mpi.INT);
    check(count === 0, 'count == 0');
  }

  // test 8: simple ssend & mprobe+mrecv
  await runTwoInts(['test 8', 'm', 'm', true]);

  // test 9: mprobe+mrecv LARGE
  if (rank === 0) {
    for (let i = 0; i < LARGE_SZ; i++) sendbuf[i] = i;
    await mpi.send(sendbuf, LARGE_SZ, mpi.INT, 1, 5);
  } else {
    const { message, status: s1 } = await mpi.mprobe(0, 5);
    check(s1.source === 0 && s1.tag === 5, 's1.MPI_SOURCE == 0 && s1.MPI_TAG == 5');
    const count = mpi.getCount(s1, mpi.INT);
    check(count === LARGE_SZ, 'count == LARGE_SZ');
    recvbuf.fill(-1);
    const s2 = await mpi.mrecv(recvbuf, count, mpi.INT, message);
    let bad = 0;
    for (let i = 0; i < LARGE_SZ; i++) if (recvbuf[i] !== i) bad++;
    check(bad === 0, 'recvbuf[i] == i');
    check(s2.source === 0 && s2.tag === 5, 's2.MPI_SOURCE == 0 && s2.MPI_TAG == 5');
  }

  // test 10: mprobe+mrecv noncontiguous datatype
  let vectype = mpi.typeCommit(mpi.typeVector(2, 1, 4, mpi.INT));
  if (rank === 0) {
    sendbuf.fill(0, 0, 8);
    sendbuf[0] = DEADBEEF;
    sendbuf[4] = FEEDFACE;
    await mpi.send(sendbuf, 1, vectype, 1, 5);
  } else {
    const { message, status: s1 } = await mpi.mprobe(0, 5);
    check(s1.source === 0 && s1.tag === 5, 's1.MPI_SOURCE == 0 && s1.MPI_TAG == 5');
    check(mpi.getCount(s1, vectype) === 1, 'count == 1');
    recvbuf.fill(0, 0, 8);
    const s2 = await mpi.mrecv(recvbuf, 1, vectype, message);
    check(recvbuf[0] === DEADBEEF, 'recvbuf[0] == 0xdeadbeef');
    for (let i = 1; i < 4; i++) check(recvbuf[i] === 0, 'recvbuf[i] == 0');
    // the C's check(recvbuf[4] = 0xfeedface) assigns and so always holds: checked here as meant
    check(recvbuf[4] === FEEDFACE, 'recvbuf[4] == 0xfeedface');
    for (let i = 5; i < 8; i++) check(recvbuf[i] === 0, 'recvbuf[i] == 0');
    check(s2.source === 0 && s2.tag === 5, 's2.MPI_SOURCE == 0 && s2.MPI_TAG == 5');
  }
  mpi.typeFree(vectype);

  // test 11: mprobe+mrecv noncontiguous datatype LARGE
  vectype = mpi.typeCommit(mpi.typeVector(LARGE_DIM, LARGE_DIM - 1, LARGE_DIM, mpi.INT));
  if (rank === 0) {
    for (let i = 0; i < LARGE_SZ; i++) sendbuf[i] = i;
    await mpi.send(sendbuf, 1, vectype, 1, 5);
  } else {
    const { message, status: s1 } = await mpi.mprobe(0, 5);
    check(s1.source === 0 && s1.tag === 5, 's1.MPI_SOURCE == 0 && s1.MPI_TAG == 5');
    check(mpi.getCount(s1, vectype) === 1, 'count == 1');
    recvbuf.fill(0);
    const s2 = await mpi.mrecv(recvbuf, 1, vectype, message);
    let bad = 0;
    let idx = 0;
    for (let i = 0; i < LARGE_DIM; i++) {
      for (let j = 0; j < LARGE_DIM - 1; j++) {
        if (recvbuf[idx] !== idx) bad++;
        ++idx;
      }
      if (recvbuf[idx++] !== 0) bad++;
    }
    check(bad === 0, 'recvbuf[idx] == idx, and 0 in the gaps');
    check(s2.source === 0 && s2.tag === 5, 's2.MPI_SOURCE == 0 && s2.MPI_TAG == 5');
  }
  mpi.typeFree(vectype);

  // test 12: order test
  if (rank === 0) {
    sendbuf.set([DEADBEEF, FEEDFACE, DEADBEEF, FEEDFACE, DEADBEEF, FEEDFACE]);
    const r0 = mpi.isend(sendbuf.subarray(0, 4), 4, mpi.INT, 1, 6);
    const r1 = mpi.isend(sendbuf.subarray(4, 6), 2, mpi.INT, 1, 6);
    await mpi.waitAll([r0, r1]);
  } else {
    const { message, status: s1 } = await mpi.mprobe(0, 6);
    check(s1.source === 0 && s1.tag === 6, 's1.MPI_SOURCE == 0 && s1.MPI_TAG == 6');
    const count = mpi.getCount(s1, mpi.INT);
    check(count === 4, 'count == 4');
    recvbuf[0] = X01234567;
    recvbuf[1] = X89ABCDEF;
    let s2 = await mpi.recv(recvbuf, 2, mpi.INT, 0, 6);
    check(s2.source === 0 && s2.tag === 6, 's2.MPI_SOURCE == 0 && s2.MPI_TAG == 6');
    check(recvbuf[0] === DEADBEEF && recvbuf[1] === FEEDFACE, 'recvbuf[0..1] == 0xdeadbeef, 0xfeedface');
    recvbuf.set([X01234567, X89ABCDEF, X01234567, X89ABCDEF]);
    s2 = await mpi.mrecv(recvbuf, count, mpi.INT, message);
    check(recvbuf[0] === DEADBEEF && recvbuf[1] === FEEDFACE && recvbuf[2] === DEADBEEF && recvbuf[3] === FEEDFACE, 'recvbuf[0..3] == 0xdeadbeef, 0xfeedface, 0xdeadbeef, 0xfeedface');
    check(s2.source === 0 && s2.tag === 6, 's2.MPI_SOURCE == 0 && s2.MPI_TAG == 6');
  }

  // tests 13 and 14: zero ints, and one element of a zero-size type
  for (const [tag, zeroType] of [
    [13, false],
    [14, true],
  ] as const) {
    if (rank === 0) {
      await mpi.send(sendbuf, 0, zeroType ? mpi.BYTE : mpi.INT, 1, tag);
      continue;
    }
    const type = zeroType ? mpi.typeCommit(mpi.typeContiguous(0, mpi.INT)) : mpi.INT;
    const { message, status: s1 } = await mpi.mprobe(0, tag);
    check(s1.source === 0 && s1.tag === tag, `s1.MPI_SOURCE == 0 && s1.MPI_TAG == ${tag}`);
    check(mpi.getCount(s1, type) === 0, 'count == 0');
    recvbuf[0] = X01234567;
    recvbuf[1] = X89ABCDEF;
    const s2 = await mpi.mrecv(recvbuf, zeroType ? 1 : 0, type, message);
    // recvbuf should remain unmodified
    check(recvbuf[0] === X01234567 && recvbuf[1] === X89ABCDEF, 'recvbuf unmodified');
    check(s2.source === 0 && s2.tag === tag, `s2.MPI_SOURCE == 0 && s2.MPI_TAG == ${tag}`);
    check(mpi.getCount(s2, type) === 0, 'count == 0');
    if (zeroType) mpi.typeFree(type);
  }
  return mt.finalize(errs);
}
