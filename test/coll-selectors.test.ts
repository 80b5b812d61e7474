import { describe, expect, it } from 'vitest';
import { runStudy } from '../cli/coll-study.ts';
import { ALGORITHMS, chooseAlgorithm, query, selectAlgorithm, SELECTOR_NAMES, selectorOf, SELECTORS, type Collective } from '../runtime/mpi/coll/index.ts';
import type { Op } from '../runtime/mpi/ops.ts';
import type { RankContext } from '../runtime/rank.ts';
import { simulate } from '../runtime/simulate.ts';
import { phit } from './helpers.ts';

/** An allreduce of 2048 doubles (16 KiB) on every rank, returning the rank's choice as the communicator reports it. */
async function allreduce16k(ctx: RankContext): Promise<string> {
  const send = new Float64Array(2048).fill(ctx.mpi.rank + 1);
  const recv = new Float64Array(2048);
  await ctx.mpi.allreduce(send, recv, ctx.mpi.SUM);
  if (recv[0] !== (ctx.mpi.size * (ctx.mpi.size + 1)) / 2) throw new Error(`allreduce gave ${recv[0]}`);
  return ctx.mpi.algorithmFor('allreduce', send.byteLength, ctx.mpi.SUM);
}

describe('collective selectors', () => {
  it('are four, by name; an unknown name fails with one line listing them', () => {
    expect([...SELECTOR_NAMES]).toEqual(['mpich', 'ompi', 'mvapich2', 'cray']);
    for (const n of SELECTOR_NAMES) expect(selectorOf(n).name).toBe(n);
    expect(() => selectorOf('intel')).toThrow("unknown collective selector 'intel'; valid: mpich, ompi, mvapich2, cray");
  });

  it('selectAlgorithm asks the selector it is given, with the elements of a reduction when told', () => {
    const SUM = { commutative: true } as Op;
    expect(selectAlgorithm('allreduce', 16, 16000, SUM).name).toBe('rabenseifner');
    // Open MPI: 2000 doubles on 16 ranks ring; the same 16000 bytes as 16 elements (no more than the ranks): reduce + bcast
    expect(selectAlgorithm('allreduce', 16, 16000, SUM, undefined, { selector: SELECTORS.ompi }).name).toBe('ring');
    expect(selectAlgorithm('allreduce', 16, 16000, SUM, undefined, { selector: SELECTORS.ompi, count: 16 }).name).toBe('reduceBcast');
    // a named algorithm is not the selector's to change
    expect(selectAlgorithm('allreduce', 16, 16000, SUM, 'recursiveDoubling', { selector: SELECTORS.ompi }).name).toBe('recursiveDoubling');
  });

  it('mpich is chooseAlgorithm, commutative or not', () => {
    const noncomm = { commutative: false } as Op;
    for (const c of Object.keys(ALGORITHMS) as Collective[]) {
      for (const size of [1, 2, 7, 8, 12, 16, 67]) {
        for (const bytes of [0, 256, 2048, 2049, 12288, 81920, 524288, 1 << 22]) {
          expect(SELECTORS.mpich.choose(query(c, size, bytes, true))).toBe(chooseAlgorithm(c, size, bytes));
          expect(SELECTORS.mpich.choose(query(c, size, bytes, false))).toBe(chooseAlgorithm(c, size, bytes, noncomm));
        }
      }
    }
  });

  it('a run uses its selector: at 16 KiB on 8 ranks MPICH runs Rabenseifner (2 lg p = 6 messages a rank), Open MPI the ring (2(p-1) = 14); --coll overrides both', async () => {
    const run = (extra: object) => simulate({ machine: 'xe6', nodes: 8, set: { 'fabric.fidelity': 'flow' }, program: allreduce16k, ...extra });
    const mpich = await run({});
    expect(mpich.result).toBe('rabenseifner');
    expect(mpich.mpiMessages).toBe(8 * 6);
    const ompi = await run({ collSelector: 'ompi' });
    expect(ompi.result).toBe('ring');
    expect(ompi.mpiMessages).toBe(8 * 14);
    // the machine parameter does the same as the option
    const viaSet = await simulate({ machine: 'xe6', nodes: 8, set: { 'fabric.fidelity': 'flow', 'mpi.collSelector': 'ompi' }, program: allreduce16k });
    expect(viaSet.mpiMessages).toBe(8 * 14);
    // a named algorithm wins over the selector: recursive doubling, lg p = 3 messages a rank
    const named = await run({ collSelector: 'ompi', algorithms: { allreduce: 'recursiveDoubling' } });
    expect(named.result).toBe('recursiveDoubling');
    expect(named.mpiMessages).toBe(8 * 3);
  });

  it('MPICH and Cray MPT take the SMP-aware allreduce with several ranks a node, Open MPI does not', async () => {
    const run = (collSelector: 'mpich' | 'ompi' | 'cray') => simulate({ machine: 'xe6', nodes: 2, ppn: 2, collSelector, program: allreduce16k });
    expect((await run('mpich')).result).toBe('smp+rabenseifner');
    expect((await run('cray')).result).toBe('smp+rabenseifner');
    expect((await run('ompi')).result).toBe('ring');
  });

  it('a bad selector is refused before the run, naming the option or parameter and the valid values', async () => {
    await expect(simulate({ machine: 'xe6', nodes: 2, collSelector: 'intel' as never, program: async () => 0 })).rejects.toThrow('simulate: collSelector must be one of mpich, ompi, mvapich2, cray, got "intel"');
    await expect(simulate({ machine: 'xe6', nodes: 2, set: { 'mpi.collSelector': 'intel' }, program: async () => 0 })).rejects.toThrow(/mpi\.collSelector.*mpich, ompi, mvapich2, cray/);
    const bad = await phit('run', 'allreduce', '--coll-selector', 'intel');
    expect(bad.code).toBe(2);
    expect(bad.err.join('\n')).toContain('--coll-selector intel: valid: mpich, ompi, mvapich2, cray');
  });

  it('phit run --coll-selector shows the choice; phit collectives names each preset\'s selector', async () => {
    const r = await phit('run', 'allreduce', '--nodes', '8', '--coll-selector', 'ompi', '--param', 'minBytes=16384', '--param', 'maxBytes=16384', '--json');
    expect(r.code).toBe(0);
    expect((JSON.parse(r.out.join('\n')) as { results: { rows: { algorithm: string }[] } }).results.rows[0]!.algorithm).toBe('ring');
    const list = await phit('collectives');
    const text = list.out.join('\n');
    expect(text).toContain('ompi (Open MPI');
    expect(text).toMatch(/Presets: .*sc5832 mpich/);
  });

  it('a study names the selector it compares with, and its choice', async () => {
    const r = await runStudy({ collective: 'allreduce', machines: ['xe6'], nodes: [8], sizes: '2KiB', collSelector: 'ompi', set: { 'fabric.fidelity': 'flow' }, inline: true, algorithms: ['recursiveDoubling', 'ring'] });
    expect(r.rows[0]!.selectorName).toBe('ompi');
    // 2 KiB per rank is below Open MPI's 10000-byte switch: recursive doubling
    expect(r.rows[0]!.selector).toBe('recursiveDoubling');
    await expect(runStudy({ collective: 'allreduce', machines: ['xe6'], nodes: [2], sizes: '8', collSelector: 'intel' as never })).rejects.toThrow('--coll-selector intel: valid: mpich, ompi, mvapich2, cray');
  });
});
