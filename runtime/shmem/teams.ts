import type { Group } from './collectives.ts';
import { TEAM_SLOTS } from './collectives.ts';
import { ShmemGroupCollectives } from './group-collectives.ts';
import { PeSet } from './pe-set.ts';
import { ShmemError } from './symmetric.ts';
import { ShmemTeam, type TeamConfig } from './team.ts';

/** Every slot free (bits 0 and 1, TEAM_WORLD's and TEAM_SHARED's, are never given out). */
const ALL_SLOTS = 2 ** TEAM_SLOTS - 1;

/**
 * Teams (OpenSHMEM 1.5 §9.4): TEAM_WORLD, TEAM_SHARED (the PEs of this PE's node), team queries,
 * splits and `teamSync`. A team owns a slot of every member's synchronisation segment (its
 * dissemination counters and scratch words), agreed at the split as SOS does
 * (src/shmem_team.c, shmem_internal_team_split_strided): an AND over the parent team of each
 * PE's free slots picks the lowest slot free on every PE of the new team, so a split costs a
 * sync, a get from every parent PE and another sync. At most TEAM_SLOTS - 2 (14) split teams
 * exist at once; a split beyond that fails on every parent PE.
 */
export class ShmemTeams extends ShmemGroupCollectives {
  /** The team of every PE (SHMEM_TEAM_WORLD). */
  readonly TEAM_WORLD: ShmemTeam = new ShmemTeam('TEAM_WORLD', 'TEAM_WORLD', PeSet.strided(0, 1, this.dmapp.npes), this.dmapp.pe, -1, {}, this.heap);
  /** What a split hands the PEs it leaves out, and what a team variable holds when it names no team (SHMEM_TEAM_INVALID). */
  readonly TEAM_INVALID = null;
  private shared: ShmemTeam | null = null;
  /** Slots free on this PE, one bit each. */
  private freeSlots = ALL_SLOTS & ~3;

  /** The PEs of this PE's node, in PE order (SHMEM_TEAM_SHARED: the PEs it could reach by load and store). */
  get TEAM_SHARED(): ShmemTeam {
    if (!this.shared) {
      const node = this.job.nodeOf(this.dmapp.pe);
      const pes = PeSet.of(this.job.pesOn(node));
      this.shared = new ShmemTeam(`TEAM_SHARED@node${node}`, 'TEAM_SHARED', pes, pes.index(this.dmapp.pe), 1, {}, this.heap);
    }
    return this.shared;
  }

  /** This PE's number in `team`; -1 for TEAM_INVALID (shmem_team_my_pe). */
  teamMyPe(team: ShmemTeam | null): number {
    return team === null ? -1 : this.checkTeam('teamMyPe', 'team', team).me;
  }

  /** The number of PEs of `team`; -1 for TEAM_INVALID (shmem_team_n_pes). */
  teamNPes(team: ShmemTeam | null): number {
    return team === null ? -1 : this.checkTeam('teamNPes', 'team', team).pes.size;
  }

  /** The configuration `team` was split with (shmem_team_get_config). */
  teamGetConfig(team: ShmemTeam | null): TeamConfig {
    return { numContexts: this.checkTeam('teamGetConfig', 'team', team).config.numContexts ?? 0 };
  }

  /**
   * The number in `destTeam` of PE `srcPe` of `srcTeam`, or -1 if that PE is not in `destTeam`,
   * `srcPe` is not a PE of `srcTeam`, or either team is TEAM_INVALID (shmem_team_translate_pe).
   */
  teamTranslatePe(srcTeam: ShmemTeam | null, srcPe: number, destTeam: ShmemTeam | null): number {
    const call = 'teamTranslatePe';
    if (!Number.isInteger(srcPe)) throw new ShmemError(`${call}: srcPe=${srcPe} must be an integer`);
    if (srcTeam === null || destTeam === null) return -1;
    const src = this.checkTeam(call, 'srcTeam', srcTeam);
    const dest = this.checkTeam(call, 'destTeam', destTeam);
    if (srcPe < 0 || srcPe >= src.pes.size) return -1;
    return dest.pes.index(src.pes.pe(srcPe));
  }

