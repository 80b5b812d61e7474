// MPICH test/mpi/rma/lockcontention3.c: lock contention with every kind of operation. In each of
// tests 0..14, rank 0 (master) locks its own window exclusively and fills it with i at i, then
// tells rank 1 (partner) to go and starts a ring of zero-byte messages through the other ranks; the
// partner's exclusive lock on the master must wait until the ring is back and the master unlocks.
// Under it the partner puts, accumulates (SUM) or gets one int, a vector of 7 ints 11 apart (one
// call with the vector type, or 7 calls of one int), 512 ints in one call, or 4 x 127 ints; then
// the master checks its window and the partner what it got.
//
// In MPICH the checks of the strided puts and accumulates (tests 3, 4, 6, 7) never run: their loop
// is `for (j = 0; j++; j < veccount)` (MPICH marks it FIXME), and as written they would look at
// the wrong ints (without OFFSET_1, OFFSET_2). The port checks those four tests where the data
// went, the values of the comments; every other check is MPICH's. The C test's `-ntest N` is not
// in the testlist, so every test runs.
import type { MTest, MTestResult } from '../mtest.ts';

const LAST_TEST = 14;
const RMA_SIZE = 2048;
const OFFSET_1 = 7;
const OFFSET_2 = 83;
const OFFSET_3 = 157;
const PUT_VAL = 0xdcba97;
const ACC_VAL = 10771134;

// the vector type, and the sizes of the long operations
const stride = 11;
const veccount = 7;
const longcount = 512;
const medcount = 127;
const mednum = 4;

