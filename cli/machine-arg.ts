/**
 * `--machine` values: a preset name or the path of a machine file (YAML or JSON), read here so
 * that the fabric layer stays free of the file system. `--set` values are checked against the
 * parameter schema before anything runs.
 */
import { FIDELITY_LEVELS } from '../fabric/machines/fidelity.ts';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { machineSpec } from '../fabric/machine.ts';
import { parseMachineFile } from '../fabric/machines/file.ts';
import { presets } from '../fabric/machines/index.ts';
import { PARAM_SCHEMA, validateParams } from '../fabric/machines/schema.ts';
import type { MachineSpec } from '../fabric/machines/spec.ts';
import { parseKeyValues } from './args.ts';

/** Largest machine file read (bytes): a table of parameters is a few KiB. */
const MACHINE_FILE_CAP = 1 << 20;

/** Whether a `--machine` value names a file: it has a path separator or a .yaml, .yml or .json ending. */
export function isMachinePath(arg: string): boolean {
  return /[\\/]/.test(arg) || /\.(ya?ml|json)$/i.test(arg);
}

/** The machine of a `--machine` value: a preset, or a machine file read relative to the current directory. */
export function loadMachine(arg: string): MachineSpec {
  if (!isMachinePath(arg)) {
    if (!(arg in presets)) throw new RangeError(`unknown machine "${arg}"; valid: ${Object.keys(presets).join(', ')}, or a machine file (.yaml, .yml, .json)`);
    return machineSpec(arg);
  }
  if (!existsSync(arg)) throw new RangeError(`no such machine file: ${arg}`);
  const st = statSync(arg);
  if (!st.isFile()) throw new RangeError(`--machine ${arg}: not a file (a machine file is YAML or JSON)`);
  if (st.size > MACHINE_FILE_CAP) throw new RangeError(`--machine ${arg}: ${st.size} bytes; a machine file has at most ${MACHINE_FILE_CAP} (a table of parameters)`);
  return parseMachineFile(readFileSync(arg, 'utf8'), arg);
}

/** The `--set` items with `--fidelity <level>` added as `fabric.fidelity=<level>`; throws RangeError on an unknown level. */
export function withFidelity(items: readonly string[], fidelity: string | undefined): string[] {
  if (fidelity === undefined) return [...items];
  if (!(FIDELITY_LEVELS as readonly string[]).includes(fidelity)) throw new RangeError(`--fidelity ${fidelity}: valid: ${FIDELITY_LEVELS.join(', ')}`);
  return [...items, `fabric.fidelity=${fidelity}`];
}

/**
 * The `--set key=value` items as an object, each value checked against the schema: against the
 * keys of `spec` when given, else against every known key (a run over several machines).
 */
export function parseSets(items: readonly string[], spec?: MachineSpec): Record<string, string> {
  const set = parseKeyValues(items, '--set');
  if (spec) {
    const topology = String(set['topology.kind'] ?? spec.params['topology.kind']?.value ?? '');
    validateParams(set, '--set', { machine: spec.name, valid: Object.keys(spec.params), topology });
  } else {
    validateParams(set, '--set', { machine: 'any machine', valid: Object.keys(PARAM_SCHEMA) });
  }
  return set;
}
