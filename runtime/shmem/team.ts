import type { PeSet } from './pe-set.ts';

/** Options of a team split (shmem_team_config_t with SHMEM_TEAM_NUM_CONTEXTS): the contexts the team will create. */
export interface TeamConfig {
  readonly numContexts?: number;
}

/**
 * A team as one PE holds it (shmem_team_t): an ordered set of the job's PEs with its own
 * synchronisation resources (a slot of every member's synchronisation segment). Ask about it
 * with `shmem.teamMyPe`, `teamNPes`, `teamTranslatePe`; the fields are the runtime's.
 */
export class ShmemTeam {
  /** @internal this PE's syncs of the team so far (its counters count up to it) */
  syncs = 0;
  /** @internal teams split from this one so far (every member makes them in the same order) */
  children = 0;
  /** @internal */
  destroyed = false;
  /** @internal the contexts made from the team (`teamCreateCtx`), destroyed with it */
  readonly contexts = new Set<{ destroyed: boolean }>();

  /** @internal */
  constructor(
    /** @internal the same on every member: TEAM_WORLD, TEAM_SHARED@node3, TEAM_WORLD/0/2, ... */
    readonly key: string,
    /** How messages name the team. */
    readonly label: string,
    /** @internal its PEs, in team order */
    readonly pes: PeSet,
    /** @internal this PE's number in the team */
    readonly me: number,
    /** @internal its slot of the synchronisation segment (-1: TEAM_WORLD, which uses the world counters) */
    readonly slot: number,
    /** @internal */
    readonly config: TeamConfig,
    /** @internal the heap of the PE that holds it */
    readonly owner: object,
  ) {}
}
