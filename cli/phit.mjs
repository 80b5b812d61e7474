#!/usr/bin/env node
// Entry point of the `phit` command: loads the TypeScript sources through tsx.
import { register } from 'tsx/esm/api';

// a reader that stops early (`phit ... | head`) is not an error
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});
register();
const { main } = await import('./main.ts');
process.exitCode = await main(process.argv.slice(2));
