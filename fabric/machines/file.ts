/**
 * Machine files: a preset written out as YAML (every parameter with its help and provenance as
 * comments) or JSON, and read back, either as a full table or as `base: <preset>` plus the
 * parameters that differ. Pure (no file system), so a browser can use it too.
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, Document, type Node, type Pair, type Scalar, type YAMLMap } from 'yaml';
import { presets } from './index.ts';
import { checkParam, PARAM_SCHEMA, requiredKeys, unknownParamMessage } from './schema.ts';
import type { MachineSpec, ParamDef } from './spec.ts';

/** The top-level keys of a machine file. */
export const FILE_KEYS = ['base', 'name', 'title', 'seed', 'params'] as const;

/** A YAML document of a machine: name, title, seed and every parameter, with help and source as comments. */
export function machineToYaml(spec: MachineSpec): string {
  const values = Object.fromEntries(Object.entries(spec.params).map(([k, d]) => [k, d.value]));
  const doc = new Document({ name: spec.name, title: spec.title, seed: spec.seed, params: values });
  doc.commentBefore =
    ` phit machine ${spec.name}: ${spec.title}\n` +
    ' Load it with --machine <this file>. A file may also start from a preset:\n' +
    ` "base: ${spec.name in presets ? spec.name : '<preset>'}" and, under params, only the parameters that differ.`;
  const params = doc.get('params') as YAMLMap<Scalar, unknown>;
  let section = '';
  for (const item of params.items) {
    const key = String(item.key.value);
    const d = spec.params[key]!;
    const group = key.split('.')[0]!;
    item.key.spaceBefore = section !== '' && group !== section;
    section = group;
    item.key.commentBefore = ` ${d.help}\n source: ${d.source}`;
  }
  return doc.toString({ lineWidth: 0 });
}

/** The JSON form of a machine: name, title, seed and every parameter as {value, help, source}. */
export function machineToJson(spec: MachineSpec): string {
  return JSON.stringify({ name: spec.name, title: spec.title, seed: spec.seed, params: spec.params }, null, 2);
}

/**
 * A machine file that keeps every parameter's own source: with `base` (a preset), `base:` and
 * only the parameters whose value or source differ from it; without, the full table. Each
 * parameter in the long form {value, help, source}, so reading the file back keeps the sources.
 * YAML (`comment` at the top) or JSON.
 */
export function machineOverlay(spec: MachineSpec, opts: { readonly base?: string; readonly format: 'yaml' | 'json'; readonly comment?: string }): string {
  const base = opts.base !== undefined ? presets[opts.base] : undefined;
  if (opts.base !== undefined && !base) throw new RangeError(`machineOverlay: "${opts.base}" is not a preset; expected one of ${Object.keys(presets).join(', ')}`);
  const params: Record<string, ParamDef> = {};
  for (const [k, d] of Object.entries(spec.params)) {
    const b = base?.params[k];
    if (!b || String(b.value) !== String(d.value) || b.source !== d.source) params[k] = { value: d.value, help: d.help, source: d.source };
  }
  const head = base ? { base: base.name, name: spec.name, title: spec.title } : { name: spec.name, title: spec.title, seed: spec.seed };
  if (opts.format === 'json') return JSON.stringify({ ...head, params }, null, 2);
  const doc = new Document({ ...head, params });
  if (opts.comment !== undefined) doc.commentBefore = ` ${opts.comment.split('\n').join('\n ')}`;
  return doc.toString({ lineWidth: 0 });
}

/** A parameter as a file gives it: the value and, in the long form, its own help and source. */
interface FileParam {
  readonly value: string | number;
  readonly help?: string;
  readonly source?: string;
  readonly line: number;
}

/** The file name of `origin` without folders and extension. */
function stem(origin: string): string {
  return (origin.split(/[\\/]/).pop() ?? origin).replace(/\.(ya?ml|json)$/i, '');
}

/** Help text of a key from the first preset that has it. */
function presetHelp(key: string): string {
  for (const p of Object.values(presets)) {
    const d = p.params[key];
    if (d) return d.help;
  }
  return '';
}

