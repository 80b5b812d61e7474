// MPICH test/mpi/coll/nonblocking3.c: 100,000 nonblocking operations (the 17 nonblocking
// collectives in 20 cases and an Isend/Irecv pair) on four dups of MPI_COMM_WORLD, up to 20 at a
// time, picked by the C test's own generator (so every rank picks the same), each completed by one
// of twelve ways picked the same way (MPI_Waitall, Testsome, Waitsome, Waitany, Testany, Testall,
// Wait or Test on one, and MPI 4.1's MPI_Request_get_status and its _all, _any and _some forms
// followed by MPI_Request_free), and its data checked after completion; one poll in a thousand the
// rank sleeps 0.05 s (simulated). MPI_Waitall, Testall, Wait and Test set the C handles to
// MPI_REQUEST_NULL; phit's cannot reach a caller's variable (and leave a list as it is), so the
// port does that itself; Waitany, Testany, Waitsome and Testsome set them in phit too, and that is
// checked. The C test frees its
// user op before the wait; phit has no MPI_Op_free. `-iterations=N` (phit's, not the testlist's)
// runs N operations instead of 100,000, for a quick run.
import type { MTest, MTestResult } from '../mtest.ts';
import type { Comm, Datatype, Request, ReduceArray } from '../../../runtime/mpi/mpi.ts';

const MAIN_ITERATIONS = 100000;
const WINDOW = 20;
const CHANCE_OF_SLEEP = 1000;
const JITTER_DELAY_US = 50000;
const NUM_COMMS = 4;
const COUNT = 10;
const PRIME = 17;
const NUM_CASES = 21;
const COMPLETION_CASES = 12;
const DEADBEEF = 0xdeadbeef | 0;

const PRN_M = 4294967291;
const PRN_A = 279470273;
const GEN_PRN_MAX = PRN_M - 1;

/** gen_prn: x * 279470273 mod 4294967291, computed exactly in halves (the product exceeds 2^53). */
function genPrn(x: number): number {
  const hi = Math.floor(x / 65536);
  const lo = x % 65536;
  return (((PRN_A * hi) % PRN_M) * 65536 + PRN_A * lo) % PRN_M;
}

/** rand_range(rndval, min, max): a value in [min, max), with C's double arithmetic in C's order. */
function randRange(rndval: number, min: number, max: number): number {
  return Math.trunc(min + rndval * (1.0 / (GEN_PRN_MAX + 1.0)) * (max - min)) >>> 0;
}

/** sum_fn: inout[i] = in[i] + inout[i]. */
function sumFn(inout: ReduceArray, input: ReduceArray, len: number): void {
  const a = inout as Int32Array;
  const b = input as Int32Array;
  for (let i = 0; i < len; ++i) a[i] = b[i]! + a[i]!;
}

/** The buffers of one operation in flight, kept until it completes (C's struct laundry). */
interface Laundry {
  caseNum: number;
  comm: Comm | null;
  buf: Int32Array;
  recvbuf: Int32Array;
}

