/** Machine files, the parameter schema, `--set` with units and the generated parameter reference. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveMachine } from '../fabric/machine.ts';
import { machineOverlay, machineToJson, machineToYaml, parseMachineFile } from '../fabric/machines/file.ts';
import { presets } from '../fabric/machines/index.ts';
import { parameterReference } from '../fabric/machines/reference.ts';
import { PARAM_SCHEMA, paramErrors, requiredKeys, validateParams } from '../fabric/machines/schema.ts';
import { phit } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'phit-machines-'));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const valuesOf = (name: string): Record<string, string | number> => Object.fromEntries(Object.entries(presets[name]!.params).map(([k, d]) => [k, d.value]));

/** 8-byte MPI latency (us) of a pingpong run from the command line. */
async function latencyUs(...args: string[]): Promise<number> {
  const r = await phit('run', 'pingpong', '--param', 'maxBytes=8', '--json', ...args);
  expect(r.err).toEqual([]);
  expect(r.code).toBe(0);
  return (JSON.parse(r.out[0]!) as { results: { rows: { latencyUs: number }[] } }).results.rows[0]!.latencyUs;
}

describe('parameter schema', () => {
  it.each(Object.keys(presets))('covers every key of %s, and its defaults validate', (name) => {
    const spec = presets[name]!;
    const topology = String(spec.params['topology.kind']!.value);
    for (const key of Object.keys(spec.params)) {
      const s = PARAM_SCHEMA[key];
      expect(s, `${name}: ${key} has no schema entry`).toBeDefined();
      if (s!.topology !== undefined) expect(s!.topology).toBe(topology);
    }
    expect(paramErrors(valuesOf(name), name, { machine: name })).toEqual([]);
    expect(requiredKeys(topology).filter((k) => !(k in spec.params))).toEqual([]);
  });

  it('reports a key without an entry and a value of the wrong kind', () => {
    expect(paramErrors({ ...valuesOf('xe6'), 'router.newThing': '3ns' }, 'xe6', { valid: [...Object.keys(presets.xe6!.params), 'router.newThing'] })).toEqual([
      'xe6: unknown parameter "router.newThing"; did you mean router.latency?',
    ]);
    expect(() => validateParams({ 'router.latency': '85 nss' }, 'x.yaml')).toThrow(
      'x.yaml: router.latency: "85 nss" is not a time; expected a number and one of ps, ns, us, ms, s, e.g. 120ns',
    );
    expect(paramErrors({ 'host.bandwidth': '4.7GB', 'bte.getBandwidth': 'nic', 'dragonfly.groups': 'auto', 'torus.dims': '4x4', 'clos.rank': '2.5' }, '--set')).toEqual([
      '--set: host.bandwidth: "4.7GB" is not a bandwidth; expected a positive number and one of B/s, KB/s, MB/s, GB/s, Mb/s, Gb/s, e.g. 4.7GB/s',
    ]);
    expect(paramErrors({ 'routing.algorithm': 'valiant' }, 'f', { topology: 'torus' })).toEqual(['f: routing.algorithm: "valiant" is not a torus routing; expected one of dor, table']);
  });
});