  /**
   * Makes a team of the `size` PEs `start`, `start + stride`, ... of `parent` (numbers of the
   * parent; `stride` may be negative, and is ignored when `size` is 1): every PE of `parent`
   * calls it with the same arguments; it returns the new team on its PEs and TEAM_INVALID on the
   * others (shmem_team_split_strided). Fails on every parent PE when no slot is free on every
   * PE of the new team.
   */
  async teamSplitStrided(parent: ShmemTeam | null, start: number, stride: number, size: number, config: TeamConfig = {}): Promise<ShmemTeam | null> {
    const call = 'teamSplitStrided';
    const p = this.checkTeam(call, 'parent', parent);
    const n = p.pes.size;
    for (const [k, v] of [['start', start], ['stride', stride], ['size', size]] as const) {
      if (!Number.isInteger(v)) throw new ShmemError(`${call}: ${k}=${v} must be an integer`);
    }
    if (start < 0 || start >= n) throw new ShmemError(`${call}: start=${start} is not a PE of the parent ${p.label} (0..${n - 1})`);
    if (size < 1 || size > n) throw new ShmemError(`${call}: size=${size} must be 1..${n} (the PEs of the parent ${p.label})`);
    const step = size === 1 ? 1 : stride;
    const last = start + (size - 1) * step;
    if (step === 0 || last < 0 || last >= n) throw new ShmemError(`${call}: start=${start}, stride=${stride}, size=${size} name PE ${last} of the parent ${p.label}, which has PEs 0..${n - 1}`);
    checkConfig(call, 'config', config);
    const g = this.teamGroup(call, p, { start, stride: step, size });
    const pes = p.pes.subset(start, step, size);
    const mine = pes.index(this.dmapp.pe);
    // the slots free on every PE of the new team: an AND over the parent, all ones from the others
    const seg = g.seg;
    const word = g.scratch + 8;
    const view = new DataView(seg.local.buffer, seg.local.byteOffset, seg.local.byteLength);
    view.setBigUint64(word, BigInt(mine >= 0 ? this.freeSlots : ALL_SLOTS), true);
    await this.disseminate(call, g);
    const words = new BigUint64Array(n);
    for (let i = 0; i < n; i++) {
      if (i === g.me) words[i] = view.getBigUint64(word, true);
      else await this.nic(call, this.dmapp.getNbi(p.pes.pe(i), seg, word, new Uint8Array(words.buffer, 8 * i, 8)));
    }
    await this.nic(call, this.dmapp.gsyncWait());
    let free = ALL_SLOTS;
    for (const w of words) free &= Number(w);
    const slot = free === 0 ? -1 : 31 - Math.clz32(free & -free);
    const key = `${p.key}/${p.children++}`;
    let team: ShmemTeam | null = null;
    if (slot >= 0 && mine >= 0) {
      this.freeSlots &= ~(1 << slot);
      // the slot's last team is gone and every signal of its last sync has landed: start from zero
      seg.local.fill(0, this.slotAt(slot), this.slotAt(slot + 1));
      team = new ShmemTeam(key, `team ${key} (${size} PE${size === 1 ? '' : 's'})`, pes, mine, slot, { ...config }, this.heap);
    }
    // no PE of the new team signals its slot before every PE has zeroed it
    await this.disseminate(call, g);
    if (slot < 0) {
      throw new ShmemError(`${call}: no team slot is free on every PE of the new team (${pes.describe()}): at most ${TEAM_SLOTS - 2} teams besides TEAM_WORLD and TEAM_SHARED exist at once; destroy one with teamDestroy`);
    }
    return team;
  }

