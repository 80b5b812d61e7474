import type { RankContext } from '../../runtime/rank.ts';
import { MpiError, type Comm, type InterComm, type Mpi, type Op, type ReduceArray, type Request } from '../../runtime/mpi/mpi.ts';

/** What a ported MPICH test returns from every rank: after `finalize`, rank 0 holds the total of errors over MPI_COMM_WORLD. */
export interface MTestResult {
  /** This rank's errors; on rank 0, the total of every rank (MTest_Finalize's reduction). */
  readonly errors: number;
}

/** A ported MPICH test: one rank program, given MTest's state for that rank. */
export type MpichProgram = (mt: MTest) => Promise<MTestResult>;

/** Most dups of MPI_COMM_SELF that MTestCommRandomize makes. */
const MAX_COMM_SELF_DUPS = 4;

/** Most lines a rank prints (the rest are dropped). */
const MAX_LINES = 50;

/**
 * The MTest harness of MPICH's test suite (test/mpi/util/mtest.c, mtest_common.c) for one rank:
 * MTest_Init's argument list, MTest_Finalize's error reduction, MTestSleep, and the communicator
 * generators MTestGetIntracommGeneral, MTestGetIntercomm and MTestGetComm. Tests count their errors themselves, as in C, and hand the
 * count to `finalize`.
 */
export class MTest {
  /** MPI_COMM_WORLD of this rank. */
  readonly mpi: Mpi;
  private printed = 0;
  private readonly argList: ReadonlyMap<string, string>;
  /** MTestGetIntracommGeneral's position in its list of communicators. */
  private intraCommIdx = 0;
  private intraCommName = '';
  /** MTestGetIntercomm's position in its list of intercommunicators. */
  private interCommIdx = 0;
  private interCommName = '';
  /** MTestGetComm: whether it has gone on to the intercommunicators. */
  private getInter = false;
  /** MTestCommRandomize's dups of MPI_COMM_SELF, freed at finalize. */
  private readonly selfDups: Comm[] = [];

  constructor(
    readonly ctx: RankContext,
    /** The test's arguments from the testlist (`-count=10`, `-nonblocking`). */
    readonly argv: readonly string[] = [],
    /** Where the rank's printed lines go (kept even when the run fails). */
    private readonly sink: (line: string) => void = () => {},
  ) {
    this.mpi = ctx.mpi;
    this.argList = parseArgs(argv);
  }

  /** printf of the test: the line goes to the run's output, shown when the test fails. */
  printf(line: string): void {
    if (this.printed++ < MAX_LINES) this.sink(line.replace(/\n$/, ''));
    else if (this.printed === MAX_LINES + 1) this.sink(`(rank ${this.mpi.rank} prints more lines)`);
  }

  /** MTestPrintfMsg(level, ...): printed only at MTEST_VERBOSE >= level; the suite runs quiet, as MPICH's does by default. */
  printfMsg(_level: number, _line: string): void {}

  /** MTestArgListGetInt_with_default: `-name=value` of the test's arguments (`-name` alone is 1). */
  argInt(name: string, defaultValue: number): number {
    const v = this.argList.get(name);
    return v === undefined ? defaultValue : Number.parseInt(v, 10) || 0;
  }

  /** MTestArgListGetString_with_default. */
  argString(name: string, defaultValue: string): string {
    return this.argList.get(name) ?? defaultValue;
  }

  /** MTestPrintError(errcode): the error's class and string. */
  printError(code: number): void {
    this.printf(`Error class ${this.mpi.errorClass(code)} (${this.mpi.errorString(code)})`);
  }

  /**
   * MTestCommRandomize(): srand(world rank), then rand() % 4 dups of MPI_COMM_SELF, kept until
   * `finalize`, so that the ranks' next communicators get different context ids.
   */
  async commRandomize(): Promise<void> {
    const r = new CRand(this.mpi.rank);
    const n = r.rand() % MAX_COMM_SELF_DUPS;
    for (let i = 0; i < n; i++) this.selfDups.push(await this.mpi.COMM_SELF.dup());
  }