describe('machine files', () => {
  it.each(Object.keys(presets))('%s: show --yaml, parse, resolve gives the preset back', async (name) => {
    const r = await phit('machines', 'show', name, '--yaml');
    expect(r.code).toBe(0);
    const text = r.out.join('\n');
    expect(text).toContain(`# source: ${presets[name]!.params['router.latency']!.source}`);
    const spec = parseMachineFile(text, `${name}.yaml`);
    expect(spec).toEqual(presets[name]);
    expect(resolveMachine(spec, 16)).toEqual(resolveMachine(presets[name]!, 16));
    expect(parseMachineFile(machineToJson(presets[name]!), `${name}.json`)).toEqual(presets[name]);
  });

  it('machineOverlay: base: <preset> and only the changed parameters, read back with their own sources (YAML and JSON); no base: the full table', () => {
    const xe6 = presets.xe6!;
    const changed = { ...xe6.params['router.latency']!, value: '60ns', source: 'fitted: osu.txt' };
    const spec = { ...xe6, name: 'fast-xe6', title: 'fast', params: { ...xe6.params, 'router.latency': changed } };
    for (const format of ['yaml', 'json'] as const) {
      const text = machineOverlay(spec, { base: 'xe6', format, comment: 'made by a test' });
      expect(text).toMatch(/"?base"?: "?xe6"?/);
      expect(text.match(/latency/g)).toHaveLength(1);
      expect(parseMachineFile(text, `fast.${format}`)).toEqual(spec);
    }
    expect(parseMachineFile(machineOverlay(spec, { format: 'yaml' }), 'full.yaml')).toEqual(spec);
    expect(() => machineOverlay(spec, { base: 'xe7', format: 'yaml' })).toThrow(/"xe7" is not a preset/);
  });

  it('an edited file changes a run: a faster router gives a lower pingpong latency', async () => {
    const edited = machineToYaml(presets.xe6!).replace(/^ {2}router\.latency: 90ns$/m, '  router.latency: 30ns');
    expect(edited).toContain('router.latency: 30ns');
    const path = file('fast-xe6.yaml', edited.replace(/^name: xe6$/m, 'name: fast-xe6'));
    const preset = await latencyUs('--machine', 'xe6');
    const fast = await latencyUs('--machine', path);
    // xe6 puts two nodes on one Gemini: a message crosses one router, 60 ns faster
    expect(preset - fast).toBeCloseTo(0.06, 2);
    const spec = parseMachineFile(edited, 'fast-xe6.yaml');
    expect(spec.params['router.latency']!.source).toBe('file fast-xe6.yaml');
    expect(spec.params['link.latency']!.source).toBe(presets.xe6!.params['link.latency']!.source);
    // renamed, the file still finds its preset by its seed file: unchanged values keep their sources
    const renamed = parseMachineFile(readFileSync(path, 'utf8'), 'fast-xe6.yaml');
    expect(renamed.name).toBe('fast-xe6');
    expect(renamed.params['link.latency']!.source).toBe(presets.xe6!.params['link.latency']!.source);
    expect(renamed.params['router.latency']!.source).toBe('file fast-xe6.yaml');
  });

  it('a base: file takes the preset and overrides what it lists; compare runs it in a worker', async () => {
    const path = file('slow-xc.json', JSON.stringify({ base: 'xc30', params: { 'host.latency': '590ns', 'dmapp.vmdh': false } }));
    const spec = parseMachineFile(readFileSync(path, 'utf8'), 'slow-xc.json');
    expect(spec.name).toBe('slow-xc');
    expect(spec.params['host.latency']).toEqual({ value: '590ns', help: presets.xc30!.params['host.latency']!.help, source: 'file slow-xc.json' });
    expect(spec.params['dmapp.vmdh']!.value).toBe('no');
    expect(Object.keys(spec.params)).toEqual(Object.keys(presets.xc30!.params));
    const shown = await phit('machines', 'show', path, '--json');
    expect((JSON.parse(shown.out.join('\n')) as { params: Record<string, { source: string }> }).params['host.latency']!.source).toBe(`file ${path}`);
    const r = await phit('compare', '--app', 'pingpong', '--machines', `xc30,${path}`, '--param', 'maxBytes=8', '--json');
    expect(r.err).toEqual([]);
    const rows = (JSON.parse(r.out[0]!) as { rows: { machine: string; simulatedTimeUs: number }[] }).rows;
    expect(rows.map((x) => x.machine)).toEqual(['xc30', 'slow-xc']);
    // 500 ns more on every host crossing, twice per message, over the run's many round trips
    expect(rows[1]!.simulatedTimeUs).toBeGreaterThan(rows[0]!.simulatedTimeUs + 5);
  });

  it('rejects bad files through the command line with the key, value, line and allowed values (exit 2)', async () => {
    const cases: [string, string, RegExp][] = [
      ['top.yaml', 'base: xe6\nmachine: fast\n', /top\.yaml:2: unknown key "machine"; expected base, name, title, seed, params$/],
      ['typo.yaml', 'base: xe6\nparams:\n  router.latncy: 30ns\n', /typo\.yaml:3: unknown parameter "router\.latncy" for machine typo; did you mean router\.latency\?$/],
      ['unit.yaml', 'base: xe6\nparams:\n  link.latency: 5ns\n  router.latency: 85 nss\n', /unit\.yaml:4: router\.latency: "85 nss" is not a time; expected a number and one of ps, ns, us, ms, s, e\.g\. 120ns$/],
      ['other.yaml', 'base: xc30\nparams:\n  torus.dims: 4x4x4\n', /other\.yaml:3: unknown parameter "torus\.dims" for machine other: it belongs to torus machines, and other is a dragonfly$/],
      ['base.yaml', 'base: xc40\n', /base\.yaml:1: base: "xc40" is not a preset; expected one of xt4, xe6, xc30, sc5832, bw$/],
      ['flag.json', '{"base": "bw", "params": {"fma.present": "maybe"}}', /flag\.json:1: fma\.present: "maybe" is not yes or no; expected yes or no$/],
      ['part.yaml', 'name: part\nparams:\n  topology.kind: clos\n  router.latency: 30ns\n', /part\.yaml: missing parameters routing\.algorithm, clos\.rank, clos\.slices, .* and \d+ more/],
    ];
    for (const [name, text, message] of cases) {
      const r = await phit('run', 'pingpong', '--machine', file(name, text));
      expect(r.code, name).toBe(2);
      expect(r.err, name).toHaveLength(1);
      expect(r.err[0], name).toMatch(message);
    }
    const missing = await phit('topo', join(dir, 'nothing.yaml'));
    expect(missing.code).toBe(2);
    expect(missing.err[0]).toMatch(/no such machine file: .*nothing\.yaml/);
  });
});

