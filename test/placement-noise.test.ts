import { describe, expect, it } from 'vitest';
import { resolveParams } from '../apps/app.ts';
import { findApp } from '../apps/index.ts';
import { machineSpec, resolveMachine } from '../fabric/machine.ts';
import { Prng } from '../fabric/engine/prng.ts';
import { Detours } from '../runtime/noise.ts';
import { placeRanks, PLACEMENTS } from '../runtime/placement.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate } from '../runtime/simulate.ts';
import { phit } from './helpers.ts';

describe('rank placement', () => {
  it.each(PLACEMENTS)('%s gives every node ppn ranks with indices 0..ppn-1', (placement) => {
    const { node, inst } = placeRanks(placement, 5, 3, 7);
    const seen = new Set<string>();
    for (let r = 0; r < 15; r++) {
      expect(node[r]).toBeGreaterThanOrEqual(0);
      expect(node[r]).toBeLessThan(5);
      expect(inst[r]).toBeLessThan(3);
      seen.add(`${node[r]}/${inst[r]}`);
    }
    expect(seen.size).toBe(15);
  });

  it('contiguous fills nodes in blocks, round-robin deals ranks in turn, random is a seeded shuffle', () => {
    expect(Array.from(placeRanks('contiguous', 3, 2, 1).node)).toEqual([0, 0, 1, 1, 2, 2]);
    expect(Array.from(placeRanks('round-robin', 3, 2, 1).node)).toEqual([0, 1, 2, 0, 1, 2]);
    const a = Array.from(placeRanks('random', 16, 4, 1).node);
    expect(Array.from(placeRanks('random', 16, 4, 1).node)).toEqual(a);
    expect(Array.from(placeRanks('random', 16, 4, 2).node)).not.toEqual(a);
    expect(a).not.toEqual(Array.from(placeRanks('contiguous', 16, 4, 1).node));
    expect(() => placeRanks('diagonal' as never, 2, 2, 1)).toThrow(/placement "diagonal": valid: contiguous, round-robin, random/);
  });

  it('a run sees its placement, and halo3d checks its data under every placement with different times', async () => {
    const halo = findApp('halo3d');
    const params = resolveParams(halo, { nx: '8', ny: '8', nz: '8', iterations: '2' });
    const times: number[] = [];
    for (const placement of PLACEMENTS) {
      const r = await simulate({
        machine: 'xe6',
        nodes: 8,
        ppn: 4,
        placement,
        program: async (ctx: RankContext) => {
          if (placement === 'round-robin') expect(ctx.machine.nodeOf(ctx.rank)).toBe(ctx.rank % 8);
          expect(ctx.machine.placement).toBe(placement);
          return halo.main(ctx, params);
        },
      });
      expect(r.placement).toBe(placement);
      times.push(r.simulatedTimeUs);
    }
    // the same exchange over different node pairs takes different times
    expect(new Set(times).size).toBe(3);
  });

  it('node-level apps refuse a placement they cannot use; the CLI names a bad placement', async () => {
    const putrate = findApp('putrate');
    await expect(simulate({ machine: 'xc30', nodes: 2, ppn: 2, placement: 'round-robin', program: (ctx) => putrate.main(ctx, resolveParams(putrate, {})) })).rejects.toThrow(/--placement contiguous/);
    const { code, err } = await phit('run', 'pingpong', '--nodes', '2', '--placement', 'spiral');
    expect(code).toBe(2);
    expect(err.join('\n')).toContain('--placement spiral: valid: contiguous, round-robin, random');
  });
});

/** One-way 8-byte MPI latency between ranks 0 and 1 on two xc30 nodes (us). */
async function latency8(set: Record<string, string>): Promise<number> {
  const pp = findApp('pingpong');
  const r = await simulate({ machine: 'xc30', nodes: 2, set, program: (ctx) => pp.main(ctx, resolveParams(pp, { minBytes: '8', maxBytes: '8' })) });
  return (r.result as { rows: { latencyUs: number }[] }).rows[0]!.latencyUs;
}