  /** MTestSleep(sec): the rank sleeps `sec` seconds of simulated time. */
  sleep(sec: number): Promise<void> {
    return this.ctx.compute({ us: sec * 1e6 });
  }

  /**
   * MTest_Finalize(errs): the sum of every rank's errors reaches rank 0 (MPI_Reduce, MPI_SUM), which
   * prints " No Errors" or " Found N errors".
   */
  async finalize(errs: number): Promise<MTestResult> {
    const total = new Int32Array(1);
    await this.mpi.reduce(Int32Array.of(errs), total, this.mpi.SUM, 0);
    if (this.mpi.rank === 0) this.printf(total[0] ? ` Found ${total[0]} errors` : ' No Errors');
    // the comms of MTestCommRandomize
    for (const c of this.selfDups.splice(0)) await c.free();
    return { errors: this.mpi.rank === 0 ? total[0]! : errs };
  }

  /**
   * MTestGetIntracommGeneral(&comm, minSize, allowSmaller): the next of MTest's intracommunicators
   * (collective over MPI_COMM_WORLD). Returns the list position, 0 once the list is exhausted, and
   * the communicator, null on ranks outside it (MPI_COMM_NULL).
   *
   * The list is MTest's, communicator for communicator: world, its dup, world with ranks reversed,
   * half of world reversed, MPI_COMM_SELF, world merged from an intercommunicator, the even ranks
   * (MPI_Comm_create_group), the high half (MPI_Group_range_incl + MPI_Comm_create), and world less
   * its last 1 to 4 ranks. phit has no intercommunicators yet: the merged one is built with split,
   * with the same members in the same order.
   */
  async getIntracommGeneral(minSize: number, allowSmaller: boolean): Promise<{ idx: number; comm: Comm | null }> {
    const world = this.mpi;
    const size = world.size;
    const rank = world.rank;
    let comm: Comm | null = null;
    let done = false;
    while (!done) {
      let isBasic = false;
      this.intraCommName = '';
      switch (this.intraCommIdx) {
        case 0:
          comm = world;
          isBasic = true;
          this.intraCommName = 'MPI_COMM_WORLD';
          break;
        case 1:
          comm = await world.dup();
          this.intraCommName = 'Dup of MPI_COMM_WORLD';
          break;
        case 2:
          comm = await world.split(0, size - rank);
          this.intraCommName = 'Rank reverse of MPI_COMM_WORLD';
          break;
        case 3:
          comm = await world.split(rank < size / 2 ? 1 : world.UNDEFINED, size - rank);
          this.intraCommName = 'Rank reverse of half of MPI_COMM_WORLD';
          break;
        case 4:
          comm = world.COMM_SELF;
          isBasic = true;
          this.intraCommName = 'MPI_COMM_SELF';
          break;
        case 5:
          // dup of world by MPI_Intercomm_merge of the two halves, the low half passing high = true
          if (size > 1) {
            const half = Math.floor(size / 2);
            const localComm = await world.split(rank < half ? 1 : 0, rank);
            const rleader = rank === 0 ? half : rank === half ? 0 : -1;
            const isLeft = rank < half;
            const interComm = await localComm!.intercommCreate(0, world, rleader, 99);
            comm = await interComm.intercommMerge(isLeft);
            await interComm.free();
            await localComm!.free();
            this.intraCommName = 'Dup of WORLD created by MPI_Intercomm_merge';
          } else {
            comm = null;
          }
          break;
        case 6:
          // the even ranks: MPI_Comm_create_group of world's group less its odd ranks
          if (allowSmaller && Math.floor((size + 1) / 2) >= minSize) {
            const excl: number[] = [];
            for (let i = 0; i < Math.floor(size / 2); i++) excl.push(2 * i + 1);
            const evenGroup = world.group.excl(excl);
            if (rank % 2 === 0) {
              comm = await world.createGroup(evenGroup, 0);
              this.intraCommName = 'Even of WORLD created by MPI_Comm_create_group';
            } else {
              comm = null;
            }
          } else {
            comm = null;
          }
          break;
        case 7:
          // the high half: MPI_Group_range_incl of [size/2, size-1, 1], then MPI_Comm_create
          if (allowSmaller && Math.floor((size + 1) / 2) >= minSize) {
            const highGroup = world.group.rangeIncl([[Math.floor(size / 2), size - 1, 1]]);
            comm = await world.create(highGroup);
            this.intraCommName = 'High half of WORLD created by MPI_Comm_create';
          } else {
            comm = null;
          }
          break;
        case 8:
        case 9:
        case 10:
        case 11: {
          const newsize = size - (this.intraCommIdx - 7);
          if (allowSmaller && newsize >= minSize) {
            comm = await world.split(rank < newsize ? 1 : 0, rank);
            if (rank >= newsize) {
              await comm!.free();
              comm = null;
            } else {
              this.intraCommName = 'Split of WORLD';
            }
          } else {
            comm = null;
            this.intraCommIdx = -1;
          }
          break;
        }
        default:
          comm = null;
          this.intraCommIdx = -1;
          break;
      }
      if (comm !== null) {
        done = comm.size >= minSize;
      } else {
        this.intraCommName = 'MPI_COMM_NULL';
        isBasic = true;
        done = true;
      }
      // done only when every rank is done
      const all = new Int32Array(1);
      await world.allreduce(Int32Array.of(done ? 1 : 0), all, world.LAND);
      done = all[0] !== 0;
      // advance whether done or not, else a too-small communicator would come back for ever
      this.intraCommIdx++;
      if (!done && !isBasic && comm !== null) await comm.free();
    }
    return { idx: this.intraCommIdx, comm };
  }

