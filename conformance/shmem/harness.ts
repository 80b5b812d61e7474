import type { RankContext } from '../../runtime/rank.ts';
import { ShmemError, type Shmem, type ShmemTeam, type Symmetric, type TeamConfig } from '../../runtime/shmem/shmem.ts';
import { CRand } from '../mpich/mtest.ts';

/** A ported OpenSHMEM test: one PE's `main`; what it returns (nothing is 0) is that PE's exit status. */
export type ShmemProgram = (t: ShmemTest) => Promise<number | void>;

/** A ported test's module: its default export is the PE program. */
export type ShmemProgramModule = { readonly default: ShmemProgram };

/** Most lines a PE prints (the rest are dropped, and counted). */
const MAX_LINES = 200;

/** What a PE printed, in simulated-time order of the whole run. */
export interface PrintedLine {
  readonly pe: number;
  readonly line: string;
}

/** C's `exit(status)` from a PE program: ends that PE with the status. */
export class TestExit extends Error {
  constructor(readonly status: number) {
    super(`exit(${status})`);
    this.name = 'TestExit';
  }
}

/** C's `abort()` or a failed `assert`: the run fails with this message. */
export class TestAbort extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TestAbort';
  }
}

/**
 * What a C test of the OpenSHMEM suites has around its SHMEM calls, for one PE: `printf` (into
 * the run's output), `exit`, `abort` and `assert`, C's `rand`/`srand` (glibc's generator),
 * `sleep` and a wall clock (simulated time), the test's arguments, and its static symmetric data
 * (`statics`: C globals are symmetric; here they are one allocation made at the start, carved in
 * the order the test declares them).
 */
export class ShmemTest {
  readonly shmem: Shmem;
  private printed = 0;
  private readonly crand = new CRand(1);

  constructor(
    readonly ctx: RankContext,
    /** The test's name (a port of a family of tests tells them apart by it). */
    readonly name: string,
    /** The test's arguments (`deprecated` for the build with ENABLE_DEPRECATED_TESTS; a type for the Fortran families). */
    readonly args: readonly string[],
    private readonly sink: (l: PrintedLine) => void = () => {},
  ) {
    this.shmem = ctx.shmem;
  }

  /** Whether the test was given argument `a`. */
  has(a: string): boolean {
    return this.args.includes(a);
  }

  /** printf (and fprintf to stdout or stderr): the line goes to the run's output. */
  printf(line: string): void {
    const pe = this.ctx.rank;
    if (this.printed++ < MAX_LINES) for (const l of line.replace(/\n$/, '').split('\n')) this.sink({ pe, line: l });
    else if (this.printed === MAX_LINES + 1) this.sink({ pe, line: `(PE ${pe} prints more lines)` });
  }

  /** exit(status): this PE ends with `status`. */
  exit(status: number): never {
    throw new TestExit(status);
  }

  /** abort(): the run fails. */
  abort(why = 'abort()'): never {
    throw new TestAbort(`PE ${this.ctx.rank}: ${why}`);
  }

  /** assert(cond): a failed one aborts, naming the expression. */
  assert(cond: boolean, expr: string): void {
    if (!cond) this.abort(`assertion failed: ${expr}`);
  }

  /** srand(seed). */
  srand(seed: number): void {
    this.crand.srand(seed);
  }

  /** rand(): glibc's, 0 .. RAND_MAX. */
  rand(): number {
    return this.crand.rand();
  }

  /** RAND_MAX of glibc. */
  readonly RAND_MAX = 2147483647;

  /** sleep(sec) / usleep: the PE computes for that long in simulated time. */
  sleep(sec: number): Promise<void> {
    return this.ctx.compute({ us: sec * 1e6 });
  }

  /** A wall clock in seconds (simulated time), as tests_sos_wtime() and gettimeofday give. */
  wtime(): number {
    return this.ctx.now() / 1e6;
  }

  /**
   * The test's static symmetric variables: one allocation of them all (a barrier, as the
   * collective malloc is), returned in order, each aligned to 16 bytes and zeroed. C's statics
   * exist with their initial values before main runs, so another PE may access them at once:
   * `init` sets the initial values, then a barrier, so that no PE sees a variable before its
   * initialiser has run. A variable's `bytes` bound range checks up to the end of the
   * allocation, as for any pointer into it.
   */
  async statics(bytes: readonly number[], init?: (vars: Symmetric[]) => void): Promise<Symmetric[]> {
    const at: number[] = [];
    let total = 0;
    for (const b of bytes) {
      at.push(total);
      total += Math.ceil(Math.max(b, 1) / 16) * 16;
    }
    const seg = await this.shmem.malloc(total);
    const vars = at.map((o) => seg.at(o));
    if (init) {
      init(vars);
      await this.shmem.barrierAll();
    }
    return vars;
  }

  /**
   * The C call's return code of a SHMEM call that reports bad arguments that way (team splits,
   * `shmem_team_get_config`, `shmem_ctx_create`): 0 and the value when it succeeds, nonzero when
   * phit refuses it with a ShmemError (other errors propagate).
   */
  async ret<T>(f: () => T | Promise<T>): Promise<{ ret: number; value: T | null }> {
    try {
      return { ret: 0, value: await f() };
    } catch (e) {
      if (e instanceof ShmemError) return { ret: 1, value: null };
      throw e;
    }
  }

  /**
   * shmem_team_split_strided as a C test calls it, its return code unread: the new team, or
   * TEAM_INVALID (null) when phit refuses the split (no team slot free, as SOS's SHMEM_TEAMS_MAX
   * runs out; a start or size outside the parent), which C learns only from the return code.
   */
  async split(parent: ShmemTeam | null, start: number, stride: number, size: number, config: TeamConfig = {}): Promise<ShmemTeam | null> {
    return (await this.ret(() => this.shmem.teamSplitStrided(parent, start, stride, size, config))).value;
  }
}