/**
 * Reads a machine file (YAML or JSON): either a full table (`name`, `title`, `seed`, `params`)
 * or `base: <preset>` with the parameters that differ. Throws a RangeError listing every problem
 * (unknown keys, bad values, missing parameters), each with `origin`, the line and the allowed
 * values. A parameter whose value differs from the preset's (the base, else the preset of the
 * file's name or seed file) gets the source "file <origin>".
 */
export function parseMachineFile(text: string, origin: string): MachineSpec {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  const at = (node: Node | null | undefined): string => {
    const start = node?.range?.[0];
    return start === undefined ? origin : `${origin}:${lines.linePos(start).line}`;
  };
  const syntax = doc.errors[0];
  if (syntax) throw new RangeError(`${origin}${syntax.linePos ? `:${syntax.linePos[0].line}` : ''}: not a YAML or JSON machine file: ${syntax.message.split(/ at line |\n/)[0]}`);
  const root = doc.contents;
  if (!isMap(root)) throw new RangeError(`${origin}: expected a mapping with keys ${FILE_KEYS.join(', ')}`);
  const errors: string[] = [];
  const top: Partial<Record<(typeof FILE_KEYS)[number], Pair>> = {};
  for (const pair of root.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    if (!(FILE_KEYS as readonly string[]).includes(key)) {
      errors.push(`${at(pair.key as Node)}: unknown key "${key}"; expected ${FILE_KEYS.join(', ')}`);
      continue;
    }
    top[key as (typeof FILE_KEYS)[number]] = pair;
  }
  const word = (k: 'base' | 'name' | 'title' | 'seed'): string | undefined => {
    const pair = top[k];
    if (!pair) return undefined;
    if (!isScalar(pair.value) || (typeof pair.value.value !== 'string' && typeof pair.value.value !== 'number')) {
      errors.push(`${at(pair.key as Node)}: ${k} must be a text`);
      return undefined;
    }
    return String(pair.value.value);
  };
  const baseName = word('base');
  const name = word('name') ?? stem(origin);
  const title = word('title');
  const seed = word('seed');
  let base: MachineSpec | undefined;
  if (baseName !== undefined) {
    base = presets[baseName];
    if (!base) errors.push(`${at(top.base?.value as Node)}: base: "${baseName}" is not a preset; expected one of ${Object.keys(presets).join(', ')}`);
  }

  // the parameters as the file gives them
  const given = new Map<string, FileParam>();
  const paramsNode = top.params?.value;
  if (top.params && !isMap(paramsNode)) errors.push(`${at(top.params.key as Node)}: params must be a mapping of parameter keys to values`);
  if (isMap(paramsNode)) {
    for (const pair of paramsNode.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      const line = at(pair.key as Node);
      const v = pair.value as Node | null;
      const kind = PARAM_SCHEMA[key]?.kind;
      const scalarOf = (n: unknown): string | number | undefined => {
        if (!isScalar(n)) return undefined;
        const x = n.value;
        if (typeof x === 'boolean') return kind?.type === 'flag' ? (x ? 'yes' : 'no') : String(x);
        // a plain 0000000000000010 is an integer to YAML; a hex mask keeps its digits
        if (typeof x === 'number' && kind?.type === 'hex' && n.source !== undefined) return n.source;
        return typeof x === 'string' || typeof x === 'number' ? x : undefined;
      };
      let value: string | number | undefined;
      let help: string | undefined;
      let source: string | undefined;
      if (isSeq(v)) {
        const parts = v.items.map(scalarOf);
        if (parts.every((p) => p !== undefined)) value = parts.join(',');
      } else if (isMap(v)) {
        // the long form of `machines show --json`: {value, help, source}
        const long = v.toJSON() as Record<string, unknown>;
        const extra = Object.keys(long).filter((k) => !['value', 'help', 'source'].includes(k));
        if (extra.length > 0) {
          errors.push(`${line}: ${key}: unknown field "${extra[0]}"; expected value, help, source`);
          continue;
        }
        value = scalarOf(v.get('value', true));
        if (typeof long.help === 'string') help = long.help;
        if (typeof long.source === 'string') source = long.source;
      } else {
        value = scalarOf(v);
      }
      if (value === undefined) {
        errors.push(`${line}: ${key}: expected a value (a number or a text), or {value, help, source}`);
        continue;
      }
      given.set(key, { value, line: lines.linePos((pair.key as Node).range?.[0] ?? 0).line, ...(help !== undefined ? { help } : {}), ...(source !== undefined ? { source } : {}) });
    }
  }

  // a topology.kind that is not one decides which keys exist: its own problem is the one to report
  const kindPair = isMap(paramsNode) ? paramsNode.items.find((p) => isScalar(p.key) && p.key.value === 'topology.kind') : undefined;
  const kindGiven = given.get('topology.kind');
  const kindProblem = kindGiven === undefined ? null : checkParam('topology.kind', kindGiven.value);
  if (kindProblem !== null) errors.push(`${origin}:${kindGiven!.line}: ${kindProblem}`);
  if ((kindPair !== undefined && kindGiven === undefined) || kindProblem !== null) throw new RangeError(errors.join('\n'));

  // the table: the base's parameters (if any) with the file's on top
  // what "changed" is measured against: the base, else the preset of that name or seed file
  const reference = base ?? presets[name] ?? Object.values(presets).find((p) => seed !== undefined && p.seed === seed);
  const baseTopology = base ? String(base.params['topology.kind']?.value) : undefined;
  const topology = String(given.get('topology.kind')?.value ?? baseTopology ?? '');
  if (base && topology !== baseTopology) {
    errors.push(`${origin}:${given.get('topology.kind')!.line}: topology.kind: a file based on ${base.name} keeps its ${baseTopology} topology ("${topology}" given); start from a ${topology} preset or write a full table`);
  }
  const valid = Object.keys(PARAM_SCHEMA).filter((k) => PARAM_SCHEMA[k]!.topology === undefined || PARAM_SCHEMA[k]!.topology === topology);
  const params: Record<string, ParamDef> = { ...base?.params };
  for (const [key, p] of given) {
    const where = `${origin}:${p.line}`;
    if (!valid.includes(key)) {
      errors.push(`${where}: ${unknownParamMessage(key, name, valid, topology || undefined)}`);
      continue;
    }
    const problem = checkParam(key, p.value, topology);
    if (problem !== null) {
      errors.push(`${where}: ${problem}`);
      continue;
    }
    const ref = reference?.params[key];
    const unchanged = ref !== undefined && String(ref.value) === String(p.value);
    params[key] = {
      value: p.value,
      help: p.help ?? ref?.help ?? presetHelp(key),
      // a value the file changed without giving its own source comes from the file
      source: unchanged ? (p.source ?? ref.source) : p.source !== undefined && p.source !== ref?.source ? p.source : `file ${origin}`,
    };
  }
  if (!base && topology !== '' && errors.length === 0) {
    const missing = requiredKeys(topology).filter((k) => !(k in params));
    if (missing.length > 0) {
      const listed = missing.length > 6 ? `${missing.slice(0, 6).join(', ')} and ${missing.length - 6} more` : missing.join(', ');
      errors.push(`${origin}: missing parameter${missing.length > 1 ? 's' : ''} ${listed} (a full table needs every parameter of a ${topology} machine; or write base: <preset> and only the ones that differ)`);
    }
  }
  if (!base && !given.has('topology.kind') && baseName === undefined) {
    errors.push(`${origin}: give base: <preset> (one of ${Object.keys(presets).join(', ')}) or a full table with params`);
  }
  if (errors.length > 0) throw new RangeError(errors.join('\n'));
  return {
    name,
    title: title ?? (base ? `${base.title}, from ${origin}` : name),
    seed: seed ?? base?.seed ?? '',
    params,
  };
}
