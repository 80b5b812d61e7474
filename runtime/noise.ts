import { Prng } from '../fabric/engine/prng.ts';
import type { NoiseParams } from '../fabric/machine.ts';

/**
 * The operating-system detours of one core: intervals in which the core runs the OS and not its
 * rank. Periodic detours come every `period` from a random phase; random ones arrive as a
 * Poisson process of mean gap `period`. Queries must come in non-decreasing time (a rank's
 * clock only moves forward), so the schedule is generated lazily, one detour ahead.
 */
export class Detours {
  private start = 0;
  private end = 0;
  /** Detours that have delayed the rank, and their time (ps). */
  count = 0;
  stolenPs = 0;

  constructor(
    private readonly p: NoiseParams,
    private readonly rng: Prng,
  ) {
    this.start = p.kind === 'periodic' ? Math.floor(rng.next() * p.periodPs) : this.gap();
    this.end = this.start + p.detourPs;
  }

  /** The noise a core sees, or null when it sees none (none, or core specialisation). */
  static of(p: NoiseParams, seed: number, core: number): Detours | null {
    if (p.kind === 'none' || p.coreSpec) return null;
    return new Detours(p, new Prng((Math.imul(seed, 0x9e3779b1) ^ Math.imul(core + 1, 0x85ebca6b)) >>> 0));
  }

  /** When `ps` of the rank's work that may start at `t` ends, detours in between taking the core. */
  run(t: number, ps: number): number {
    let now = t;
    let left = ps;
    for (;;) {
      while (this.end <= now) this.advance();
      if (this.start <= now) {
        this.steal(this.end - now);
        now = this.end;
        this.advance();
        continue;
      }
      if (now + left <= this.start) return now + left;
      left -= this.start - now;
      this.steal(this.end - this.start);
      now = this.end;
      this.advance();
    }
  }

  private steal(ps: number): void {
    this.count++;
    this.stolenPs += ps;
  }

  private advance(): void {
    this.start = this.p.kind === 'periodic' ? this.start + this.p.periodPs : this.end + this.gap();
    this.end = this.start + this.p.detourPs;
  }

  /** Exponential gap of mean period (whole ps). */
  private gap(): number {
    return Math.round(-Math.log(1 - this.rng.next()) * this.p.periodPs);
  }
}