export default async function lockcontention3(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const wrank = mpi.rank;
  const wsize = mpi.size;
  if (wsize < 3) throw new Error('MPI_Abort: This test requires at least 3 processes');
  const master = 0;
  const partner = 1;
  let next = wrank + 1;
  if (next === partner) next++;
  if (next >= wsize) {
    next = 0;
    if (next === partner) next++;
  }
  const vectype = mpi.typeCommit(mpi.typeVector(veccount, 1, stride, mpi.INT));

  // the RMA window: RMA_SIZE ints on the master, none elsewhere
  let bufsize = 0;
  let rmaMem: Uint8Array | null = null;
  let rmabuffer: Int32Array = new Int32Array(0);
  let getbuf = new Int32Array(0);
  if (wrank === master) {
    bufsize = RMA_SIZE;
    rmaMem = mpi.allocMem(bufsize * 4, mpi.INFO_NULL);
    rmabuffer = new Int32Array(rmaMem.buffer, rmaMem.byteOffset, bufsize);
  } else if (wrank === partner) {
    getbuf = new Int32Array(RMA_SIZE);
  }
  const srcbuf = new Int32Array(RMA_SIZE);
  const win = await mpi.winCreate(rmabuffer, 4, mpi.INFO_NULL);
  const none = new Int32Array(0);

  /** RMATest: the partner's operations of test i (srcbuf stays valid until the unlock). */
  const rmaTest = async (i: number): Promise<void> => {
    const source = srcbuf;
    for (let j = 0; j < RMA_SIZE; j++) source[j] = -j;
    switch (i) {
      case 0: // single short put
        source[0] = PUT_VAL;
        await win.put(source, 1, mpi.INT, master, OFFSET_1, 1, mpi.INT);
        break;
      case 1: // single short accumulate
        source[0] = ACC_VAL;
        await win.accumulate(source, 1, mpi.INT, master, OFFSET_2, 1, mpi.INT, mpi.SUM);
        break;
      case 2: // single short get
        getbuf[0] = -1;
        await win.get(getbuf, 1, mpi.INT, master, OFFSET_3, 1, mpi.INT);
        break;
      case 3: // datatype single put (strided put)
        for (let j = 0; j < veccount; j++) source[j * stride] = PUT_VAL + j;
        await win.put(source, 1, vectype, master, OFFSET_1, 1, vectype);
        break;
      case 4: // datatype single accumulate (strided acc)
        for (let j = 0; j < veccount; j++) source[j * stride] = ACC_VAL + j;
        await win.accumulate(source, 1, vectype, master, OFFSET_2, 1, vectype, mpi.SUM);
        break;
      case 5: // datatype single get (strided get)
        for (let j = 0; j < veccount; j++) getbuf[j] = -j;
        await win.get(getbuf, 1, vectype, master, OFFSET_3, 1, vectype);
        break;
      case 6: // a few small puts (the strided put, one word at a time)
        for (let j = 0; j < veccount; j++) source[j * stride] = PUT_VAL + j;
        for (let j = 0; j < veccount; j++) await win.put(source.subarray(j * stride), 1, mpi.INT, master, OFFSET_1 + j * stride, 1, mpi.INT);
        break;
      case 7: // a few small accumulates
        for (let j = 0; j < veccount; j++) source[j * stride] = ACC_VAL + j;
        for (let j = 0; j < veccount; j++) await win.accumulate(source.subarray(j * stride), 1, mpi.INT, master, OFFSET_2 + j * stride, 1, mpi.INT, mpi.SUM);
        break;
      case 8: // a few small gets
        for (let j = 0; j < veccount; j++) getbuf[j * stride] = -j;
        for (let j = 0; j < veccount; j++) await win.get(getbuf.subarray(j * stride), 1, mpi.INT, master, OFFSET_3 + j * stride, 1, mpi.INT);
        break;
      case 9: // single long put
        for (let j = 0; j < longcount; j++) source[j] = j;
        await win.put(source, longcount, mpi.INT, master, OFFSET_1, longcount, mpi.INT);
        break;
      case 10: // single long accumulate
        for (let j = 0; j < longcount; j++) source[j] = j;
        await win.accumulate(source, longcount, mpi.INT, master, OFFSET_2, longcount, mpi.INT, mpi.SUM);
        break;
      case 11: // single long get
        for (let j = 0; j < longcount; j++) getbuf[j] = -j;
        await win.get(getbuf, longcount, mpi.INT, master, OFFSET_3, longcount, mpi.INT);
        break;
      case 12: // a few long puts
        for (let j = 0; j < mednum; j++) {
          for (let k = 0; k < medcount; k++) source[j * medcount + k] = j * 2 * medcount + k;
          await win.put(source.subarray(j * medcount), medcount, mpi.INT, master, OFFSET_1 + j * 2 * medcount, medcount, mpi.INT);
        }
        break;
      case 13: // a few long accumulates
        for (let j = 0; j < mednum; j++) {
          for (let k = 0; k < medcount; k++) source[j * medcount + k] = ACC_VAL + j * 2 * medcount + k;
          await win.accumulate(source.subarray(j * medcount), medcount, mpi.INT, master, OFFSET_2 + j * 2 * medcount, medcount, mpi.INT, mpi.SUM);
        }
        break;
      case 14: // a few long gets
        for (let j = 0; j < mednum; j++) {
          for (let k = 0; k < medcount; k++) getbuf[j * medcount + k] = -(j * medcount + k);
          await win.get(getbuf.subarray(j * medcount), medcount, mpi.INT, master, OFFSET_3 + j * 2 * medcount, medcount, mpi.INT);
        }
        break;
    }
  };

  /** One wrong value: printed, counted. */
  const bad = (i: number, got: number | undefined, want: number): number => {
    mt.printf(`case ${i}: value is ${got} should be ${want}`);
    return 1;
  };

  /** RMACheck: the master's window after test i. */
  const rmaCheck = (i: number, buf: Int32Array): number => {
    let e = 0;
    switch (i) {
      case 0:
        if (buf[OFFSET_1] !== PUT_VAL) e += bad(i, buf[OFFSET_1], PUT_VAL);
        break;
      case 1:
        if (buf[OFFSET_2] !== ACC_VAL + OFFSET_2) e += bad(i, buf[OFFSET_2], ACC_VAL + OFFSET_2);
        break;
      case 3:
      case 6: // (not checked in MPICH, see the top)
        for (let j = 0; j < veccount; j++) {
          if (buf[OFFSET_1 + j * stride] !== PUT_VAL + j) e += bad(i, buf[OFFSET_1 + j * stride], PUT_VAL + j);
        }
        break;
      case 4:
      case 7: // (not checked in MPICH, see the top)
        for (let j = 0; j < veccount; j++) {
          const want = ACC_VAL + j + OFFSET_2 + j * stride;
          if (buf[OFFSET_2 + j * stride] !== want) e += bad(i, buf[OFFSET_2 + j * stride], want);
        }
        break;
      case 9:
        for (let j = 0; j < longcount; j++) if (buf[OFFSET_1 + j] !== j) e += bad(i, buf[OFFSET_1 + j], j);
        break;
      case 10:
        for (let j = 0; j < longcount; j++) if (buf[OFFSET_2 + j] !== OFFSET_2 + j + j) e += bad(i, buf[OFFSET_2 + j], OFFSET_2 + j + j);
        break;
      case 12:
        for (let j = 0; j < mednum; j++) {
          for (let k = 0; k < medcount; k++) {
            const at = OFFSET_1 + j * 2 * medcount + k;
            if (buf[at] !== j * 2 * medcount + k) e += bad(i, buf[at], j * 2 * medcount + k);
          }
        }
        break;
      case 13:
        for (let j = 0; j < mednum; j++) {
          for (let k = 0; k < medcount; k++) {
            const at = OFFSET_2 + j * 2 * medcount + k;
            const want = OFFSET_2 + 2 * j * 2 * medcount + 2 * k + ACC_VAL;
            if (buf[at] !== want) e += bad(i, buf[at], want);
          }
        }
        break;
      case 2:
      case 5:
      case 8:
      case 11:
      case 14:
        break; // see rmaCheckGet
      default:
        mt.printf(`Unrecognized case ${i}`);
        e++;
    }
    return e;
  };

  /** RMACheckGet: what the partner got in test i. */
  const rmaCheckGet = (i: number): number => {
    let e = 0;
    switch (i) {
      case 2:
        if (getbuf[0] !== OFFSET_3) e += bad(i, getbuf[0], OFFSET_3);
        break;
      case 5:
      case 8:
        for (let j = 0; j < veccount; j++) if (getbuf[j * stride] !== OFFSET_3 + j * stride) e += bad(i, getbuf[j * stride], OFFSET_3 + j * stride);
        break;
      case 11:
        for (let j = 0; j < longcount; j++) if (getbuf[j] !== OFFSET_3 + j) e += bad(i, getbuf[j], OFFSET_3 + j);
        break;
      case 14:
        for (let j = 0; j < mednum; j++) {
          for (let k = 0; k < medcount; k++) {
            const want = OFFSET_3 + j * 2 * medcount + k;
            if (getbuf[j * medcount + k] !== want) {
              e++;
              mt.printf(`case 14: buf[${j * medcount + k}] value is ${getbuf[j * medcount + k]} should be ${want}`);
            }
          }
        }
        break;
      default:
        if (i < 0 || i > LAST_TEST) {
          mt.printf(`Unrecognized case ${i}`);
          e++;
        }
    }
    return e;
  };

  for (let i = 0; i <= LAST_TEST; i++) {
    if (wrank === master) {
      // this lock is local: it returns only when the lock is held
      await win.lock(mpi.LOCK_EXCLUSIVE, 0, master);
      for (let j = 0; j < bufsize; j++) rmabuffer[j] = j;
      await mpi.send(none, 0, mpi.INT, partner, i);
      await mpi.send(none, 0, mpi.INT, next, i);
      await mpi.recv(none, 0, mpi.INT, mpi.ANY_SOURCE, i);
      await win.unlock(master);
      await mpi.recv(none, 0, mpi.INT, partner, i);
      errs += rmaCheck(i, rmabuffer);
    } else if (wrank === partner) {
      await mpi.recv(none, 0, mpi.INT, master, i);
      await win.lock(mpi.LOCK_EXCLUSIVE, 0, master);
      await rmaTest(i);
      await win.unlock(master);
      errs += rmaCheckGet(i);
      await mpi.send(none, 0, mpi.INT, master, i);
    } else {
      await mpi.recv(none, 0, mpi.INT, mpi.ANY_SOURCE, i);
      await mpi.send(none, 0, mpi.INT, next, i);
    }
  }
  if (rmaMem) mpi.freeMem(rmaMem);
  await win.free();
  mpi.typeFree(vectype);
  return mt.finalize(errs);
}
