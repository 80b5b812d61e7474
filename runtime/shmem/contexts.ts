import type { Dmapp } from '../dmapp/dmapp.ts';
import type { Proc } from '../proc.ts';
import type { ShmemJob } from './job.ts';
import { ShmemSignals } from './signals.ts';
import { ShmemError, type PeHeap } from './symmetric.ts';
import type { ShmemTeam } from './team.ts';
import { ShmemTeamCollectives } from './team-collectives.ts';

/** Options of `ctxCreate` and `teamCreateCtx` (SHMEM_CTX_PRIVATE, SHMEM_CTX_SERIALIZED, SHMEM_CTX_NOSTORE). */
export interface CtxOptions {
  readonly private?: boolean;
  readonly serialized?: boolean;
  readonly nostore?: boolean;
}

const CTX_OPTIONS: readonly string[] = ['private', 'serialized', 'nostore'];

/**
 * A communication context (shmem_ctx_t, OpenSHMEM 1.5 §9.5): the RMA and atomic calls of
 * `ctx.shmem` (`putmem`, `getmem`, their `...Nbi` forms, the typed puts and gets, `p`, `g`,
 * `iput`, `iget`, every atomic, the put-with-signal calls) and `quiet`, `fence`, issued on resources of its own: a DMAPP
 * instance with its own implicit completion, so its `quiet` waits for its own operations only
 * and another context's `quiet` (the default one's included) never waits for them. The three
 * options change nothing in a program without threads. PE numbers are those of the context's
 * team (TEAM_WORLD for `ctxCreate`).
 */
export class ShmemCtx extends ShmemSignals {
  /** @internal */
  destroyed = false;

  /** @internal */
  constructor(
    dmapp: Dmapp,
    proc: Proc,
    job: ShmemJob,
    heap: PeHeap,
    /** @internal the team whose PE numbers its calls take */
    readonly team: ShmemTeam,
    /** The options it was made with. */
    readonly options: CtxOptions,
    /** @internal SHMEM_CTX_DEFAULT, which cannot be destroyed */
    readonly isDefault: boolean,
  ) {
    super(dmapp, proc, job, heap);
  }

  /** Waits until every put, get and atomic issued on this context has completed (shmem_ctx_quiet). */
  override async quiet(): Promise<void> {
    this.checkLive('quiet');
    await super.quiet();
  }

  /** Orders this context's puts and atomics to each PE (shmem_ctx_fence; as `quiet`, which is stronger). */
  override async fence(): Promise<void> {
    this.checkLive('fence');
    await super.fence();
  }

  /** A PE number of the context's team, as the job PE it names. */
  protected override target(call: string, arg: string, pe: number): number {
    this.checkLive(call);
    const t = this.team;
    if (t.slot < 0) return super.target(call, arg, pe);
    if (!Number.isInteger(pe) || pe < 0 || pe >= t.pes.size) throw new ShmemError(`${call}: ${arg}=${pe} is not a PE of the context's ${t.label} (0..${t.pes.size - 1})`);
    return t.pes.pe(pe);
  }

  private checkLive(call: string): void {
    if (this.destroyed) throw new ShmemError(`${call}: the context was destroyed${this.team.destroyed ? ` with its ${this.team.label}` : ''}`);
  }
}

/**
 * Contexts (OpenSHMEM 1.5 §9.5): `CTX_DEFAULT` (the calls of `ctx.shmem` itself), `ctxCreate`,
 * `teamCreateCtx`, `ctxGetTeam` and `ctxDestroy`. Creating a context is local and costs no
 * simulated time.
 */
export class ShmemContexts extends ShmemTeamCollectives {
  /** The default context (SHMEM_CTX_DEFAULT): its calls are `ctx.shmem`'s, on TEAM_WORLD. */
  readonly CTX_DEFAULT: ShmemCtx = new ShmemCtx(this.dmapp, this.proc, this.job, this.heap, this.TEAM_WORLD, {}, true);

  /** A context of its own on TEAM_WORLD (shmem_ctx_create). */
  ctxCreate(options: CtxOptions = {}): ShmemCtx {
    checkCtxOptions('ctxCreate', options);
    return new ShmemCtx(this.dmapp.fork(), this.proc, this.job, this.heap, this.TEAM_WORLD, { ...options }, false);
  }

  /** A context of its own whose PE numbers are those of `team` (shmem_team_create_ctx); destroyed with the team. */
  teamCreateCtx(team: ShmemTeam | null, options: CtxOptions = {}): ShmemCtx {
    const t = this.checkTeam('teamCreateCtx', 'team', team);
    checkCtxOptions('teamCreateCtx', options);
    const c = new ShmemCtx(this.dmapp.fork(), this.proc, this.job, this.heap, t, { ...options }, false);
    t.contexts.add(c);
    return c;
  }

  /** The team of `ctx` (shmem_ctx_get_team). */
  ctxGetTeam(ctx: ShmemCtx): ShmemTeam {
    return this.checkCtx('ctxGetTeam', ctx).team;
  }

  /** Completes the context's outstanding operations, then destroys it (shmem_ctx_destroy); CTX_DEFAULT cannot be. */
  async ctxDestroy(ctx: ShmemCtx): Promise<void> {
    const c = this.checkCtx('ctxDestroy', ctx);
    if (c.isDefault) throw new ShmemError('ctxDestroy: ctx is CTX_DEFAULT, which cannot be destroyed');
    await c.quiet();
    c.destroyed = true;
    c.team.contexts.delete(c);
  }

  private checkCtx(call: string, ctx: ShmemCtx): ShmemCtx {
    if (!(ctx instanceof ShmemCtx) || ctx.team.owner !== this.heap) throw new ShmemError(`${call}: ctx is not a context of PE ${this.dmapp.pe} (make one with ctxCreate)`);
    if (ctx.destroyed) throw new ShmemError(`${call}: ctx was destroyed`);
    return ctx;
  }
}

function checkCtxOptions(call: string, options: CtxOptions): void {
  if (options === null || typeof options !== 'object') throw new ShmemError(`${call}: options must be an object ({ private, serialized, nostore })`);
  for (const [k, v] of Object.entries(options)) {
    if (!CTX_OPTIONS.includes(k)) throw new ShmemError(`${call}: options.${k} is not a context option; valid: ${CTX_OPTIONS.join(', ')}`);
    if (typeof v !== 'boolean') throw new ShmemError(`${call}: options.${k}=${String(v)} must be a boolean`);
  }
}
