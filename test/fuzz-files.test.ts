/**
 * Fuzz of machine files and sweep files (issue 24): a valid file (a preset written out in full,
 * or `base: <preset>` with a few parameters; a small sweep) with one generated defect: a wrong
 * type, a missing or unknown key, a name of the object machinery, a value beyond every cap, a
 * syntax error. Each file is given to the command line in-process (`phit run --machine <file>`,
 * `phit sweep <file>`), a run it starts anyway stopped after a few engine events. Every file must
 * end with exit code 2 or 1 and one line naming the bad key or value (see fuzz-inputs.ts).
 */
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { apps } from '../apps/index.ts';
import { main } from '../cli/main.ts';
import { presets } from '../fabric/machines/index.ts';
import { PARAM_SCHEMA } from '../fabric/machines/schema.ts';
import { badInputProblem, badKindValue, badParamValue, FUZZ_SEED, notOneOf, printable, PROTO_NAMES } from './fuzz-inputs.ts';
import type { Captured } from './helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'phit-fuzz-files-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Engine events a run may process before it is stopped (see fuzz-cli.test.ts). */
const MAX_EVENTS = 20_000;

async function phitCapped(argv: readonly string[]): Promise<Captured> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (s) => out.push(s), err: (s) => err.push(s), maxEvents: MAX_EVENTS });
  return { code, out, err };
}

/** A generated file: its text, its extension and what its error line must name. */
interface BadFile {
  readonly text: string;
  readonly ext: 'yaml' | 'json';
  readonly names: readonly string[];
}

let written = 0;
/** Writes `f` to a fresh file and returns its path. */
function put(f: BadFile): string {
  const path = join(tmp, `f${written++}.${f.ext}`);
  writeFileSync(path, f.text);
  return path;
}

const MACHINES = Object.keys(presets);
/** A value of the wrong shape for a parameter: a mapping, a list of mappings, null, nothing. */
const wrongShape = fc.constantFrom<unknown>({ a: 1 }, [{ a: 1 }], null, [], [[1]], { value: { a: 1 } }, { value: 1, extra: 2 });

/** The parameter table of preset `m` as plain values. */
function valuesOf(m: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(presets[m]!.params).map(([k, d]) => [k, d.value]));
}

/** Writes a machine document as YAML or JSON. */
function machineText(doc: Record<string, unknown>, ext: 'yaml' | 'json'): string {
  return ext === 'json' ? JSON.stringify(doc) : stringify(doc);
}

/** A machine file with one defect. */
const machineFile: fc.Arbitrary<BadFile> = fc.tuple(fc.constantFrom(...MACHINES), fc.constantFrom<'yaml' | 'json'>('yaml', 'json')).chain(([m, ext]) => {
  const keys = Object.keys(presets[m]!.params);
  const asFile = (doc: Record<string, unknown>, names: readonly string[]): BadFile => ({ text: machineText(doc, ext), ext, names });
  return fc.oneof(
    // base: <preset> and one parameter with a bad value, a wrong shape, or an unknown key
    fc.constantFrom(...keys).chain((k) => badKindValue(PARAM_SCHEMA[k]!.kind).map((v) => asFile({ base: m, params: { [k]: v } }, [k]))),
    fc.tuple(fc.constantFrom(...keys), wrongShape).map(([k, v]) => asFile({ base: m, params: { [k]: v } }, [k])),
    fc.oneof(fc.constantFrom(...PROTO_NAMES, 'link', 'nic.', 'mpi.eagermaxbytes'), printable.filter((k) => k.trim() !== '')).filter((k) => !Object.hasOwn(PARAM_SCHEMA, k)).map((k) => asFile({ base: m, params: { [k]: 1 } }, [k])),
    // a full table with one parameter missing, of a wrong shape, or a bad value
    fc.constantFrom(...keys.filter((k) => PARAM_SCHEMA[k]!.optional !== true)).map((k) => {
      const params = valuesOf(m);
      delete params[k];
      return asFile({ name: `my-${m}`, title: 'test', seed: presets[m]!.seed, params }, [k]);
    }),
    fc.tuple(fc.constantFrom(...keys), wrongShape).map(([k, v]) => asFile({ name: `my-${m}`, title: 'test', params: { ...valuesOf(m), [k]: v } }, [k])),
    fc.constantFrom(...keys).chain((k) => badKindValue(PARAM_SCHEMA[k]!.kind).map((v) => asFile({ name: `my-${m}`, title: 'test', params: { ...valuesOf(m), [k]: v } }, [k]))),
    // the top level: an unknown key, a base that is no preset, a name that is not a text, no params
    fc.oneof(fc.constantFrom(...PROTO_NAMES), printable.filter((k) => k.trim() !== '' && !['base', 'name', 'title', 'seed', 'params'].includes(k))).map((k) => asFile({ base: m, [k]: 1 }, [k])),
    notOneOf(MACHINES).filter((b) => b.trim() !== '').map((b) => asFile({ base: b }, [b])),
    wrongShape.map((v) => asFile({ base: m, name: v }, ['name'])),
    fc.constantFrom<unknown>(5, 'x', [1, 2], [{ a: 1 }]).map((v) => asFile({ base: m, params: v }, ['params'])),
  );
});