  /**
   * MTestGetIntercomm(&comm, &isLeftGroup, minSize): the next of MTest's intercommunicators
   * (collective over MPI_COMM_WORLD) whose two groups have at least `minSize` ranks together.
   * Returns the list position, 0 once the list is exhausted, the intercommunicator (null on ranks
   * outside it) and whether this rank is in the left group.
   *
   * The list is MTest's: world split in halves, in rank 0 and the rest, in ranks 0-1 and the rest
   * (4 ranks or more), the halves' intercommunicator dup'ed, the same "split again", the halves
   * less world rank 0 in the left group (4 ranks or more), and the halves less the rank 0 of each
   * group (4 ranks or more): the split one with MPI_Comm_split of the halves' intercommunicator
   * (color 0, key the rank), the last with MPI_Comm_create of it and its local group less rank 0.
   */
  async getIntercomm(minSize: number): Promise<{ idx: number; comm: InterComm | null; isLeftGroup: boolean }> {
    const world = this.mpi;
    const size = world.size;
    const rank = world.rank;
    const half = Math.floor(size / 2);
    let comm: InterComm | null = null;
    let isLeftGroup = false;
    let done = false;
    while (!done) {
      comm = null;
      isLeftGroup = false;
      this.interCommName = 'MPI_COMM_NULL';
      let mcomm: Comm | null = null;
      switch (this.interCommIdx) {
        case 0:
          // split world in half
          if (size > 1) {
            mcomm = await world.split(rank < half ? 1 : 0, rank);
            const rleader = rank === 0 ? half : rank === half ? 0 : -1;
            isLeftGroup = rank < half;
            comm = await mcomm!.intercommCreate(0, world, rleader, 12345);
            this.interCommName = 'Intercomm by splitting MPI_COMM_WORLD';
          }
          break;
        case 1:
          // split world into 1 and the rest
          if (size > 1) {
            mcomm = await world.split(rank === 0 ? 1 : 0, rank);
            const rleader = rank === 0 ? 1 : rank === 1 ? 0 : -1;
            isLeftGroup = rank === 0;
            comm = await mcomm!.intercommCreate(0, world, rleader, 12346);
            this.interCommName = 'Intercomm by splitting MPI_COMM_WORLD into 1, rest';
          }
          break;
        case 2:
          // split world into 2 and the rest
          if (size > 3) {
            mcomm = await world.split(rank < 2 ? 1 : 0, rank);
            const rleader = rank === 0 ? 2 : rank === 2 ? 0 : -1;
            isLeftGroup = rank < 2;
            comm = await mcomm!.intercommCreate(0, world, rleader, 12347);
            this.interCommName = 'Intercomm by splitting MPI_COMM_WORLD into 2, rest';
          }
          break;
        case 3:
        case 4:
          // split world in half, then dup (case 4: then split again, in effect a dup)
          if (size > 1) {
            mcomm = await world.split(rank < half ? 1 : 0, rank);
            const rleader = rank === 0 ? half : rank === half ? 0 : -1;
            isLeftGroup = rank < half;
            const ic = await mcomm!.intercommCreate(0, world, rleader, 12345);
            await mcomm!.free();
            comm = this.interCommIdx === 3 ? await ic.dup() : await ic.split(0, ic.rank);
            await ic.free();
            mcomm = null;
            this.interCommName = this.interCommIdx === 3 ? "Intercomm by splitting MPI_COMM_WORLD then dup'ing" : 'Intercomm by splitting MPI_COMM_WORLD then then splitting again';
          }
          break;
        case 5:
          // split world in half discarding rank 0 from the left group, then intercomm
          if (size >= 4) {
            const color = rank === 0 ? world.UNDEFINED : rank < half ? 0 : 1;
            mcomm = await world.split(color, rank);
            const rleader = rank === 1 ? half : rank === half ? 1 : -1;
            isLeftGroup = rank < half;
            if (rank !== 0) comm = await mcomm!.intercommCreate(0, world, rleader, 12345);
            this.interCommName = "Intercomm by splitting MPI_COMM_WORLD (discarding rank 0 in the left group) then MPI_Intercomm_create'ing";
          }
          break;
        case 6:
          // the halves' intercommunicator, less the rank 0 of each group by MPI_Comm_create
          if (size >= 4) {
            isLeftGroup = rank < half;
            mcomm = await world.split(rank < half ? 0 : 1, rank);
            const rleader = rank === 0 ? half : rank === half ? 0 : -1;
            const ic = await mcomm!.intercommCreate(0, world, rleader, 12345);
            comm = await ic.create(ic.group.excl([0]));
            await ic.free();
            this.interCommName = 'Intercomm by splitting MPI_COMM_WORLD then discarding 0 ranks with MPI_Comm_create';
          }
          break;
        default:
          comm = null;
          this.interCommIdx = -1;
          break;
      }
      if (comm !== null) {
        done = comm.size + comm.remoteSize >= minSize;
      } else {
        this.interCommName = 'MPI_COMM_NULL';
        done = true;
      }
      // done only when every rank is done
      const all = new Int32Array(1);
      await world.allreduce(Int32Array.of(done ? 1 : 0), all, world.LAND);
      done = all[0] !== 0;
      this.interCommIdx++;
      if (!done && comm !== null) await comm.free();
      if (mcomm !== null) await mcomm.free();
    }
    return { idx: this.interCommIdx, comm, isLeftGroup };
  }

