#!/usr/bin/env node
// The forge executable (also installed as forge-<command>): load the one bundle that holds the command it runs, run it, set the exit code.
import { basename, join } from 'node:path';
import { catalog } from '../commands/catalog';
import type { CommandBundle } from '../lib/cli/bundles';
import { splitWords } from '../lib/cli/leading';
import { versionOutput } from '../lib/cli/version';
import { version } from '../package.json';
import { codeCacheDir, loadBundle } from './code-cache';
import { outputStream } from './stdio';

/**
 * The catalog path of the command the words name — a command, or a group's subcommand — so
 * start-up loads one command's code; 'index', the whole registry, for help, typos and group help.
 */
function bundlePath(words: string[]): string {
  const [first, second] = words;
  const hit = first !== undefined && Object.hasOwn(catalog, first) ? catalog[first] : undefined;
  if (typeof hit === 'string') return hit;
  return hit && second !== undefined && Object.hasOwn(hit, second) ? hit[second]! : 'index';
}

// Under coverage (c8) bundles load as require() does: V8 counts blocks only in code it compiles with coverage on, which a cached compile is not.
const coverage = Boolean(process.env.NODE_V8_COVERAGE);
const cacheDir = coverage ? null : codeCacheDir({ env: process.env, home: process.env.HOME ?? null });
const loaded = new Map<string, CommandBundle>();
// Caches to write when the process ends (forge mcp may load many bundles): one exit listener for all of them.
const atExit: Array<() => void> = [];
process.once('exit', () => {
  for (const write of atExit) write();
});

function load(path: string): CommandBundle {
  let bundle = loaded.get(path);
  if (!bundle) {
    const file = join(__dirname, 'commands', `${path.replace(/\//g, '.')}.js`);
    bundle = (
      (coverage ? require(file) : loadBundle({ file, cacheDir, atExit: (write) => atExit.push(write) })) as { default: CommandBundle }
    ).default;
    loaded.set(path, bundle);
  }
  return bundle;
}

const program = /^forge-(.+?)(\.[cm]?js)?$/.exec(basename(process.argv[1] ?? 'forge'))?.[1];
const { leading, command: words } = splitWords([
  ...(program && Object.hasOwn(catalog, program) ? [program] : []),
  ...process.argv.slice(2),
]);
// `forge version [--json]` loads no bundle; with anything after it, main says what is wrong.
if (words.length === 1 && words[0] === '--version') {
  const stdout = outputStream(1, () => process.stdout);
  stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
  stdout.write(versionOutput({ version, json: leading.includes('--json') || process.env.FORGE_JSON === '1' }));
} else {
  new Promise<number>((done) => done(load(bundlePath(words)).run({ argv: process.argv, load }))).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`Error: ${(err as Error)?.message ?? String(err)}\nFix: FORGE_DEBUG=1 forge --help\n`);
      if (process.env.FORGE_DEBUG === '1') process.stderr.write(`${(err as Error)?.stack}\n`);
      process.exitCode = 1;
    },
  );
}
