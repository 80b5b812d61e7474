/**
 * Fuzz of the command line (issue 24): seeded, generated bad values for the flags and key=value
 * items of `phit run`, `topo`, `traffic`, `machines show`, `sweep`, `validate` and `conformance`
 * (non-numbers, NaN, Infinity, 1e400, negatives, huge integers, names of the object machinery,
 * empty text, folders and missing files). Each command line runs in-process; a run it starts
 * anyway is stopped after a few engine events, so that a bad value let through fails the test
 * instead of running for hours. Every input must end with exit code 2 or 1 and one line naming
 * the bad value (see fuzz-inputs.ts).
 */
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apps } from '../apps/index.ts';
import { main } from '../cli/main.ts';
import { validateIds } from '../cli/validate.ts';
import { MPICH_TESTS, testId } from '../conformance/mpich/testlist.ts';
import { MAX_NODES, MAX_PPN } from '../fabric/machine.ts';
import { presets } from '../fabric/machines/index.ts';
import { PARAM_SCHEMA } from '../fabric/machines/schema.ts';
import { PATTERNS } from '../fabric/traffic.ts';
import { ALGORITHMS } from '../runtime/mpi/coll/index.ts';
import { PLACEMENTS } from '../runtime/placement.ts';
import { badInputProblem, badInteger, badKindValue, badNumber, badParamValue, FUZZ_SEED, namesOf, notOneOf, printable, PROTO_NAMES } from './fuzz-inputs.ts';
import type { Captured } from './helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'phit-fuzz-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Engine events a run may process before it is stopped: a bad value must be refused long before. */
const MAX_EVENTS = 20_000;

/** Runs the command line in-process with the event cap. */
async function phitCapped(argv: readonly string[]): Promise<Captured> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (s) => out.push(s), err: (s) => err.push(s), maxEvents: MAX_EVENTS });
  return { code, out, err };
}

/** One generated command line and what its error line must name. */
interface Case {
  readonly argv: readonly string[];
  readonly names: readonly string[];
}

const MACHINES = Object.keys(presets);
const FILE_FLAGS = ['--report', '--trace'];
/** Paths that are not a machine or sweep file: a folder, missing files, an empty name. */
const badPaths = fc.constantFrom(tmpdir(), `${tmpdir()}/`, join(tmpdir(), 'no-such-machine.yaml'), 'no/such/file.json', './missing.yml', '.', '..', '/');
/** Paths an output file cannot be written to. */
const unwritable = fc.constantFrom(tmpdir(), join(tmpdir(), 'no-such-folder', 'x', 'out.html'), '/', '');

/** A machine name that is no preset and no file. */
const badMachine = fc.oneof(notOneOf(MACHINES).filter((s) => !/[\\/]|\.(ya?ml|json)$/i.test(s)), badPaths);

/** `phit run` with one flag set to a bad value. */
const runFlag: fc.Arbitrary<Case> = fc.oneof(
  badMachine.map((v) => ({ flag: '--machine', v })),
  badInteger(1, MAX_NODES).map((v) => ({ flag: '--nodes', v })),
  badInteger(1, MAX_PPN).map((v) => ({ flag: '--ppn', v })),
  badInteger(0).map((v) => ({ flag: '--seed', v })),
  notOneOf(PLACEMENTS).map((v) => ({ flag: '--placement', v })),
  notOneOf(['packet', 'coarse', 'flow']).map((v) => ({ flag: '--fidelity', v })),
  fc.tuple(fc.constantFrom(...FILE_FLAGS), unwritable).map(([flag, v]) => ({ flag, v })),
  badInteger(1).map((v) => ({ flag: '--trace-max-events', v, with: ['--trace', join(tmp, 'trace.json')] })),
  fc.constantFrom('abc', '-1', '0-', '5-2', '1,,2', '99', '1e400', '__proto__', '').map((v) => ({ flag: '--trace-ranks', v, with: ['--trace', join(tmp, 'trace.json')] })),
).map(({ flag, v, with: extra }: { flag: string; v: string; with?: string[] }) => ({
  argv: ['run', 'pingpong', '--nodes', '2', '--param', 'maxBytes=8', '--param', 'iterations=1', ...(extra ?? []), flag, v],
  names: namesOf(v, flag),
}));

/** `phit run <app> --param key=bad`, or a key the app does not have. */
const runParam: fc.Arbitrary<Case> = fc.constantFrom(...Object.values(apps)).chain((app) =>
  fc.oneof(
    fc.constantFrom(...Object.entries(app.params)).chain(([key, spec]) => badParamValue(spec).map((v) => ({ item: `${key}=${v}`, names: namesOf(v, key) }))),
    fc.oneof(fc.constantFrom(...PROTO_NAMES), printable.filter((k) => !k.includes('='))).filter((k) => !Object.hasOwn(app.params, k) || k === '').map((k) => ({ item: `${k}=1`, names: namesOf(k, `${k}=1`) })),
    printable.filter((s) => !s.includes('=') && s.trim() !== '').map((s) => ({ item: s, names: [s] })),
  ).map(({ item, names }) => ({ argv: ['run', app.name, '--nodes', String(Math.max(2, app.minRanks)), '--param', item], names })),
);