describe('--set', () => {
  it('checks values and keys before the run (exit 2)', async () => {
    const bad = await phit('run', 'pingpong', '--machine', 'xc30', '--set', 'router.latency=fast');
    expect(bad.code).toBe(2);
    expect(bad.err).toEqual(['phit: --set: router.latency: "fast" is not a time; expected a number and one of ps, ns, us, ms, s, e.g. 120ns']);
    const typo = await phit('traffic', '--machine', 'xc30', '--set', 'host.bandwith=4.7GB/s');
    expect(typo.code).toBe(2);
    expect(typo.err).toEqual(['phit: --set: unknown parameter "host.bandwith" for machine xc30; did you mean host.bandwidth?']);
    const all = await phit('compare', '--app', 'pingpong', '--set', 'mpi.rails=0');
    expect(all.code).toBe(2);
    expect(all.err[0]).toMatch(/--set: mpi\.rails: "0" is not an integer of at least 1/);
  });

  it('takes values with units: 120ns and 4.7GB/s change the machine and the run', async () => {
    const c = resolveMachine(presets.xe6!, 2, { 'router.latency': '120ns', 'host.bandwidth': '4.7GB/s' });
    expect(c.network.routerLatencyPs).toBe(120_000);
    expect(c.nic.hostBytesPerPs).toBeCloseTo(4.7e9 / 1e12, 15);
    const base = await latencyUs('--machine', 'xe6');
    const slow = await latencyUs('--machine', 'xe6', '--set', 'router.latency=120ns');
    // one router crossing (two xe6 nodes share a Gemini), 30 ns slower
    expect(slow - base).toBeCloseTo(0.03, 2);
  });
});

describe('parameter reference', () => {
  it('docs/parameters.md is what npm run docs generates from the defaults', () => {
    const committed = readFileSync(new URL('../docs/parameters.md', import.meta.url), 'utf8');
    expect(committed).toBe(parameterReference());
    // every key of every preset appears with its default
    for (const spec of Object.values(presets)) expect(committed).toContain(`| \`router.latency\` | ${spec.params['router.latency']!.value} |`);
  });
});