describe('sockets', () => {
  it('A21 is for CPU 0; a rank on the socket without the NIC pays one crossing per send and one per wait', async () => {
    const near = await latency8({});
    const far = await latency8({ 'cpu.nicSocket': '1' });
    const crossUs = resolveMachine(machineSpec('xc30'), 2).cpu.socketCrossingPs / 1e6;
    expect(crossUs).toBeGreaterThan(0);
    // one way: the sender's post and the receiver's wait
    expect(far - near).toBeCloseTo(2 * crossUs, 2);
    expect(near).toBeGreaterThan(1.3 * 0.85);
    expect(near).toBeLessThan(1.3 * 1.15);
  });

  it('ranks fill socket 0 first: with 2 ranks per node on 2 sockets, rank 1 is on socket 1', async () => {
    const r = await simulate({
      machine: 'xc30',
      nodes: 2,
      ppn: 2,
      program: async ({ mpi, now }) => {
        // ranks 0 and 2 (socket 0) ping-pong, then ranks 1 and 3 (socket 1)
        const buf = new Uint8Array(8);
        const times: number[] = [];
        // each pair twice: the second run of each is measured (the first sets up the mailboxes)
        for (const [a, b] of [[0, 2], [1, 3], [0, 2], [1, 3]] as const) {
          await mpi.barrier();
          const t = now();
          for (let i = 0; i < 10; i++) {
            if (mpi.rank === a) {
              await mpi.send(buf, b, 0);
              await mpi.recv(buf, b, 0);
            } else if (mpi.rank === b) {
              await mpi.recv(buf, a, 0);
              await mpi.send(buf, a, 0);
            }
          }
          times.push((now() - t) / 20);
        }
        return times;
      },
    });
    // rank 0 timed the socket-0 pair, rank 1 the socket-1 pair
    const socket0 = r.rankResults[0]![2]!;
    const socket1 = r.rankResults[1]![3]!;
    expect(socket1 - socket0).toBeCloseTo(0.2, 1);
  });

  it('a nicSocket that is not a socket is refused, naming the key', () => {
    expect(() => resolveMachine(machineSpec('xc30'), 2, { 'cpu.nicSocket': '2' })).toThrow(/cpu.nicSocket: 2 is not a socket \(0..1\)/);
    expect(() => resolveMachine(machineSpec('xc30'), 2, { 'noise.kind': 'loud' })).toThrow(/noise.kind: "loud" is not one of none, periodic, random/);
  });
});

describe('operating-system noise', () => {
  const P = { kind: 'periodic', periodPs: 100e6, detourPs: 10e6, coreSpec: false } as const;

  it('periodic detours take 10 % of a core: 900 us of work spans 1000 us', () => {
    const d = new Detours(P, new Prng(3));
    const end = d.run(0, 900e6);
    expect(end).toBeGreaterThanOrEqual(990e6);
    expect(end).toBeLessThanOrEqual(1010e6);
    expect(d.count).toBeGreaterThanOrEqual(9);
  });

  it('a wake-up inside a detour waits for its end; outside one it costs nothing', () => {
    const d = new Detours(P, new Prng(3));
    // find the first detour by running zero work at increasing times
    let t = 0;
    let end = d.run(t, 0);
    while (end === t) {
      t += 1e6;
      end = d.run(t, 0);
    }
    expect(end - t).toBeLessThanOrEqual(10e6);
    expect(d.run(end, 0)).toBe(end);
  });

  it('random detours stretch work by detour/period on average; core specialisation removes them', async () => {
    const run = (set: Record<string, string>, seed = 1) =>
      simulate({ machine: 'xc30', nodes: 4, ppn: 4, seed, set, program: async ({ compute, now }) => (await compute({ us: 1000 }), now()) });
    const noisy = await run({ 'noise.coreSpec': 'no', 'noise.period': '100us', 'noise.detour': '10us' });
    const mean = noisy.rankResults.reduce((a, b) => a + b, 0) / noisy.rankResults.length;
    expect(mean).toBeGreaterThan(1100 * 0.9);
    expect(mean).toBeLessThan(1100 * 1.1);
    const quiet = await run({ 'noise.period': '100us', 'noise.detour': '10us' });
    expect(quiet.rankResults.every((t) => t === 1000)).toBe(true);
    // the same seed gives the same detours; another seed others
    const again = await run({ 'noise.coreSpec': 'no', 'noise.period': '100us', 'noise.detour': '10us' });
    expect(again.rankResults).toEqual(noisy.rankResults);
    const other = await run({ 'noise.coreSpec': 'no', 'noise.period': '100us', 'noise.detour': '10us' }, 2);
    expect(other.rankResults).not.toEqual(noisy.rankResults);
  });

  it('A26 context: without core specialisation the software allreduce loses more than the collective engine', async () => {
    const reps = 10;
    const allreduce = async (algorithm: string, set: Record<string, string>): Promise<number> => {
      const r = await simulate({
        machine: 'xc30',
        nodes: 32,
        ppn: 16,
        set,
        program: async ({ mpi, now }) => {
          const a = Float64Array.of(1);
          const b = new Float64Array(1);
          await mpi.barrier();
          const t = now();
          for (let i = 0; i < reps; i++) await mpi.allreduce(a, b, mpi.SUM, { algorithm });
          if (b[0] !== mpi.size) throw new Error(`allreduce gave ${b[0]}`);
          return (now() - t) / reps;
        },
      });
      return r.result;
    };
    const noisy = { 'noise.coreSpec': 'no' };
    const sw = await allreduce('recursiveDoubling', {});
    const swNoisy = await allreduce('recursiveDoubling', noisy);
    const ce = await allreduce('collectiveEngine', {});
    const ceNoisy = await allreduce('collectiveEngine', noisy);
    expect(swNoisy).toBeGreaterThan(sw * 1.2);
    expect(ceNoisy).toBeGreaterThan(ce);
    // seed 001: "the gains from core specialization are smaller ... with offload to Aries"
    expect(ceNoisy - ce).toBeLessThan(swNoisy - sw);
    expect(ceNoisy).toBeLessThan(swNoisy);
  });
});
