/**
 * Fuzz of `simulate()`'s options (issue 24): a small valid run (two xe6 nodes, a program that
 * returns at once) with one option replaced by a generated bad value of any JavaScript type. Each
 * must reject, before anything runs, with an error of one line that names the option (or the
 * bad key of `set` / `algorithms`) and shows no sign of a JavaScript fault.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { presets } from '../fabric/machines/index.ts';
import { PARAM_SCHEMA } from '../fabric/machines/schema.ts';
import { simulate, type SimulateOptions } from '../runtime/simulate.ts';
import { badInputProblem, badKindValue, FUZZ_SEED, notOneOf, printable, PROTO_NAMES } from './fuzz-inputs.ts';

/** Values of the wrong type for anything: no option takes all of these. */
const anything = fc.constantFrom<unknown>(null, NaN, Infinity, -Infinity, -1, 0.5, '', 'abc', '4', true, [], [1], {}, { a: 1 }, () => 1, Symbol.iterator);

/** Bad counts: not a positive integer, or beyond the caps. */
const badCount = fc.constantFrom<unknown>(0, -1, 1.5, NaN, Infinity, -Infinity, '2', '', null, true, [], {}, [2], 2e6, 2 ** 53, 1e300);

/** One option set to a bad value, and what the error must name. */
interface BadOption {
  readonly opts: Record<string, unknown>;
  readonly names: readonly string[];
}

const ok = async (): Promise<void> => {};
const base = (): Record<string, unknown> => ({ machine: 'xe6', nodes: 2, program: ok });

const badOption: fc.Arbitrary<BadOption> = fc.oneof(
  fc.oneof(anything.filter((v) => typeof v !== 'string'), notOneOf(Object.keys(presets))).map((machine) => ({ opts: { ...base(), machine }, names: ['machine'] })),
  fc.constantFrom<unknown>({}, { params: null }, { name: 'x', params: 5 }, { name: 'x', params: { 'topology.kind': { value: 'ring' } } }).map((machine) => ({ opts: { ...base(), machine }, names: ['machine', 'topology.kind', 'params'] })),
  badCount.map((nodes) => ({ opts: { ...base(), nodes }, names: ['nodes'] })),
  fc.oneof(badCount, fc.constant(257)).map((ppn) => ({ opts: { ...base(), ppn }, names: ['ppn'] })),
  anything.filter((v) => typeof v !== 'function').map((program) => ({ opts: { ...base(), program }, names: ['program'] })),
  fc.oneof(anything, notOneOf(['contiguous', 'round-robin', 'random'])).map((placement) => ({ opts: { ...base(), placement }, names: ['placement'] })),
  fc.constantFrom<unknown>(-1, 1.5, NaN, Infinity, '1', null, true, {}, 2 ** 60).map((seed) => ({ opts: { ...base(), seed }, names: ['seed'] })),
  fc.constantFrom<unknown>(5, 'x', true, [1], [['a', 'b']]).map((set) => ({ opts: { ...base(), set }, names: ['set'] })),
  fc.constantFrom(...Object.keys(presets.xe6!.params)).chain((k) => badKindValue(PARAM_SCHEMA[k]!.kind).map((v) => ({ opts: { ...base(), set: { [k]: v } }, names: [k] }))),
  fc.oneof(fc.constantFrom(...PROTO_NAMES), printable.filter((k) => k.trim() !== '' && !Object.hasOwn(PARAM_SCHEMA, k))).map((k) => ({ opts: { ...base(), set: Object.defineProperty({}, k, { value: '1', enumerable: true }) }, names: [k] })),
  fc.constantFrom<unknown>(5, 'ring', true, [1]).map((algorithms) => ({ opts: { ...base(), algorithms }, names: ['algorithms'] })),
  fc.oneof(fc.constantFrom(...PROTO_NAMES), printable.filter((k) => k.trim() !== '')).filter((k) => !['allreduce', 'barrier', 'bcast', 'reduce', 'allgather', 'alltoall', 'gather', 'scatter', 'reduceScatter', 'scan', 'exscan'].includes(k)).map((k) => ({ opts: { ...base(), algorithms: Object.defineProperty({}, k, { value: 'ring', enumerable: true }) }, names: [k] })),
  fc.constantFrom<unknown>('nope', '', 5, null, '__proto__').map((a) => ({ opts: { ...base(), algorithms: { allreduce: a } }, names: ['allreduce'] })),
  fc.constantFrom<unknown>('yes', 1, {}, null).map((metrics) => ({ opts: { ...base(), metrics }, names: ['metrics'] })),
  fc.constantFrom<unknown>('yes', 1, {}, null).map((skeleton) => ({ opts: { ...base(), skeleton }, names: ['skeleton'] })),
  fc.constantFrom<unknown>(5, 'x', true, { maxEvents: -1 }, { maxEvents: 1.5 }, { ranks: 'x' }, { ranks: [7] }, { ranks: [-1] }, { flows: 'yes' }).map((trace) => ({ opts: { ...base(), trace }, names: ['trace'] })),
  fc.constantFrom<unknown>(0, -1, 1.5, NaN, Infinity, '5', null).map((progressEvery) => ({ opts: { ...base(), progressEvery, onProgress: () => {} }, names: ['progressEvery'] })),
  fc.constantFrom<unknown>(5, 'x', true, {}).map((onProgress) => ({ opts: { ...base(), onProgress }, names: ['onProgress'] })),
  anything.filter((v) => v === null || typeof v !== 'object').map((opts) => ({ opts: opts as Record<string, unknown>, names: ['options'] })),
);

/** The error a call rejects with, or null if it resolved. */
async function rejectionOf(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
    return null;
  } catch (e) {
    return e;
  }
}

describe('fuzz: simulate() refuses bad options with one line naming them', () => {
  it('300 generated option sets', async () => {
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(badOption, async ({ opts, names }) => {
        const shown = String(JSON.stringify(opts, (_k, v: unknown) => (typeof v === 'function' ? 'fn' : typeof v === 'symbol' || (typeof v === 'number' && !Number.isFinite(v)) ? String(v) : v)));
        const e = await rejectionOf(simulate(opts as unknown as SimulateOptions));
        if (e === null) {
          failures.push(`${shown}: resolved`);
          return;
        }
        const message = e instanceof Error ? e.message : String(e);
        const problem = badInputProblem({ code: 2, out: [], err: [`phit: ${message}`] }, names, shown);
        if (problem !== null) failures.push(`${shown}: ${problem}`);
      }),
      { seed: FUZZ_SEED, numRuns: 300 },
    );
    expect([...new Set(failures)]).toEqual([]);
  });
});
