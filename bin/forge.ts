#!/usr/bin/env node
// The forge executable (also installed as forge-<command>): run main, set the exit code.
import { entries } from '../commands/index';
import { main } from '../lib/cli/main';

main({ entries, argv: process.argv, env: process.env, cwd: process.cwd(), stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`Error: ${(err as Error)?.message ?? String(err)}\nFix: FORGE_DEBUG=1 forge --help\n`);
    if (process.env.FORGE_DEBUG === '1') process.stderr.write(`${(err as Error)?.stack}\n`);
    process.exitCode = 1;
  },
);
