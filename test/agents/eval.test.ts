// forge eval with the real agents from npm (pinned in scripts/agents/agents.ts), each against a scripted server of the API it speaks: what the recording proxy counted, held against what the server received.
import type { AgentName } from '../../scripts/agents/agents';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { forge } from '../helpers/forge';
import { tempRepo } from '../helpers/repo';
import { agentEnv } from './run';
import { startAnthropicServer } from './servers/anthropic';
import { startCodexServer } from './servers/codex';
import { startGeminiServer } from './servers/gemini';
import { startChatServer } from './servers/openai-chat';
import { calls, type RecordedRequest, type ScriptedServer, say, type ToolCall, type Turn } from './servers/script';

const RENAME = "sed -i 's/\\bcolumns\\b/allColumns/g' src/app/data-table.component.ts";

/** Each agent: its server, its shell tool, a model its server takes, and what the server's usage says each model call cost. */
const AGENTS: Array<{
  agent: AgentName;
  node22?: boolean;
  start: (turns: Turn[]) => Promise<ScriptedServer>;
  shell: (command: string) => ToolCall;
  model: string;
  /** Prompt and completion tokens the server reports for this request; null when it is no model call. */
  usage: (r: RecordedRequest) => [number, number] | null;
}> = [
  {
    agent: 'opencode',
    start: startChatServer,
    shell: (command) => ({ name: 'bash', args: { command, description: 'rename columns' } }),
    model: 'test-model',
    usage: (r) => (r.method === 'POST' && r.path.endsWith('/chat/completions') ? [100, 10] : null),
  },
  {
    agent: 'codex',
    start: startCodexServer,
    shell: (cmd) => ({ name: 'exec_command', args: { cmd } }),
    model: 'gpt-5.5',
    usage: (r) => (r.method === 'POST' && r.path.split('?')[0]!.endsWith('/responses') ? [100, 10] : null),
  },
  {
    agent: 'gemini',
    start: startGeminiServer,
    shell: (command) => ({ name: 'run_shell_command', args: { command, description: 'rename columns' } }),
    model: 'gemini-2.5-flash',
    usage: (r) => (r.path.includes(':streamGenerateContent') ? [100, 10] : r.path.includes(':generateContent') ? [10, 10] : null),
  },
  {
    agent: 'claude',
    node22: true,
    start: startAnthropicServer,
    shell: (command) => ({ name: 'Bash', args: { command, description: 'rename columns' } }),
    model: 'claude-sonnet-4-5',
    usage: (r) => (r.method === 'POST' && r.path.split('?')[0]!.endsWith('/v1/messages') ? [100, 10] : null),
  },
];

for (const { agent, node22, start, shell, model, usage } of AGENTS) {
  test(`forge eval --agent ${agent}: the task done through its shell, success from the verify commands, every request and token the server saw counted`, async () => {
    const { env } = agentEnv({ agent, node22 });
    const server = await start([calls(shell(RENAME)), say('Renamed columns to allColumns.')]);
    try {
      const dir = tempRepo();
      const r = await forge(['eval', 'rename-columns', '--agent', agent, '--endpoint', server.url, '--model', model, '--json'], {
        cwd: dir,
        env,
      });
      const run = r.records.find((x) => x.type === 'run');
      assert.ok(run, r.stderr + r.stdout);
      assert.equal([run.agent, run.success, run.failure, run.looped], [agent, true, null, false], r.stderr);
      // Side questions (a session title, a router's pick) are model calls too: the server's and the proxy's counts alike.
      const served = server.requests.map(usage).filter((u): u is [number, number] => u !== null);
      assert.ok(served.length >= 2, `${served.length} model calls`);
      assert.is(run.requests, served.length);
      assert.equal(
        [run.promptTokens, run.completionTokens, run.usageReported],
        [served.reduce((n, [p]) => n + p, 0), served.reduce((n, [, c]) => n + c, 0), true],
      );
      assert.is(run.toolCalls, 1, 'the one shell call the script made');
      assert.is(r.code, 0);
    } finally {
      await server.close();
    }
  });
}

test.run();