  /** MTestGetIntercommName: what the last intercommunicator from the generator is. */
  getIntercommName(): string {
    return this.interCommName;
  }

  /**
   * The loop `while (MTestGetIntercomm(&comm, &isLeftGroup, minSize)) { if (comm == MPI_COMM_NULL)
   * continue; ...; MTestFreeComm(&comm); }` of the tests: every intercommunicator of the list in
   * turn (null on ranks outside it), each freed when the body is done with it.
   */
  async *intercomms(minSize: number): AsyncGenerator<{ comm: InterComm | null; isLeftGroup: boolean }> {
    for (;;) {
      const { idx, comm, isLeftGroup } = await this.getIntercomm(minSize);
      if (idx === 0) return;
      yield { comm, isLeftGroup };
      await this.freeComm(comm);
    }
  }

  /**
   * MTestGetComm(&comm, minSize): MTest's intracommunicators (MTestGetIntracomm), then its
   * intercommunicators; returns the list position, 0 once both lists are exhausted.
   */
  async getComm(minSize: number): Promise<{ idx: number; comm: Comm | InterComm | null }> {
    let idx = 0;
    let comm: Comm | InterComm | null = null;
    if (!this.getInter) {
      ({ idx, comm } = await this.getIntracomm(minSize));
      if (idx === 0) this.getInter = true;
    }
    if (this.getInter) {
      ({ idx, comm } = await this.getIntercomm(minSize));
      if (idx === 0) this.getInter = false;
    }
    return { idx, comm };
  }

