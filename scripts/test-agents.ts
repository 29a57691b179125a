// `make test-agents`: installs the pinned coding agents (scripts/agents/agents.ts), then runs test/agents/ — forge's plan gate inside each real agent — through the test runner.
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { AGENTS } from './agents/agents';
import { type ClientName, installAgents, unknownAgents } from './agents/install';

const USAGE = `usage: node --import tsx scripts/test-agents.ts [-j N] [agent…]

Installs the pinned agents into node_modules/.cache/forge-agents/ (skipping those already there),
then runs test/agents/<agent>.test.ts for each agent named (all of them without a name:
${Object.keys(AGENTS).join(', ')}, and inspector, the MCP Inspector's CLI) without coverage. forge must be built first (make build; make
test-agents does it).

  -j, --jobs N   files at once (default: the runner's, one per core)
  -h, --help`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { jobs: { type: 'string', short: 'j' }, help: { type: 'boolean', short: 'h', default: false } },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const unknown = unknownAgents(positionals);
if (unknown.length) {
  console.error(`error: no agent '${unknown[0]}' (${Object.keys(AGENTS).join(', ')})\n\n${USAGE}`);
  process.exit(2);
}
const agents = positionals as ClientName[];
installAgents(agents.length ? agents : undefined);

const patterns = agents.length ? agents.map((a) => `test/agents/${a}.test.ts`) : ['test/agents'];
// An agent's start-up takes seconds and each file starts it some fifteen times: the file limit is
// well past the runner's default; each test sets its own limit.
const runner = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    'scripts/test.ts',
    '--no-coverage',
    '--file-timeout',
    '1800',
    ...(values.jobs ? ['-j', values.jobs] : []),
    ...patterns,
  ],
  { stdio: 'inherit' },
);
process.exit(runner.status ?? 1);
