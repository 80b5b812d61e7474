/** Opening a trace of any supported format, by its name and first bytes. */
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { TraceFormatError, type TraceSource } from './calls.ts';
import { openDumpi } from './dumpi.ts';
import { openOtf2 } from './otf2.ts';
import { openSimgrid } from './simgrid.ts';

/** The formats `openTrace` reads. */
export const TRACE_FORMATS = ['simgrid', 'dumpi', 'otf2'] as const;
export type TraceFormat = (typeof TRACE_FORMATS)[number];

/**
 * Opens `path` as a trace: `format`, or guessed (a `.meta` file is DUMPI, an `.otf2` anchor file
 * is OTF2, a `.bin` file points to its `.meta`, an `.evt` or `.def` file to the anchor file,
 * anything else is SimGrid text). Throws TraceFormatError naming the file and what was expected.
 */
export function openTrace(path: string, format?: TraceFormat): TraceSource {
  if (!existsSync(path)) throw new TraceFormatError(`${path}: no such file`);
  if (!statSync(path).isFile()) throw new TraceFormatError(`${path}: not a file (give a SimGrid trace or list file, a DUMPI .meta file or an OTF2 .otf2 anchor file)`);
  const kind = format ?? guess(path);
  return kind === 'dumpi' ? openDumpi(path) : kind === 'otf2' ? openOtf2(path) : openSimgrid(path);
}

function guess(path: string): TraceFormat {
  if (path.endsWith('.meta')) return 'dumpi';
  if (path.endsWith('.otf2')) return 'otf2';
  if (path.endsWith('.evt') || path.endsWith('.def')) throw new TraceFormatError(`${path}: a file inside an OTF2 archive; give the archive's .otf2 anchor file`);
  const head = new Uint8Array(4);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, head, 0, 4, 0);
  } finally {
    closeSync(fd);
  }
  if (head[0] === 0xff && head[1] === 0xaa && head[2] === 0xdd && head[3] === 0x44) {
    throw new TraceFormatError(`${path}: one rank's DUMPI .bin file; give the trace's .meta file, which names every rank's file`);
  }
  return 'simgrid';
}