  /**
   * The loop `while (MTestGetComm(&comm, minSize)) { if (comm == MPI_COMM_NULL) continue; ...;
   * MTestFreeComm(&comm); }`: MTest's intracommunicators, then its intercommunicators (null on
   * ranks outside one), each freed when the body is done with it.
   */
  async *comms(minSize: number): AsyncGenerator<Comm | InterComm | null> {
    for (;;) {
      const { idx, comm } = await this.getComm(minSize);
      if (idx === 0) return;
      yield comm;
      await this.freeComm(comm);
    }
  }

  /**
   * MTestTestComm(comm): errors of a short communication test on `comm` (0 for null): on an
   * intercommunicator every rank sends (rank, j) to each remote rank j with a nonblocking send and
   * receives from each in turn; on an intracommunicator an allreduce (MPI_SUM) of 0..15.
   */
  async testComm(comm: Comm | InterComm | null): Promise<number> {
    if (comm === null) return 0;
    if (comm.testInter()) return this.testIntercomm(comm as InterComm);
    return this.testIntracomm(comm as Comm);
  }

  /** MTestTestIntercomm. */
  private async testIntercomm(comm: InterComm): Promise<number> {
    let errs = 0;
    const remoteSize = comm.remoteSize;
    const rank = comm.rank;
    const commname = 'intercomm';
    const reqs: Request[] = [];
    // each process sends its own rank and the destination's rank, each nonblocking send from a buffer of its own
    for (let j = 0; j < remoteSize; j++) reqs.push(comm.isend(Int32Array.of(rank, j), j, 0));
    const rbuf = new Int32Array(2);
    for (let j = 0; j < remoteSize; j++) {
      await comm.recv(rbuf, j, 0);
      if (rbuf[0] !== j) {
        this.printf(`Expected rank ${j} but saw ${rbuf[0]} in ${commname}`);
        errs++;
      }
      if (rbuf[1] !== rank) {
        this.printf(`Expected target rank ${rank} but saw ${rbuf[1]} from ${j} in ${commname}`);
        errs++;
      }
    }
    await this.mpi.waitAll(reqs);
    return errs;
  }

  /** MTestTestIntracomm. */
  private async testIntracomm(comm: Comm): Promise<number> {
    let errs = 0;
    const size = comm.size;
    const input = new Int32Array(16);
    const out = new Int32Array(16);
    const sol = new Int32Array(16);
    for (let i = 0; i < 16; i++) {
      input[i] = i;
      sol[i] = i * size;
    }
    await comm.allreduce(input, out, this.mpi.SUM);
    for (let i = 0; i < 16; i++) if (sol[i] !== out[i]) errs++;
    return errs;
  }

  /** MTestFreeComm: frees a communicator from the generator (not world, self or null). */
  async freeComm(comm: Comm | InterComm | null): Promise<void> {
    if (comm !== null && comm !== this.mpi.COMM_WORLD && comm !== this.mpi.COMM_SELF) await comm.free();
  }

  /** MTestGetIntracomm(&comm, minSize). */
  getIntracomm(minSize: number): Promise<{ idx: number; comm: Comm | null }> {
    return this.getIntracommGeneral(minSize, false);
  }

  /** MTestGetIntracommName: what the last communicator from the generator is. */
  getIntracommName(): string {
    return this.intraCommName;
  }

  /**
   * The loop `while (MTestGetIntracommGeneral(&comm, minSize, allowSmaller)) { ...;
   * MTestFreeComm(&comm); }` of the tests: every communicator of the list in turn, null on ranks
   * outside it, each freed when the body is done with it.
   */
  async *intracomms(minSize: number, allowSmaller: boolean): AsyncGenerator<Comm | null> {
    for (;;) {
      const { idx, comm } = await this.getIntracommGeneral(minSize, allowSmaller);
      if (idx === 0) return;
      yield comm;
      // MTestFreeComm at the end of the loop's body
      await this.freeComm(comm);
    }
  }
}