  /**
   * Splits `parent` into a 2-D grid `xrange` PEs wide (shmem_team_split_2d): `xTeam` holds this
   * PE's row (consecutive parent PEs), `yTeam` its column (parent PEs `xrange` apart); the last
   * row may be short. Made as SOS does, by one split per row and per column, then a sync.
   */
  async teamSplit2d(parent: ShmemTeam | null, xrange: number, opts: { readonly xConfig?: TeamConfig; readonly yConfig?: TeamConfig } = {}): Promise<{ xTeam: ShmemTeam | null; yTeam: ShmemTeam | null }> {
    const call = 'teamSplit2d';
    const p = this.checkTeam(call, 'parent', parent);
    if (!Number.isInteger(xrange) || xrange < 1) throw new ShmemError(`${call}: xrange=${xrange} must be a positive integer`);
    const g = this.teamGroup(call, p, { xrange });
    const n = p.pes.size;
    const x = Math.min(xrange, n);
    const rows = Math.ceil(n / x);
    let xTeam: ShmemTeam | null = null;
    let yTeam: ShmemTeam | null = null;
    for (let i = 0; i < rows; i++) {
      const t = await this.teamSplitStrided(p, i * x, 1, i === rows - 1 && n % x !== 0 ? n % x : x, opts.xConfig);
      if (t) xTeam = t;
    }
    for (let i = 0; i < x; i++) {
      const t = await this.teamSplitStrided(p, i, x, Math.floor(n / x) + (i < n % x ? 1 : 0), opts.yConfig);
      if (t) yTeam = t;
    }
    await this.disseminate(call, g);
    return { xTeam, yTeam };
  }

  /** Destroys `team` on this PE, freeing its slot (every PE of the team calls it; shmem_team_destroy); its contexts are destroyed with it. */
  teamDestroy(team: ShmemTeam | null): void {
    const call = 'teamDestroy';
    if (team === null) return;
    const t = this.checkTeam(call, 'team', team);
    if (t.slot < 2) throw new ShmemError(`${call}: ${t.label} is predefined and cannot be destroyed`);
    this.teamGroup(call, t, {});
    t.destroyed = true;
    this.freeSlots |= 1 << t.slot;
    for (const c of t.contexts) c.destroyed = true;
  }

  /** Synchronises the PEs of `team`, without completing any RMA (shmem_team_sync). */
  async teamSync(team: ShmemTeam | null): Promise<void> {
    await this.disseminate('teamSync', this.teamGroup('teamSync', this.checkTeam('teamSync', 'team', team), {}));
  }

  /** Synchronises all PEs, without completing any RMA (shmem_sync_all: `teamSync(TEAM_WORLD)`). */
  async syncAll(): Promise<void> {
    await this.disseminate('syncAll', this.teamGroup('syncAll', this.TEAM_WORLD, {}, 'teamSync'));
  }

  /** `team`, checked: a live team of this PE; a ShmemError naming `call` and `arg` otherwise. */
  protected checkTeam(call: string, arg: string, team: ShmemTeam | null): ShmemTeam {
    if (team === null) throw new ShmemError(`${call}: ${arg} is TEAM_INVALID`);
    if (!(team instanceof ShmemTeam) || team.owner !== this.heap) throw new ShmemError(`${call}: ${arg} is not a team of PE ${this.dmapp.pe} (make one with teamSplitStrided)`);
    if (team.destroyed) throw new ShmemError(`${call}: ${arg} (${team.label}) was destroyed`);
    return team;
  }

  /**
   * The group of collective `call` on `team` with `args`, which every PE of the team must pass
   * alike: records the call (as `as`, for calls that are one operation under two names), and
   * throws a ShmemError naming both PEs if an earlier PE passed other arguments.
   */
  protected teamGroup(call: string, team: ShmemTeam, args: Readonly<Record<string, number | string>>, as = call): Group {
    this.job.agreement.enter(team.key, team.label, team.pes, this.dmapp.pe, { call: as, args });
    if (team.slot < 0) return this.worldGroup();
    const seg = this.ready();
    const at = this.slotAt(team.slot);
    return { label: team.label, pes: team.pes, me: team.me, seg, counters: at, scratch: at + 8 * this.slotRounds, nextEpoch: () => ++team.syncs };
  }
}

/** Checks a team configuration: only `numContexts`, a non-negative integer. */
function checkConfig(call: string, arg: string, config: TeamConfig): void {
  if (config === null || typeof config !== 'object') throw new ShmemError(`${call}: ${arg} must be an object ({ numContexts })`);
  for (const k of Object.keys(config)) if (k !== 'numContexts') throw new ShmemError(`${call}: ${arg}.${k} is not a team option; valid: numContexts`);
  const c = config.numContexts;
  if (c !== undefined && (!Number.isInteger(c) || c < 0)) throw new ShmemError(`${call}: ${arg}.numContexts=${c} must be a non-negative integer`);
}
