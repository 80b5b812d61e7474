import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readFaultsFile } from '../cli/faults-file.ts';
import { machineSpec } from '../fabric/machine.ts';
import { phit } from './helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'phit-faults-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Writes `text` to a file of the temporary folder and returns its path. */
function file(name: string, text: string): string {
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
}

describe('--faults FILE', () => {
  it('ber and nodes become link.ber and faults.nodes (a rate, or a rate per link class; ids, or {node, at})', () => {
    const xc30 = machineSpec('xc30');
    expect(readFaultsFile(file('a.yaml', 'ber: 1e-6\nnodes: [3, {node: 12, at: 2us}]\n'), xc30)).toEqual({ 'link.ber': '0.000001', 'faults.nodes': '3,12@2us' });
    expect(readFaultsFile(file('b.yaml', 'ber: {global: 1e-9, all: 1e-12}\n'), xc30)).toEqual({ 'link.ber': '1e-12,global=1e-9' });
    expect(readFaultsFile(file('c.json', '{"ber": "1e-12,global=1e-9", "nodes": "none"}'), xc30)).toEqual({ 'link.ber': '1e-12,global=1e-9', 'faults.nodes': 'none' });
    expect(readFaultsFile(file('d.yaml', ''), xc30)).toEqual({});
  });

  it('every bad key or value is one line naming the file, the key and what is allowed, exit code 2', async () => {
    for (const [name, text, why] of [
      ['k.yaml', 'bers: 1e-6\n', /--faults .*k\.yaml: unknown key "bers"; allowed: ber, nodes, links, routers, lanes$/],
      ['r.yaml', 'ber: 2\n', /--faults .*r\.yaml: ber: link\.ber: "2" is not a bit-error rate; expected a rate from 0 to 0\.001/],
      // a link class the topology lacks is found once it is built, as for --set
      ['c.yaml', 'ber: {nosuch: 1e-9}\n', /parameter link\.ber: "nosuch" is not a link class/],
      ['n.yaml', 'nodes: [{node: 1, at: soon}]\n', /--faults .*n\.yaml: nodes: faults\.nodes: "1@soon" is not a list of nodes; expected none, or node ids/],
      ['e.yaml', 'nodes: [{node: 1, when: 2us}]\n', /--faults .*e\.yaml: nodes: unknown key "when" in an entry; allowed: node, at$/],
      ['o.yaml', 'nodes: [7]\n', /parameter faults\.nodes: node 7 is not a node of this 2-node machine/],
      ['l.yaml', 'links: [x+@1.2.3]\n', /--faults .*l\.yaml: links: faults\.links: "x\+@1\.2\.3" is not a list of failed links; expected none, or router:port\[@time\] items/],
      ['y.yaml', 'ber: [1e-6\n', /--faults .*y\.yaml: not valid YAML or JSON/],
      ['s.yaml', '- 1\n- 2\n', /--faults .*s\.yaml: expected a mapping of ber, nodes, links, routers, lanes$/],
    ] as const) {
      const r = await phit('run', 'pingpong', '--param', 'maxBytes=8', '--faults', file(name, text));
      expect(r.code, name).toBe(2);
      expect(r.err, name).toHaveLength(1);
      expect(r.err[0], name).toMatch(why);
      expect(r.err[0], name).not.toMatch(/\n\s+at /);
    }
    const missing = await phit('run', 'pingpong', '--faults', join(tmp, 'nosuch.yaml'));
    expect([missing.code, missing.err[0]]).toEqual([2, `phit: --faults ${join(tmp, 'nosuch.yaml')}: no such file`]);
  });

  it('examples/faults.yaml: the run fails with MPI_ERR_OTHER naming the dead node (exit 1); without the death, --metrics shows the retransmissions per link class', async () => {
    const dead = await phit('run', 'pingpong', '--nodes', '4', '--param', 'maxBytes=1024', '--faults', 'examples/faults.yaml');
    expect(dead.code).toBe(1);
    expect(dead.err.join('\n')).toMatch(/MPI_ERR_OTHER: .*rank 3 \(node 3, dead since 20\.000 us\)/);
    const ber = await phit('run', 'pingpong', '--nodes', '4', '--param', 'maxBytes=1024', '--faults', 'examples/faults.yaml', '--set', 'faults.nodes=none', '--metrics');
    expect(ber.code).toBe(0);
    const text = ber.out.join('\n');
    expect(text).toMatch(/link errors \(retransmissions/);
    expect(text).toMatch(/x\+\s+0\.000001\s+\d+/);
  });

  it('phit traffic --faults: the file\'s rates apply, and --metrics counts retransmissions per link class', async () => {
    const f = file('t.yaml', 'ber: {all: 0, x: 1e-5}\n');
    const r = await phit('traffic', '--nodes', '16', '--load', '0.3', '--window', '5', '--warmup', '1', '--faults', f, '--metrics', '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out.join('')) as { rows: { metrics: { linkErrors: { name: string; ber: number; retransmissions: number }[] } }[] };
    const errs = j.rows[0]!.metrics.linkErrors;
    expect(errs.filter((c) => c.name.startsWith('x')).every((c) => c.ber === 1e-5)).toBe(true);
    expect(errs.filter((c) => !c.name.startsWith('x')).every((c) => c.ber === 0 && c.retransmissions === 0)).toBe(true);
    expect(errs.reduce((a, c) => a + c.retransmissions, 0)).toBeGreaterThan(0);
  });
});