/** Sizes of a machine's structure within each count's cap whose product is beyond every machine. */
const HUGE_STRUCTURE: Readonly<Record<string, string>> = {
  'torus.nodesPerRouter': '1000000',
  'dragonfly.chassis': '1000000',
  'dragonfly.routersPerChassis': '1000000',
  'dragonfly.blackLinks': '1000000',
  'dragonfly.globalPorts': '1000000',
  'dragonfly.nodesPerRouter': '5000',
  'kautz.degree': '1000000',
};

/** `phit run --machine m --set key=huge` for a key of the machine's structure. */
const runStructure: fc.Arbitrary<Case> = fc.constantFrom(...MACHINES.flatMap((m) => Object.keys(HUGE_STRUCTURE).filter((k) => k in presets[m]!.params).map((k) => [m, k] as const))).map(([m, k]) => ({
  argv: ['run', 'pingpong', '--machine', m, '--nodes', '2', '--param', 'maxBytes=8', '--set', `${k}=${HUGE_STRUCTURE[k]!}`],
  names: [HUGE_STRUCTURE[k]!],
}));

/** `phit run --machine m --set key=bad`, or a key the machine does not have. */
const runSet: fc.Arbitrary<Case> = fc.constantFrom(...MACHINES).chain((m) =>
  fc.oneof(
    fc.constantFrom(...Object.keys(presets[m]!.params)).chain((key) => badKindValue(PARAM_SCHEMA[key]!.kind).map((v) => ({ item: `${key}=${v}`, names: namesOf(v, key) }))),
    fc.oneof(fc.constantFrom(...PROTO_NAMES, 'mpi.eagerMaxbytes', 'link', 'nic.', '.'), printable.filter((k) => !k.includes('=') && k !== ''))
      .filter((k) => !Object.hasOwn(presets[m]!.params, k))
      .map((k) => ({ item: `${k}=1`, names: [k] })),
  ).map(({ item, names }) => ({ argv: ['run', 'pingpong', '--machine', m, '--nodes', '2', '--param', 'maxBytes=8', '--param', 'iterations=1', '--set', item], names })),
);

/** `phit run --coll collective=bad` or an unknown collective. */
const runColl: fc.Arbitrary<Case> = fc
  .oneof(
    fc.constantFrom(...Object.entries(ALGORITHMS)).chain(([c, algs]) => notOneOf(Object.keys(algs as object)).map((a) => ({ item: `${c}=${a}`, names: namesOf(a, c) }))),
    notOneOf(Object.keys(ALGORITHMS)).filter((c) => !c.includes('=') && c !== '').map((c) => ({ item: `${c}=ring`, names: [c] })),
  )
  .map(({ item, names }) => ({ argv: ['run', 'pingpong', '--nodes', '2', '--param', 'maxBytes=8', '--coll', item], names }));

/** The flags of `phit topo` that apply to each machine. */
const TOPO_FLAGS: Readonly<Record<string, readonly string[]>> = { xt4: ['--dims'], xe6: ['--dims'], xc30: ['--groups', '--cables-per-pair'], sc5832: ['--diameter'], bw: [] };

/** `phit topo <machine>` with a bad value for one of its flags, or a flag that does not apply. */
const topo: fc.Arbitrary<Case> = fc.oneof(
  badMachine.map((m) => ({ argv: ['topo', m], names: namesOf(m, 'topo') })),
  fc.constantFrom(...MACHINES).chain((m) =>
    fc.oneof(
      badInteger(1, MAX_NODES).map((v) => ({ argv: ['topo', m, '--nodes', v], names: namesOf(v, '--nodes') })),
      ...TOPO_FLAGS[m]!.map((flag) =>
        (flag === '--dims' ? badKindValue({ type: 'ints' }) : badInteger(1, 1_000_000)).map((v) => ({ argv: ['topo', m, flag, v], names: namesOf(v, flag) })),
      ),
      fc.constantFrom(...['--groups', '--cables-per-pair', '--dims', '--diameter'].filter((f) => !TOPO_FLAGS[m]!.includes(f))).map((flag) => ({ argv: ['topo', m, flag, '4'], names: [flag] })),
    ),
  ),
);

