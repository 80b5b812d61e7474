/**
 * `--faults FILE`: a YAML (or JSON) file of the faults of a run, turned into machine parameters:
 * `ber` (link.ber: one rate, or a rate per link class), `nodes` (faults.nodes: node deaths with
 * their times), and `links`, `routers`, `lanes` (faults.links, faults.routers, faults.lanes). Every bad key or value is one line naming the file, the key and what is
 * allowed.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { checkParam } from '../fabric/machines/schema.ts';
import type { MachineSpec } from '../fabric/machines/spec.ts';
import { firstLine } from './compare.ts';

/** The keys of a faults file, each with the machine parameter it sets. */
export const FAULT_KEYS = { ber: 'link.ber', nodes: 'faults.nodes', links: 'faults.links', routers: 'faults.routers', lanes: 'faults.lanes' } as const;

/** Largest faults file read (bytes). */
const FAULTS_FILE_CAP = 1 << 20;

function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A scalar of a faults file as parameter text, or null when it is not a number or a string. */
function scalar(v: unknown): string | null {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'string') return v.trim();
  return null;
}

/**
 * The machine parameters of faults file `path` for machine `spec` (checked against the schema
 * and against the keys the machine has); throws a RangeError naming the file and the key.
 */
export function readFaultsFile(path: string, spec: MachineSpec): Record<string, string> {
  const bad = (what: string): RangeError => new RangeError(`--faults ${path}: ${what}`);
  if (!existsSync(path)) throw bad('no such file');
  const st = statSync(path);
  if (!st.isFile()) throw bad('not a file (a faults file is YAML or JSON)');
  if (st.size > FAULTS_FILE_CAP) throw bad(`${st.size} bytes; a faults file has at most ${FAULTS_FILE_CAP}`);
  let doc: unknown;
  try {
    doc = parseYaml(readFileSync(path, 'utf8'));
  } catch (e) {
    throw bad(`not valid YAML or JSON: ${firstLine(e)}`);
  }
  const keys = Object.keys(FAULT_KEYS).join(', ');
  if (doc === null || doc === undefined) return {};
  if (!isMapping(doc)) throw bad(`expected a mapping of ${keys}`);
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(doc)) {
    if (!Object.hasOwn(FAULT_KEYS, key)) throw bad(`unknown key "${key}"; allowed: ${keys}`);
    const param = FAULT_KEYS[key as keyof typeof FAULT_KEYS];
    if (!Object.hasOwn(spec.params, param)) {
      throw bad(`${key}: machine ${spec.name} has no ${param} parameter`);
    }
    const text = key === 'ber' ? berText(value, bad) : key === 'nodes' ? nodesText(value, bad) : listText(key, value, bad);
    const problem = checkParam(param, text, String(spec.params['topology.kind']?.value ?? ''));
    if (problem !== null) throw bad(`${key}: ${problem}`);
    out[param] = text;
  }
  return out;
}

/** `ber`: a rate, a parameter text like 1e-12,global=1e-9, or a mapping of link class (or `all`) to rate. */
function berText(v: unknown, bad: (what: string) => RangeError): string {
  const s = scalar(v);
  if (s !== null) return s;
  if (!isMapping(v)) throw bad('ber: expected a rate (e.g. 1e-6) or a mapping of link class to rate (e.g. all: 1e-12, global: 1e-9)');
  const items: string[] = [];
  for (const [cls, rate] of Object.entries(v)) {
    const r = scalar(rate);
    if (r === null) throw bad(`ber: ${cls}: expected a rate, e.g. 1e-9`);
    if (cls === 'all') items.unshift(r);
    else items.push(`${cls}=${r}`);
  }
  return items.join(',');
}

/** `nodes`: a list of node ids, each a number (dead from the start) or {node, at} (dead from time `at`, e.g. 2us). */
function nodesText(v: unknown, bad: (what: string) => RangeError): string {
  if (v === 'none') return 'none';
  const items = Array.isArray(v) ? v : [v];
  return items
    .map((x) => {
      if (typeof x === 'number') return String(x);
      if (isMapping(x) && typeof x.node === 'number') {
        const extra = Object.keys(x).find((k) => k !== 'node' && k !== 'at');
        if (extra !== undefined) throw bad(`nodes: unknown key "${extra}" in an entry; allowed: node, at`);
        const at = x.at === undefined ? null : scalar(x.at);
        if (x.at !== undefined && at === null) throw bad(`nodes: node ${x.node}: at must be a time, e.g. 2us`);
        return at === null ? String(x.node) : `${x.node}@${at}`;
      }
      throw bad('nodes: expected a list of node ids, each a number or {node: N, at: TIME}, e.g. [3, {node: 12, at: 2us}]');
    })
    .join(',');
}

/** `links`, `routers`, `lanes`: a list of items, or the parameter's text, passed on as it is. */
function listText(key: string, v: unknown, bad: (what: string) => RangeError): string {
  const s = scalar(v);
  if (s !== null) return s;
  if (!Array.isArray(v) || v.some((x) => scalar(x) === null)) throw bad(`${key}: expected a list of items or the parameter's text`);
  return v.map((x) => scalar(x)!).join(',');
}