/** Machine files that do not parse, are empty, or are too large. */
const brokenMachineFile = fc.constantFrom<BadFile>(
  { text: 'base: xe6\nparams: {router.latency: 50ns\n', ext: 'yaml', names: ['not a YAML or JSON machine file'] },
  { text: '{"base": "xe6", ', ext: 'json', names: ['not a YAML or JSON machine file'] },
  { text: 'base: xe6\n\tparams: 1\n', ext: 'yaml', names: ['not a YAML or JSON machine file'] },
  { text: '', ext: 'yaml', names: ['expected a mapping'] },
  { text: '- 1\n- 2\n', ext: 'yaml', names: ['expected a mapping'] },
  { text: '"xe6"', ext: 'json', names: ['expected a mapping'] },
  { text: 'null', ext: 'json', names: ['expected a mapping'] },
  { text: 'base: xe6\nbase: xt4\n', ext: 'yaml', names: ['not a YAML or JSON machine file'] },
  { text: `base: xe6\n# ${'x'.repeat(1.2 * 2 ** 20)}\n`, ext: 'yaml', names: ['at most 1048576'] },
);

/** A small valid sweep: pingpong on two xe6 nodes with tiny messages. */
function sweepBase(): Record<string, unknown> {
  return { app: 'pingpong', machine: 'xe6', nodes: 2, params: { maxBytes: 8, iterations: 1 } };
}

/** A sweep file with one defect. */
const sweepFile: fc.Arbitrary<BadFile> = fc.constantFrom<'yaml' | 'json'>('yaml', 'json').chain((ext) => {
  /** Sets an own property, `__proto__` included. */
  const own = (o: unknown, k: string, v: unknown): void => void Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  const asFile = (edit: (d: Record<string, unknown>) => void, names: readonly string[]): BadFile => {
    const d = sweepBase();
    edit(d);
    return { text: machineText(d, ext), ext, names };
  };
  const badCount = fc.constantFrom<unknown>(0, -1, 1.5, '2', 'abc', 1e15, Infinity, null, true, [], [2, 2], { a: 1 }, [[2]]);
  const pp = apps.pingpong!;
  return fc.oneof(
    fc.oneof(fc.constantFrom(...PROTO_NAMES), printable.filter((k) => k.trim() !== '' && !['app', 'apps', 'machine', 'machines', 'nodes', 'ppn', 'params', 'set', 'seed', 'skeleton'].includes(k))).map((k) => asFile((d) => own(d, k, 1), [k])),
    fc.constantFrom('app', 'machine', 'nodes').map((k) => asFile((d) => delete d[k], [k])),
    fc.constantFrom<unknown>('', 42, null, [], ['pingpong', 'pingpong'], { a: 1 }, 'nosuchapp', ...PROTO_NAMES).map((v) => asFile((d) => (d.app = v), ['app'])),
    fc.constantFrom<unknown>('', 42, null, [], ['xe6', 'xe6'], 'xt9', tmpdir(), 'no/such.yaml', ...PROTO_NAMES).map((v) => asFile((d) => (d.machine = v), ['machine'])),
    badCount.map((v) => asFile((d) => (d.nodes = v), ['nodes'])),
    fc.constantFrom<unknown>(0, 257, 1e6, -1, 'x', 1.5).map((v) => asFile((d) => (d.ppn = v), ['ppn'])),
    fc.constantFrom<unknown>(-1, 1.5, 'abc', Infinity, null).map((v) => asFile((d) => (d.seed = v), ['seed'])),
    fc.constantFrom<unknown>('yes', 1, 'true', null).map((v) => asFile((d) => (d.skeleton = v), ['skeleton'])),
    fc.constantFrom(...Object.entries(pp.params)).chain(([k, spec]) => badParamValue(spec).map((v) => asFile((d) => ((d.params as Record<string, unknown>)[k] = v), [`params.${k}`]))),
    fc.oneof(fc.constantFrom(...PROTO_NAMES), printable.filter((k) => k.trim() !== '' && !Object.hasOwn(pp.params, k))).map((k) => asFile((d) => own(d.params, k, 1), [k])),
    fc.constantFrom(...Object.keys(presets.xe6!.params)).chain((k) => badKindValue(PARAM_SCHEMA[k]!.kind).map((v) => asFile((d) => own(d, 'set', { [k]: v }), [`set.${k}`]))),
    fc.oneof(fc.constantFrom(...PROTO_NAMES), printable.filter((k) => k.trim() !== '' && !Object.hasOwn(PARAM_SCHEMA, k))).map((k) => asFile((d) => own(d, 'set', { [k]: 1 }), [k])),
    fc.constantFrom<unknown>(5, 'x', [1], null).map((v) => asFile((d) => (d.params = v ?? 5), ['params'])),
  );
});

describe('fuzz: bad machine and sweep files end in one line naming the bad key or value, exit 2 or 1', () => {
  const base = ['--nodes', '2', '--param', 'maxBytes=8', '--param', 'iterations=1'];
  const sections: [string, number, fc.Arbitrary<BadFile>, (path: string) => string[]][] = [
    ['machine files (phit run --machine)', 250, machineFile, (p) => ['run', 'pingpong', '--machine', p, ...base]],
    ['broken machine files (phit machines show)', 12, brokenMachineFile, (p) => ['machines', 'show', p]],
    ['sweep files (phit sweep)', 200, sweepFile, (p) => ['sweep', p]],
  ];
  it.each(sections)('%s (%i generated files)', async (_name, numRuns, files, argv) => {
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(files, async (f) => {
        const path = put(f);
        const problem = badInputProblem(await phitCapped(argv(path)), f.names, f.text);
        if (problem !== null) failures.push(`${f.ext} ${JSON.stringify(f.text.slice(0, 300))}: ${problem}`);
      }),
      { seed: FUZZ_SEED, numRuns },
    );
    expect([...new Set(failures)]).toEqual([]);
  });
});