/** `phit traffic` with one bad flag (a small machine and a short window otherwise). */
const traffic: fc.Arbitrary<Case> = fc
  .oneof(
    badMachine.map((v) => ({ flag: '--machine', v })),
    badInteger(1, MAX_NODES).map((v) => ({ flag: '--nodes', v })),
    notOneOf(PATTERNS).map((v) => ({ flag: '--pattern', v })),
    badNumber(Number.MIN_VALUE, 1).map((v) => ({ flag: '--load', v })),
    notOneOf(['dor', 'table']).map((v) => ({ flag: '--routing', v })),
    badInteger(0, 7).map((v) => ({ flag: '--hotspot', v, with: ['--pattern', 'hotspot'] })),
    fc.oneof(badNumber(Number.MIN_VALUE), fc.constantFrom('1e9', '1e15', '0')).map((v) => ({ flag: '--window', v })),
    fc.oneof(badNumber(0), fc.constantFrom('1e9', '1e15')).map((v) => ({ flag: '--warmup', v })),
    badInteger(0).map((v) => ({ flag: '--seed', v })),
    fc.constantFrom(...Object.keys(presets.xe6!.params)).chain((key) => badKindValue(PARAM_SCHEMA[key]!.kind).map((v) => ({ flag: '--set', v: `${key}=${v}`, name: v.trim() === '' ? key : v }))),
  )
  .map(({ flag, v, with: extra, name }: { flag: string; v: string; with?: string[]; name?: string }) => ({
    argv: ['traffic', '--nodes', '8', '--window', '0.1', '--warmup', '0', ...(extra ?? []), flag, v],
    names: name !== undefined ? [name] : namesOf(v, flag),
  }));

const TESTS = new Set(MPICH_TESTS.flatMap((t) => [t.name, testId(t)]));

/** `machines show`, `sweep`, `validate` and `conformance` with a bad argument or flag. */
const others: fc.Arbitrary<Case> = fc.oneof(
  badMachine.map((m) => ({ argv: ['machines', 'show', m], names: namesOf(m, 'show') })),
  fc.constant({ argv: ['machines', 'show', 'xe6', '--yaml', '--json'], names: ['--yaml or --json'] }),
  fc.oneof(badPaths, fc.constantFrom('', ' ')).map((f) => ({ argv: ['sweep', f], names: namesOf(f, 'sweep file') })),
  notOneOf(MACHINES).map((m) => ({ argv: ['validate', '--machine', m], names: namesOf(m, '--machine') })),
  notOneOf(validateIds()).filter((id) => !id.includes(',') && !validateIds().includes(id.trim())).map((id) => ({ argv: ['validate', '--id', id], names: namesOf(id.trim(), '--id') })),
  notOneOf(['packet', 'coarse', 'flow']).map((f) => ({ argv: ['validate', '--fidelity', f], names: namesOf(f, '--fidelity') })),
  badMachine.map((m) => ({ argv: ['conformance', '--machine', m], names: namesOf(m, '--machine') })),
  notOneOf(['pt2pt', 'coll', 'comm', 'group', 'topo', 'datatype', 'rma']).map((d) => ({ argv: ['conformance', '--dir', d], names: namesOf(d, '--dir') })),
  notOneOf([...TESTS]).map((t) => ({ argv: ['conformance', '--only', t], names: namesOf(t, '--only') })),
  notOneOf(['packet', 'coarse', 'flow']).map((f) => ({ argv: ['conformance', '--only', 'sendrecv1', '--fidelity', f], names: namesOf(f, '--fidelity') })),
  fc.constantFrom<Case>(
    { argv: ['run', 'pingpong', '--nodes'], names: ['--nodes'] },
    { argv: ['traffic', '--load'], names: ['--load'] },
    { argv: ['topo'], names: ["'machine'"] },
    { argv: ['run'], names: ["'app'"] },
    { argv: ['machines', 'show'], names: ["'machine'"] },
    { argv: ['run', 'pingpong', '--frobnicate'], names: ['--frobnicate'] },
    { argv: ['nosuchcommand'], names: ['nosuchcommand'] },
  ),
);

describe('fuzz: bad command lines end in one line naming the bad value, exit 2 or 1', () => {
  const sections: [string, number, fc.Arbitrary<Case>][] = [
    ['run flags', 150, runFlag],
    ['run --param', 200, runParam],
    ['run --set', 200, runSet],
    ['run --coll', 50, runColl],
    ['run --set of a huge structure', 20, runStructure],
    ['topo', 100, topo],
    ['traffic', 120, traffic],
    ['machines show, sweep, validate, conformance', 120, others],
  ];
  it.each(sections)('%s (%i generated inputs)', async (_name, numRuns, cases) => {
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(cases, async ({ argv, names }) => {
        const problem = badInputProblem(await phitCapped(argv), names, argv.join(' '));
        if (problem !== null) failures.push(`phit ${argv.map((a) => JSON.stringify(a)).join(' ')}: ${problem}`);
      }),
      { seed: FUZZ_SEED, numRuns },
    );
    expect([...new Set(failures)]).toEqual([]);
  });
});
