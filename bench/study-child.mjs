// A study in a process of its own (see study.ts): reads its spec from argv, prints its result as
// one JSON line with the process's peak resident memory. The study's code loads as the CLI's does
// (compiled, see cli/load.mjs), so its memory is what a user's `phit` run takes.
import { URL } from 'node:url';
import { load } from '../cli/load.mjs';

const { runStudy } = await load(new URL('./study.ts', import.meta.url));
const r = await runStudy(JSON.parse(process.argv[2]));
process.stdout.write(`${JSON.stringify({ ...r, peakMB: process.resourceUsage().maxRSS / 1024 })}\n`);
