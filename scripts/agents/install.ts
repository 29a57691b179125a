// Installs the pinned agents of scripts/agents/agents.ts into node_modules/.cache/forge-agents/, each in its own prefix; what is there already is skipped.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { AGENTS, type AgentName, INSPECTOR, isInstalled, NODE_22, node22BinDir, prefixOf, STAMP } from './agents';

const USAGE = `usage: node --import tsx scripts/agents/install.ts [agent…]

Installs the pinned coding agents and the MCP Inspector (all of them without a name: ${Object.keys(AGENTS).join(', ')}, inspector)
into node_modules/.cache/forge-agents/<pkg>@<version>/. One already installed is skipped.`;

/** One `npm install` into a fresh prefix; the stamp goes in only when npm succeeded, so a broken install is retried. */
function install(p: { pkg: string; version: string }, path: string): void {
  if (isInstalled(p)) {
    console.log(`${p.pkg}@${p.version}: installed`);
    return;
  }
  const prefix = prefixOf(p);
  rmSync(prefix, { recursive: true, force: true });
  mkdirSync(prefix, { recursive: true });
  // A package.json of its own: without one npm walks up and installs into forge's own node_modules.
  writeFileSync(join(prefix, 'package.json'), '{"private": true}\n');
  console.log(`${p.pkg}@${p.version}: installing`);
  const npm = spawnSync(
    'npm',
    [
      'install',
      '--prefix',
      prefix,
      '--no-save',
      '--ignore-scripts=false',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      `${p.pkg}@${p.version}`,
    ],
    // The package's install scripts (Claude Code's install.cjs) run on the Node it needs.
    { stdio: 'inherit', env: { ...process.env, PATH: path } },
  );
  if (npm.status !== 0) throw new Error(`cannot install '${p.pkg}@${p.version}': npm exited ${npm.status ?? npm.signal}`);
  writeFileSync(join(prefix, STAMP), `${p.pkg}@${p.version}\n`);
}

/** What `make test-agents` can be asked to run: each agent, and the Inspector. */
export type ClientName = AgentName | 'inspector';

/** The names that are neither agents of the table nor the Inspector (for a usage error). */
export const unknownAgents = (names: string[]): string[] => names.filter((a) => !(a in AGENTS) && a !== 'inspector');

/** Installs the agents and the Inspector named (all without a name), Node 22 first when one needs it; throws when npm fails. */
export function installAgents(names: ClientName[] = [...(Object.keys(AGENTS) as AgentName[]), 'inspector']): void {
  const rows = names.map((n) => (n === 'inspector' ? INSPECTOR : AGENTS[n]));
  if (rows.some((r) => r.node === 22)) install(NODE_22, process.env.PATH ?? '');
  for (const row of rows) install(row, row.node === 22 ? `${node22BinDir()}:${process.env.PATH}` : (process.env.PATH ?? ''));
}

function main(): void {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { help: { type: 'boolean', short: 'h' } } });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const unknown = unknownAgents(positionals);
  if (unknown.length) {
    console.error(`error: no agent '${unknown[0]}' (${Object.keys(AGENTS).join(', ')})\n\n${USAGE}`);
    process.exit(2);
  }
  installAgents(positionals.length ? (positionals as ClientName[]) : undefined);
}

// Run as a script (not when scripts/test-agents.ts imports it).
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
