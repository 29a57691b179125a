#!/usr/bin/env node
// The forge executable (also installed as forge-<command>): load the command it runs, run main, set the exit code.
import { basename } from 'node:path';
import { catalog } from '../commands/catalog';
import type { Entry } from '../lib/cli/declare';
import { main } from '../lib/cli/main';

/**
 * The one entry the command line names — a command, or its group holding just that subcommand —
 * so start-up loads one command's code, not all of them; null for help, typos and group help,
 * which need the whole registry.
 */
async function named(words: string[]): Promise<Entry | null> {
  const [first, second] = words;
  const hit = first === undefined ? undefined : catalog[first];
  if (!hit) return null;
  if (typeof hit === 'function') return (await hit()).default;
  const load = second === undefined ? undefined : hit[second];
  return load ? { name: first!, summary: '', description: '', commands: [(await load()).default] } : null;
}

async function entriesFor(argv: string[]): Promise<readonly Entry[]> {
  const program = /^forge-(.+?)(\.[cm]?js)?$/.exec(basename(argv[1] ?? 'forge'))?.[1];
  const words = [...(program && catalog[program] ? [program] : []), ...argv.slice(2)];
  if (words[0] === '--version' || words[0] === '-V') return [];
  const entry = await named(words);
  return entry ? [entry] : (await import('../commands/index')).entries;
}

entriesFor(process.argv)
  .then((entries) => main({ entries, argv: process.argv, env: process.env, cwd: process.cwd(), stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`Error: ${(err as Error)?.message ?? String(err)}\nFix: FORGE_DEBUG=1 forge --help\n`);
      if (process.env.FORGE_DEBUG === '1') process.stderr.write(`${(err as Error)?.stack}\n`);
      process.exitCode = 1;
    },
  );
