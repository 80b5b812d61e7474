// A study in a process of its own (see study.ts): reads its spec from argv, prints its result as
// one JSON line with the process's peak resident memory.
import { register } from 'tsx/esm/api';

register();
const { runStudy } = await import('./study.ts');
const r = await runStudy(JSON.parse(process.argv[2]));
process.stdout.write(`${JSON.stringify({ ...r, peakMB: process.resourceUsage().maxRSS / 1024 })}\n`);
