import { describe, expect, it } from 'vitest';
import { resolveParams } from '../apps/app.ts';
import { apps } from '../apps/index.ts';
import { DeadlockError, RankError } from '../fabric/engine/engine.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate } from '../runtime/simulate.ts';
import { rejection } from './helpers.ts';

describe('deadlock diagnosis', () => {
  it.each([
    { where: 'different nodes', nodes: 2, ppn: 1 },
    { where: 'same node', nodes: 1, ppn: 2 },
  ])('two ranks that both receive first deadlock, and each is named with its call ($where)', async ({ nodes, ppn }) => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes,
        ppn,
        program: async ({ mpi }) => {
          const other = 1 - mpi.rank;
          const buf = new Float64Array(4);
          await mpi.recv(buf, other, 1);
          await mpi.send(buf, other, 1);
        },
      }),
    );
    expect(e).toBeInstanceOf(DeadlockError);
    expect(e.message).toContain('rank 0: recv(source=1, tag=1)');
    expect(e.message).toContain('rank 1: recv(source=0, tag=1)');
    const d = e as DeadlockError;
    expect(d.blocked).toEqual(['rank 0: recv(source=1, tag=1)', 'rank 1: recv(source=0, tag=1)']);
    // nobody did anything: the deadlock is found at time 0
    expect(d.timePs).toBe(0);
  });

  it('a rank left in barrier after another has returned is diagnosed as waiting in barrier', async () => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 2,
        program: async ({ mpi, compute }) => {
          await compute({ us: 5 });
          if (mpi.rank === 1) await mpi.barrier();
        },
      }),
    );
    expect(e).toBeInstanceOf(DeadlockError);
    const d = e as DeadlockError;
    expect(d.blocked).toHaveLength(1);
    expect(d.blocked[0]).toMatch(/^rank 1: barrier\(dissemination\) round 0/);
    expect(d.blocked[0]).toContain('waiting for rank 0');
    expect(e.message).toContain('1 rank(s) are blocked');
    expect(d.timePs).toBeGreaterThan(5e6);
  });

  it('only the blocked ranks are listed; wildcards and waitAll are described', async () => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 4,
        program: async ({ mpi }) => {
          if (mpi.rank === 1) await mpi.recv(new Uint8Array(1), mpi.ANY_SOURCE, mpi.ANY_TAG);
          if (mpi.rank === 2) await mpi.waitAll([mpi.irecv(new Uint8Array(1), 3, 5), mpi.irecv(new Uint8Array(1), 0, 6)]);
          if (mpi.rank === 0) await mpi.send(new Uint8Array(1), 2, 6);
        },
      }),
    );
    expect(e).toBeInstanceOf(DeadlockError);
    const d = e as DeadlockError;
    expect(d.blocked).toHaveLength(2);
    expect(d.blocked[0]).toBe('rank 1: recv(source=ANY_SOURCE, tag=ANY_TAG)');
    // rank 0's message (tag 6) arrived, so only the tag-5 receive is pending
    expect(d.blocked[1]).toMatch(/^rank 2: waitAll\(1 of 2 pending: irecv\(source=3, tag=5\)\)$/);
    expect(e.message).not.toContain('rank 0:');
    expect(e.message).not.toContain('rank 3:');
  });

  it('a rendezvous send whose receiver never posts is diagnosed on the sender', async () => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 2,
        program: async ({ mpi }) => {
          if (mpi.rank === 0) await mpi.send(new Uint8Array(100000), 1, 3);
        },
      }),
    );
    expect(e).toBeInstanceOf(DeadlockError);
    expect((e as DeadlockError).blocked).toEqual(['rank 0: send(dest=1, tag=3, 100000 bytes)']);
  });
});

describe('rank failures', () => {
  it('a program that throws rejects with RankError naming the rank, the time and the error', async () => {
    const boom = new Error('boom from the program');
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 4,
        program: async ({ rank, compute, mpi }) => {
          await compute({ us: 5 });
          if (rank === 2) throw boom;
          // the others would wait forever: the failure must win over a deadlock diagnosis
          await mpi.recv(new Uint8Array(1), 2, 0);
        },
      }),
    );
    expect(e).toBeInstanceOf(RankError);
    const re = e as RankError;
    expect(re.rank).toBe(2);
    expect(re.error).toBe(boom);
    expect(re.timePs).toBe(5e6);
    expect(re.message).toBe('rank 2 failed at 5.000 us: boom from the program');
  });

  it('a non-Error thrown value is reported too', async () => {
    const e = await rejection(
      simulate({
        machine: 'xe6',
        nodes: 2,
        program: async ({ rank }) => {
          if (rank === 1) throw 'plain string';
        },
      }),
    );
    expect(e).toBeInstanceOf(RankError);
    expect(e.message).toBe('rank 1 failed at 0.000 us: plain string');
  });
});

describe('determinism', () => {
  const halo = async (ctx: RankContext) => apps.halo3d!.main(ctx, resolveParams(apps.halo3d!, { nx: '6', ny: '5', nz: '4', iterations: '3' }));

  it('halo3d twice with the same seed gives identical time, results and event counts', async () => {
    const runs = [];
    for (let k = 0; k < 2; k++) runs.push(await simulate({ machine: 'xe6', nodes: 4, ppn: 2, seed: 7, program: halo }));
    const [a, b] = runs as [(typeof runs)[0], (typeof runs)[0]];
    expect(a.simulatedTimeUs).toBeGreaterThan(0);
    expect(b.simulatedTimeUs).toBe(a.simulatedTimeUs);
    expect(b.result).toEqual(a.result);
    expect(b.rankResults).toEqual(a.rankResults);
    expect(b.events).toBe(a.events);
    expect(b.packets).toBe(a.packets);
    expect(b.packetHops).toBe(a.packetHops);
    expect(a.result?.rows[0]?.check).toBe('passed');
  });

  it('a wildcard-receive program is reproducible: same arrival order and times on every run', async () => {
    const prog = async ({ mpi, now, compute }: RankContext) => {
      if (mpi.rank !== 0) {
        await compute({ us: (mpi.rank % 3) * 0.01 });
        await mpi.send(new Uint8Array(50 + mpi.rank * 300), 0, mpi.rank);
        return [];
      }
      const order: [number, number][] = [];
      for (let i = 1; i < mpi.size; i++) {
        const s = await mpi.recv(new Uint8Array(20000), mpi.ANY_SOURCE, mpi.ANY_TAG);
        order.push([s.source, now()]);
      }
      return order;
    };
    const a = await simulate({ machine: 'xe6', nodes: 8, seed: 3, program: prog });
    const b = await simulate({ machine: 'xe6', nodes: 8, seed: 3, program: prog });
    expect(a.result.map(([s]) => s).sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(b.result).toEqual(a.result);
    expect(b.simulatedTimeUs).toBe(a.simulatedTimeUs);
  });
});
