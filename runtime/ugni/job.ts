/** What the uGNI faces of one job share: the out-of-band exchange and the directory of attached CDMs. */
import type { Proc } from '../proc.ts';
import type { GniNic } from './objects.ts';

/** One round of `exchange`: what each rank gave, and who waits for the rest. */
interface ExchangeRound {
  readonly values: unknown[];
  arrived: number;
  readonly waiting: Proc[];
}

/**
 * State shared by the uGNI faces of one job (what PMI and ALPS give a real job): an out-of-band
 * allgather (`exchange`) that costs no network traffic, and the directory of attached CDMs by
 * (rank, instance id), which stands for the mailbox addresses a real job exchanges before SMSG.
 */
export class GniJob {
  private readonly rounds: ExchangeRound[] = [];
  private readonly nextRound: number[];
  private readonly cdms = new Map<string, GniNic>();

  constructor(readonly procs: readonly Proc[]) {
    this.nextRound = new Array<number>(procs.length).fill(0);
  }

  /**
   * Rank `rank` joins its next exchange round with `value`; resolves with every rank's value of
   * that round once all ranks have joined it (a rank never sees a value given after it asked).
   */
  async exchange(rank: number, value: unknown): Promise<unknown[]> {
    const proc = this.procs[rank]!;
    const k = this.nextRound[rank]!;
    this.nextRound[rank] = k + 1;
    let round = this.rounds[k];
    if (!round) this.rounds[k] = round = { values: new Array<unknown>(this.procs.length), arrived: 0, waiting: [] };
    round.values[rank] = value;
    round.arrived++;
    if (round.arrived === this.procs.length) {
      for (const p of round.waiting.splice(0)) p.wake();
    } else {
      await proc.cpu(0, 'gni.exchange');
      while (round.arrived < this.procs.length) {
        round.waiting.push(proc);
        await proc.engine.suspend(proc.thread, () => `gni.exchange (round ${k}: ${round.arrived} of ${this.procs.length} ranks joined)`);
      }
    }
    return round.values.slice();
  }

  /** @internal */ addCdm(rank: number, instId: number, nic: GniNic): void {
    this.cdms.set(`${rank}/${instId}`, nic);
  }

  /** @internal */ removeCdm(rank: number, instId: number): void {
    this.cdms.delete(`${rank}/${instId}`);
  }

  /** @internal The attached CDM of `rank` with instance id `instId`. */
  cdm(rank: number, instId: number): GniNic | undefined {
    return this.cdms.get(`${rank}/${instId}`);
  }
}