export default async function nonblocking3(mt: MTest): Promise<MTestResult> {
  const { mpi } = mt;
  let errs = 0;
  const iterations = mt.argInt('iterations', MAIN_ITERATIONS);
  const myAssert = (cond: boolean, what: string): void => {
    if (!cond) {
      ++errs;
      if (errs < 10) mt.printf(`assertion (${what}) failed`);
    }
  };

  /** start_random_nonblocking: the operation of case rand_range(rndnum, 0, 21) on `comm`. */
  const startRandomNonblocking = (comm: Comm, rndnum: number, l: Laundry): Request => {
    const rank = comm.rank;
    const size = comm.size;
    let req: Request = mpi.REQUEST_NULL;
    l.caseNum = -1;
    l.comm = comm;
    const buf = (l.buf = new Int32Array(COUNT * size));
    const recvbuf = (l.recvbuf = new Int32Array(COUNT * size));
    const sendcounts = new Int32Array(size);
    const recvcounts = new Int32Array(size);
    const sdispls = new Int32Array(size);
    const rdispls = new Int32Array(size);
    const sendtypes: Datatype[] = new Array<Datatype>(size);
    const recvtypes: Datatype[] = new Array<Datatype>(size);
    l.caseNum = randRange(rndnum, 0, NUM_CASES);
    switch (l.caseNum) {
      case 0: // MPI_Ibcast
        for (let i = 0; i < COUNT; ++i) buf[i] = rank === 0 ? i : DEADBEEF;
        req = comm.ibcast(buf, COUNT, mpi.INT, 0);
        break;
      case 1: {
        // MPI_Ibcast (again, but designed to stress scatter/allgather impls)
        const bufAlias = new Int8Array(buf.buffer);
        myAssert(COUNT * size * 4 > PRIME, 'COUNT * size * sizeof(int) > PRIME');
        for (let i = 0; i < PRIME; ++i) bufAlias[i] = rank === 0 ? i : 0xdb;
        for (let i = PRIME; i < COUNT * size * 4; ++i) bufAlias[i] = 0xbf;
        req = comm.ibcast(bufAlias, PRIME, mpi.SIGNED_CHAR, 0);
        break;
      }
      case 2: // MPI_Ibarrier
        req = comm.ibarrier();
        break;
      case 3: // MPI_Ireduce
        for (let i = 0; i < COUNT; ++i) {
          buf[i] = rank + i;
          recvbuf[i] = DEADBEEF;
        }
        req = comm.ireduce(buf, recvbuf, COUNT, mpi.INT, mpi.SUM, 0);
        break;
      case 4: {
        // same again, use a user op (freed before the wait in C)
        const op = mpi.opCreate(sumFn, true);
        for (let i = 0; i < COUNT; ++i) {
          buf[i] = rank + i;
          recvbuf[i] = DEADBEEF;
        }
        req = comm.ireduce(buf, recvbuf, COUNT, mpi.INT, op, 0);
        break;
      }
      case 5: // MPI_Iallreduce
        for (let i = 0; i < COUNT; ++i) {
          buf[i] = rank + i;
          recvbuf[i] = DEADBEEF;
        }
        req = comm.iallreduce(buf, recvbuf, COUNT, mpi.INT, mpi.SUM);
        break;
      case 6: // MPI_Ialltoallv (a weak test, neither irregular nor sparse)
        for (let i = 0; i < size; ++i) {
          sendcounts[i] = COUNT;
          recvcounts[i] = COUNT;
          sdispls[i] = COUNT * i;
          rdispls[i] = COUNT * i;
          for (let j = 0; j < COUNT; ++j) {
            buf[i * COUNT + j] = rank + i * j;
            recvbuf[i * COUNT + j] = DEADBEEF;
          }
        }
        req = comm.ialltoallv(buf, sendcounts, sdispls, mpi.INT, recvbuf, recvcounts, rdispls, mpi.INT);
        break;
      case 7: // MPI_Igather
        for (let i = 0; i < size * COUNT; ++i) {
          buf[i] = rank + i;
          recvbuf[i] = DEADBEEF;
        }
        req = comm.igather(buf, COUNT, mpi.INT, recvbuf, COUNT, mpi.INT, 0);
        break;
      case 8: {
        // same test again, just use a dup'ed datatype and free it before the wait
        const type = mpi.typeDup(mpi.INT);
        for (let i = 0; i < size * COUNT; ++i) {
          buf[i] = rank + i;
          recvbuf[i] = DEADBEEF;
        }
        req = comm.igather(buf, COUNT, mpi.INT, recvbuf, COUNT, type, 0);
        mpi.typeFree(type);
        break;
      }
      case 9: // MPI_Iscatter
        for (let i = 0; i < size; ++i) {
          for (let j = 0; j < COUNT; ++j) {
            buf[i * COUNT + j] = rank === 0 ? i + j : DEADBEEF;
            recvbuf[i * COUNT + j] = DEADBEEF;
          }
        }
        req = comm.iscatter(buf, COUNT, mpi.INT, recvbuf, COUNT, mpi.INT, 0);
        break;
      case 10: // MPI_Iscatterv (the regular case where all counts are equal)
        for (let i = 0; i < size; ++i) {
          sendcounts[i] = COUNT;
          sdispls[i] = i * COUNT;
          for (let j = 0; j < COUNT; ++j) {
            buf[i * COUNT + j] = rank === 0 ? i + j : DEADBEEF;
            recvbuf[i * COUNT + j] = DEADBEEF;
          }
        }
        req = comm.iscatterv(buf, sendcounts, sdispls, mpi.INT, recvbuf, COUNT, mpi.INT, 0);
        break;
      case 11: // MPI_Ireduce_scatter
        for (let i = 0; i < size; ++i) {
          recvcounts[i] = COUNT;
          for (let j = 0; j < COUNT; ++j) {
            buf[i * COUNT + j] = rank + i;
            recvbuf[i * COUNT + j] = DEADBEEF;
          }
        }
        req = comm.ireduceScatter(buf, recvbuf, recvcounts, mpi.INT, mpi.SUM);
        break;
      case 12: // MPI_Ireduce_scatter_block
        for (let i = 0; i < size; ++i) {
          for (let j = 0; j < COUNT; ++j) {
            buf[i * COUNT + j] = rank + i;
            recvbuf[i * COUNT + j] = DEADBEEF;
          }
        }
        req = comm.ireduceScatterBlock(buf, recvbuf, COUNT, mpi.INT, mpi.SUM);
        break;
      case 13: // MPI_Igatherv
        for (let i = 0; i < size * COUNT; ++i) {
          buf[i] = DEADBEEF;
          recvbuf[i] = DEADBEEF;
        }
        for (let i = 0; i < COUNT; ++i) buf[i] = rank + i;
        for (let i = 0; i < size; ++i) {
          recvcounts[i] = COUNT;
          rdispls[i] = i * COUNT;
        }
        req = comm.igatherv(buf, COUNT, mpi.INT, recvbuf, recvcounts, rdispls, mpi.INT, 0);
        break;
      case 14: // MPI_Ialltoall
        for (let i = 0; i < size; ++i) {
          for (let j = 0; j < COUNT; ++j) {
            buf[i * COUNT + j] = rank + i * j;
            recvbuf[i * COUNT + j] = DEADBEEF;
          }
        }
        req = comm.ialltoall(buf, COUNT, mpi.INT, recvbuf, COUNT, mpi.INT);
        break;
      case 15: // MPI_Iallgather
        for (let i = 0; i < size * COUNT; ++i) {
          buf[i] = rank + i;
          recvbuf[i] = DEADBEEF;
        }
        req = comm.iallgather(buf, COUNT, mpi.INT, recvbuf, COUNT, mpi.INT);
        break;
      case 16: // MPI_Iallgatherv
        for (let i = 0; i < size; ++i) {
          for (let j = 0; j < COUNT; ++j) recvbuf[i * COUNT + j] = DEADBEEF;
          recvcounts[i] = COUNT;
          rdispls[i] = i * COUNT;
        }
        for (let i = 0; i < COUNT; ++i) buf[i] = rank + i;
        req = comm.iallgatherv(buf, COUNT, mpi.INT, recvbuf, recvcounts, rdispls, mpi.INT);
        break;
      case 17: // MPI_Iscan
        for (let i = 0; i < COUNT; ++i) {
          buf[i] = rank + i;
          recvbuf[i] = DEADBEEF;
        }
        req = comm.iscan(buf, recvbuf, COUNT, mpi.INT, mpi.SUM);
        break;
      case 18: // MPI_Iexscan
        for (let i = 0; i < COUNT; ++i) {
          buf[i] = rank + i;
          recvbuf[i] = DEADBEEF;
        }
        req = comm.iexscan(buf, recvbuf, COUNT, mpi.INT, mpi.SUM);
        break;
      case 19: // MPI_Ialltoallw (a weak test, neither irregular nor sparse); displacements in bytes
        for (let i = 0; i < size; ++i) {
          sendcounts[i] = COUNT;
          recvcounts[i] = COUNT;
          sdispls[i] = COUNT * i * 4;
          rdispls[i] = COUNT * i * 4;
          sendtypes[i] = mpi.INT;
          recvtypes[i] = mpi.INT;
          for (let j = 0; j < COUNT; ++j) {
            buf[i * COUNT + j] = rank + i * j;
            recvbuf[i * COUNT + j] = DEADBEEF;
          }
        }
        req = comm.ialltoallw(buf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes);
        break;
      case 20: // basic pt2pt MPI_Isend/MPI_Irecv pairing: even ranks send to odd ranks, but only if we have a full pair
        if (rank % 2 !== 0 || rank !== size - 1) {
          for (let j = 0; j < COUNT; ++j) {
            buf[j] = j;
            recvbuf[j] = DEADBEEF;
          }
          req = rank % 2 === 0 ? comm.isend(buf, COUNT, mpi.INT, rank + 1, 5) : comm.irecv(recvbuf, COUNT, mpi.INT, rank - 1, 5);
        }
        break;
      default:
        throw new Error(`unexpected value for l->case_num=${l.caseNum}`);
    }
    return req;
  };

  /** check_after_completion: the data of the completed operation in `l`. */
  const checkAfterCompletion = (l: Laundry): void => {
    const comm = l.comm!;
    const { buf, recvbuf } = l;
    const rank = comm.rank;
    const size = comm.size;
    const bufAlias = new Int8Array(buf.buffer);
    const reduced = (i: number): number => (size * (size - 1)) / 2 + i * size;
    switch (l.caseNum) {
      case 0:
        for (let i = 0; i < COUNT; ++i) {
          if (buf[i] !== i) mt.printf(`buf[${i}]=${buf[i]} i=${i}`);
          myAssert(buf[i] === i, 'buf[i] == i');
        }
        break;
      case 1:
        for (let i = 0; i < PRIME; ++i) {
          if (bufAlias[i] !== i) mt.printf(`buf_alias[${i}]=${bufAlias[i]} i=${i}`);
          myAssert(bufAlias[i] === i, 'buf_alias[i] == i');
        }
        break;
      case 2: // nothing to check
        break;
      case 3:
      case 4:
        if (rank === 0) {
          for (let i = 0; i < COUNT; ++i) {
            if (recvbuf[i] !== reduced(i)) mt.printf(`got recvbuf[${i}]=${recvbuf[i]}, expected ${reduced(i)}`);
            myAssert(recvbuf[i] === reduced(i), 'recvbuf[i] == ((size * (size - 1) / 2) + (i * size))');
          }
        }
        break;
      case 5:
        for (let i = 0; i < COUNT; ++i) {
          if (recvbuf[i] !== reduced(i)) mt.printf(`got recvbuf[${i}]=${recvbuf[i]}, expected ${reduced(i)}`);
          myAssert(recvbuf[i] === reduced(i), 'recvbuf[i] == ((size * (size - 1) / 2) + (i * size))');
        }
        break;
      case 6:
      case 14:
      case 19:
        for (let i = 0; i < size; ++i) for (let j = 0; j < COUNT; ++j) myAssert(recvbuf[i * COUNT + j] === i + rank * j, 'recvbuf[i * COUNT + j] == (i + (rank * j))');
        break;
      case 7:
      case 8:
      case 13:
        if (rank === 0) {
          for (let i = 0; i < size; ++i) for (let j = 0; j < COUNT; ++j) myAssert(recvbuf[i * COUNT + j] === i + j, 'recvbuf[i * COUNT + j] == i + j');
        } else {
          for (let i = 0; i < size * COUNT; ++i) myAssert(recvbuf[i] === DEADBEEF, 'recvbuf[i] == 0xdeadbeef');
        }
        break;
      case 9:
      case 10:
        for (let j = 0; j < COUNT; ++j) myAssert(recvbuf[j] === rank + j, 'recvbuf[j] == rank + j');
        // check we didn't corrupt the sendbuf somehow
        if (rank !== 0) for (let i = 0; i < size * COUNT; ++i) myAssert(buf[i] === DEADBEEF, 'buf[i] == 0xdeadbeef');
        // MPI_Iscatterv: check we didn't corrupt the rest of the recvbuf
        if (l.caseNum === 10) for (let i = 1; i < size; ++i) for (let j = 0; j < COUNT; ++j) myAssert(recvbuf[i * COUNT + j] === DEADBEEF, 'recvbuf[i * COUNT + j] == 0xdeadbeef');
        break;
      case 11:
      case 12:
        for (let j = 0; j < COUNT; ++j) myAssert(recvbuf[j] === size * rank + ((size - 1) * size) / 2, 'recvbuf[j] == (size * rank + ((size - 1) * size) / 2)');
        for (let i = 1; i < size; ++i) for (let j = 0; j < COUNT; ++j) myAssert(recvbuf[i * COUNT + j] === DEADBEEF, 'recvbuf[i * COUNT + j] == 0xdeadbeef');
        break;
      case 15:
      case 16:
        for (let i = 0; i < size; ++i) for (let j = 0; j < COUNT; ++j) myAssert(recvbuf[i * COUNT + j] === i + j, 'recvbuf[i * COUNT + j] == i + j');
        break;
      case 17:
        for (let i = 0; i < COUNT; ++i) myAssert(recvbuf[i] === (rank * (rank + 1)) / 2 + i * (rank + 1), 'recvbuf[i] == ((rank * (rank + 1) / 2) + (i * (rank + 1)))');
        break;
      case 18:
        for (let i = 0; i < COUNT; ++i) if (rank !== 0) myAssert(recvbuf[i] === (rank * (rank + 1)) / 2 + i * (rank + 1) - (rank + i), 'recvbuf[i] == ((rank * (rank + 1) / 2) + (i * (rank + 1)) - (rank + i))');
        break;
      case 20:
        if (rank % 2 !== 0 || rank !== size - 1) {
          for (let j = 0; j < COUNT; ++j) {
            // only odd procs did a recv
            if (rank % 2 === 0) myAssert(recvbuf[j] === DEADBEEF, 'recvbuf[j] == 0xdeadbeef');
            else {
              if (recvbuf[j] !== j) mt.printf(`recvbuf[${j}]=${recvbuf[j]} j=${j}`);
              myAssert(recvbuf[j] === j, 'recvbuf[j] == j');
            }
          }
        }
        break;
      default:
        throw new Error(`invalid case_num (${l.caseNum}) detected`);
    }
  };

  /** Frees a completed request of the get-status cases (as C, unless it is already null). */
  const freeDone = (reqs: Request[], i: number): void => {
    if (!reqs[i]!.isNull) mpi.requestFree(reqs[i]!);
    reqs[i] = mpi.REQUEST_NULL;
  };

  /** complete_something_somehow: completes some of `reqs` one of twelve ways; returns the indices completed. */
  const completeSomethingSomehow = async (rndnum: number, reqs: Request[]): Promise<number[]> => {
    const numreqs = reqs.length;
    const all = (): number[] => Array.from({ length: numreqs }, (_, i) => i);
    switch (randRange(rndnum, 0, COMPLETION_CASES)) {
      case 0:
        await mpi.waitAll(reqs);
        reqs.fill(mpi.REQUEST_NULL);
        return all();
      case 1: {
        const done = await mpi.testSome(reqs);
        return done === mpi.UNDEFINED ? [] : done.map((c) => c.index);
      }
      case 2: {
        const done = await mpi.waitSome(reqs);
        return done === mpi.UNDEFINED ? [] : done.map((c) => c.index);
      }
      case 3: {
        const { index } = await mpi.waitAny(reqs);
        return index === mpi.UNDEFINED ? [] : [index];
      }
      case 4: {
        const { index } = await mpi.testAny(reqs);
        return index === mpi.UNDEFINED ? [] : [index];
      }
      case 5: {
        const flag = (await mpi.testAll(reqs)) !== null;
        if (!flag) return [];
        reqs.fill(mpi.REQUEST_NULL);
        return all();
      }
      case 6: {
        // select a new random index and wait on it
        const idx = randRange(genPrn(rndnum), 0, numreqs);
        await mpi.wait(reqs[idx]!);
        reqs[idx] = mpi.REQUEST_NULL;
        return [idx];
      }
      case 7: {
        // select a new random index and test on it
        const idx = randRange(genPrn(rndnum), 0, numreqs);
        const flag = await mpi.test(reqs[idx]!);
        if (!flag) return [];
        reqs[idx] = mpi.REQUEST_NULL;
        return [idx];
      }
      case 8: {
        // select a new random index and run MPI_Request_get_status on it
        const idx = randRange(genPrn(rndnum), 0, numreqs);
        const { flag } = await mpi.requestGetStatus(reqs[idx]!);
        if (!flag) return [];
        freeDone(reqs, idx);
        return [idx];
      }
      case 9: {
        const flag = (await mpi.requestGetStatusAll(reqs)) !== null;
        if (!flag) return [];
        for (let i = 0; i < numreqs; ++i) freeDone(reqs, i);
        return all();
      }
      case 10: {
        const { index } = await mpi.requestGetStatusAny(reqs);
        if (index === mpi.UNDEFINED) return [];
        freeDone(reqs, index);
        return [index];
      }
      default: {
        const done = await mpi.requestGetStatusSome(reqs);
        if (done === mpi.UNDEFINED) return [];
        for (const c of done) freeDone(reqs, c.index);
        return done.map((c) => c.index);
      }
    }
  };

  const wrank = mpi.rank;
  // every rank starts from the same post_seq
  let postSeq = genPrn(0x10bc);
  let completeSeq = postSeq;
  let numCompleted = 0;
  let numPosted = 0;
  // all of the communicators, just dups of comm world for now
  const comms: Comm[] = [];
  for (let i = 0; i < NUM_COMMS; ++i) comms.push(await mpi.dup());
  const larr: Laundry[] = [];
  const reqs: Request[] = new Array<Request>(WINDOW).fill(mpi.REQUEST_NULL);
  // fill the entire window of ops; the comm comes from a new seed, so that particular kinds of
  // operations do not go with particular communicators
  for (let i = 0; i < WINDOW && numPosted < iterations; ++i) {
    larr[i] = { caseNum: -1, comm: null, buf: new Int32Array(0), recvbuf: new Int32Array(0) };
    const comm = comms[randRange(genPrn(postSeq), 0, NUM_COMMS)]!;
    reqs[i] = startRandomNonblocking(comm, postSeq, larr[i]!);
    ++numPosted;
    postSeq = genPrn(postSeq);
  }
  for (let i = larr.length; i < WINDOW; ++i) larr[i] = { caseNum: -1, comm: null, buf: new Int32Array(0), recvbuf: new Int32Array(0) };
  // complete ops with "random" completion functions until iterations ops are posted and completed
  while (numCompleted < iterations) {
    const indices = await completeSomethingSomehow(completeSeq, reqs);
    completeSeq = genPrn(completeSeq);
    for (const idx of indices) {
      myAssert(reqs[idx] === mpi.REQUEST_NULL, 'reqs[idx] == MPI_REQUEST_NULL');
      const l = larr[idx]!;
      if (l.caseNum !== -1) {
        checkAfterCompletion(l);
        l.caseNum = -1;
        l.comm = null;
        ++numCompleted;
        if (numPosted < iterations) {
          const comm = comms[randRange(genPrn(postSeq), 0, NUM_COMMS)]!;
          reqs[idx] = startRandomNonblocking(comm, postSeq, l);
          ++numPosted;
          postSeq = genPrn(postSeq);
        }
      }
    }
    // "randomly" and infrequently introduce some jitter into the system
    if (randRange(genPrn((completeSeq + wrank) >>> 0), 0, CHANCE_OF_SLEEP) === 0) await mt.sleep(JITTER_DELAY_US / 1e6);
  }
  for (const c of comms) await c.free();
  return mt.finalize(errs);
}
