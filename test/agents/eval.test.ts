// forge eval with a real agent from npm (OpenCode, pinned in scripts/agents/agents.ts) against a scripted chat completions API: what the recording proxy counted, held against what the server received.
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { forge } from '../helpers/forge';
import { tempRepo } from '../helpers/repo';
import { agentEnv } from './run';
import { startChatServer } from './servers/openai-chat';
import { calls, say } from './servers/script';

/** What the scripted server puts in each reply's usage chunk. */
const PROMPT = 100;
const COMPLETION = 10;

test('forge eval --agent opencode: the task done through its shell, success from the verify commands, every request and token the server saw counted', async () => {
  const { env } = agentEnv({ agent: 'opencode' });
  const server = await startChatServer([
    calls({
      name: 'bash',
      args: { command: "sed -i 's/\\bcolumns\\b/allColumns/g' src/app/data-table.component.ts", description: 'rename columns' },
    }),
    say('Renamed columns to allColumns.'),
  ]);
  try {
    const dir = tempRepo();
    const r = await forge(['eval', 'rename-columns', '--agent', 'opencode', '--endpoint', server.url, '--model', 'test-model', '--json'], {
      cwd: dir,
      env,
    });
    const run = r.records.find((x) => x.type === 'run');
    assert.ok(run, r.stderr + r.stdout);
    assert.equal([run.agent, run.success, run.failure, run.looped], ['opencode', true, null, false], r.stderr);
    // OpenCode asks for a session title besides the conversation: every chat request counts, the server's and the proxy's alike.
    const chats = server.requests.filter((q) => q.method === 'POST' && q.path.endsWith('/chat/completions')).length;
    assert.ok(chats >= 2, `${chats} chat requests`);
    assert.is(run.requests, chats);
    assert.equal([run.promptTokens, run.completionTokens, run.usageReported], [PROMPT * chats, COMPLETION * chats, true]);
    assert.is(run.toolCalls, 1, 'the one shell call the script made');
    assert.is(r.code, 0);
  } finally {
    await server.close();
  }
});

test.run();