/** MTestArgListCreate: `-key=value` pairs; `-key` alone is `-key=1`. */
function parseArgs(argv: readonly string[]): Map<string, string> {
  const m = new Map<string, string>();
  for (const a of argv) {
    if (!a.startsWith('-')) continue;
    const eq = a.indexOf('=');
    if (eq < 0) m.set(a.slice(1), '1');
    else m.set(a.slice(1, eq), a.slice(eq + 1));
  }
  return m;
}

/** C's assert(): a false condition aborts the test, naming the expression. */
export function assert(cond: boolean, expression: string): void {
  if (!cond) throw new Error(`Assertion \`${expression}' failed`);
}

/**
 * A user function as C's MPI_User_function sees it: `fn(invec, inoutvec, count)` sets
 * inoutvec = invec op inoutvec for `count` items, invec holding the lower ranks' operand.
 */
export type UserFunction<T extends ReduceArray> = (invec: T, inoutvec: T, count: number) => void;

/**
 * MPI_Op_create(fn, commute) for a C user function: phit's ops combine into their left operand
 * (`inout = inout op input`), C's into their right one, so the C function gets the left operand
 * as invec and a copy of the right one as inoutvec, and the result goes back to the left. `unit`
 * is the elements of one item (a contiguous datatype of `unit` elements is one item).
 */
export function userOp<T extends ReduceArray>(mpi: Mpi, fn: UserFunction<T>, commute: boolean, unit = 1): Op {
  return mpi.opCreate(
    (inout, input) => {
      const right = input.slice() as T;
      fn(inout as T, right, inout.length / unit);
      (inout as T).set(right as never);
    },
    commute,
    { unit },
  );
}

/**
 * The return code of an MPI call made under MPI_ERRORS_RETURN: 0 (MPI_SUCCESS), or the code of the
 * MpiError it raised. Other errors propagate.
 */
export async function rc(call: () => unknown): Promise<number> {
  try {
    await call();
    return 0;
  } catch (e) {
    if (e instanceof MpiError) return e.code || 1;
    throw e;
  }
}

/** C's RAND_MAX (glibc). */
export const RAND_MAX = 2147483647;

/**
 * C's srand()/rand() as glibc computes them (the additive feedback generator of random(3)), so
 * that tests drawing from rand() see the same numbers as in C.
 */
export class CRand {
  private r: number[] = [];
  private i = 0;

  constructor(seed = 1) {
    this.srand(seed);
  }

  /** srand(seed). */
  srand(seed: number): void {
    const r = new Array<number>(344);
    r[0] = seed >>> 0 || 1;
    for (let i = 1; i < 31; i++) {
      // 16807 * r[i-1] % 2147483647 without overflow, on the signed value as glibc does
      const prev = r[i - 1]! | 0;
      const hi = Math.trunc(prev / 127773);
      const lo = prev % 127773;
      let word = 16807 * lo - 2836 * hi;
      if (word < 0) word += 2147483647;
      r[i] = word;
    }
    for (let i = 31; i < 34; i++) r[i] = r[i - 31]!;
    for (let i = 34; i < 344; i++) r[i] = (r[i - 31]! + r[i - 3]!) >>> 0;
    this.r = r.slice(344 - 34);
    this.i = 0;
  }

  /** rand(): 0 .. RAND_MAX. */
  rand(): number {
    // the last 34 values, oldest first: the next is r[n-31] + r[n-3]
    const r = this.r;
    const next = (r[(this.i + 3) % 34]! + r[(this.i + 31) % 34]!) >>> 0;
    r[this.i] = next;
    this.i = (this.i + 1) % 34;
    return next >>> 1;
  }
}

/**
 * The MTest_<Collective> wrappers of mpicolltest.h: the blocking call, or (`isBlocking` false, the
 * tests' -nonblocking argument) its nonblocking form and MPI_Wait.
 */
export async function mtestColl(mpi: Mpi, isBlocking: boolean, blocking: () => Promise<void>, nonblocking: () => Request): Promise<void> {
  if (isBlocking) await blocking();
  else await mpi.wait(nonblocking());
}
