// forge eval's recording proxy between a client and the scripted servers of the four model APIs the real agents speak: replies pass through whole, each call metered as the server counted it.
import { createServer } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { ownServer } from '../../helpers/owner';
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { dialectOf, meterReply } from '../../../lib/eval/meter';
import { startRecordingProxy } from '../../../lib/eval/proxy';
import { agentProcessEnv, meterCalls } from '../../../lib/eval/run';
import { startAnthropicServer } from '../../agents/servers/anthropic';
import { startCodexServer } from '../../agents/servers/codex';
import { startGeminiServer } from '../../agents/servers/gemini';
import { startChatServer } from '../../agents/servers/openai-chat';
import { calls, say, type ScriptedServer, type Turn } from '../../agents/servers/script';

const TOOLS_CHAT = [{ type: 'function', function: { name: 'read', parameters: { type: 'object' } } }];

/** Each API as its agent calls it: the path under the base, and a body the scripted server takes for a conversation turn. */
const APIS: Array<{
  api: string;
  start: (turns: Turn[]) => Promise<ScriptedServer>;
  path: string;
  body: Record<string, unknown>;
  usage: [number, number];
}> = [
  {
    api: 'openai-chat',
    start: startChatServer,
    path: '/chat/completions',
    body: { model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }], tools: TOOLS_CHAT },
    usage: [100, 10],
  },
  {
    api: 'openai-responses',
    start: startCodexServer,
    path: '/responses',
    body: { model: 'm', stream: true, input: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', name: 'shell' }] },
    usage: [100, 10],
  },
  {
    api: 'anthropic',
    start: startAnthropicServer,
    path: '/v1/messages',
    body: {
      model: 'm',
      stream: true,
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ name: 'Read', input_schema: {} }],
    },
    usage: [100, 10],
  },
  {
    api: 'gemini',
    start: startGeminiServer,
    path: '/v1beta/models/m:streamGenerateContent?alt=sse',
    body: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], tools: [{ functionDeclarations: [{ name: 'read_file' }] }] },
    usage: [-1, -1],
  },
];

for (const { api, start, path, body, usage } of APIS) {
  test(`${api}: the proxy passes the scripted reply through and records the call's tool calls and tokens`, async () => {
    const server = await start([calls({ name: 'read_file', args: { path: 'src/a.ts' } }), say('done')]);
    const proxy = await startRecordingProxy({ upstream: server.url, apiKey: 'sk-upstream' });
    try {
      const replies: string[] = [];
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${proxy.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer placeholder', 'x-api-key': 'placeholder' },
          body: JSON.stringify(body),
        });
        assert.is(res.status, 200);
        replies.push(await res.text());
      }
      assert.match(replies[0]!, /read_file/, 'the tool call reached the client');
      assert.match(replies[1]!, /done/, 'and the final text');
      assert.is(proxy.calls.length, 2);
      assert.equal(
        proxy.calls.map((c) => [c.dialect, c.status]),
        [
          [api, 200],
          [api, 200],
        ],
      );
      assert.equal(
        proxy.calls[0]!.toolCalls.map((t) => [t.name, JSON.parse(t.args)]),
        [['read_file', { path: 'src/a.ts' }]],
      );
      assert.equal(proxy.calls[1]!.toolCalls, []);
      assert.match(proxy.calls[1]!.text, /done/, "the final answer's text, in each API's shape");
      // What the server counted, read from its own reply.
      const served = server.requests.filter((r) => dialectOf(r.path));
      assert.is(served.length, 2, 'one upstream request per client request');
      if (usage[0] >= 0) assert.equal([proxy.calls[0]!.promptTokens, proxy.calls[0]!.completionTokens], usage);
      else assert.ok((proxy.calls[0]!.promptTokens ?? 0) > 0, 'the usage of the last chunk');
      // The upstream's key replaced the placeholder the client sent.
      const headers = served[0]!.headers;
      assert.ok(headers.authorization === 'Bearer sk-upstream' || headers['x-api-key'] === 'sk-upstream', JSON.stringify(headers));
      assert.not.ok(JSON.stringify(headers).includes('placeholder'));
    } finally {
      await proxy.close();
    }
  });
}

test('a request that is no model call (a model listing) is passed through and counted apart', async () => {
  const server = await startChatServer([]);
  const proxy = await startRecordingProxy({ upstream: server.url });
  try {
    const res = await fetch(`${proxy.url}/models`);
    assert.is(res.status, 404, "the scripted server's own answer");
    assert.match(await res.text(), /scripted chat server: no GET/);
    assert.equal([proxy.calls.length, proxy.otherRequests], [0, 1]);
  } finally {
    await proxy.close();
  }
});

test('the proxy reaches its upstream only: a request for another host through it is refused, not passed on', async () => {
  const server = await startChatServer([]);
  const other = await startChatServer([]);
  const proxy = await startRecordingProxy({ upstream: server.url });
  try {
    const { port } = new URL(proxy.url);
    const otherHost = new URL(other.url).host;
    for (const target of [`http://${otherHost}/v1/models`, `//${otherHost}/v1/models`]) {
      const res = await rawRequest(Number(port), target);
      assert.match(res, /^HTTP\/1\.1 400 /, target);
    }
    assert.equal([other.requests.length, server.requests.length], [0, 0]);
  } finally {
    await proxy.close();
  }
});

/** A request line as a client may write it (an absolute-form target), answered as text. */
function rawRequest(port: number, target: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`));
    let text = '';
    socket.on('data', (b) => (text += b.toString()));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

test('a reply the server compressed (gzip, br) passes through as sent and is metered as the client reads it', async () => {
  const reply = JSON.stringify({
    choices: [
      { message: { role: 'assistant', content: null, tool_calls: [{ index: 0, function: { name: 'read', arguments: '{"path":"a"}' } }] } },
    ],
    usage: { prompt_tokens: 321, completion_tokens: 12 },
  });
  for (const [encoding, compress] of [
    ['gzip', gzipSync],
    ['br', brotliCompressSync],
  ] as const) {
    const server = ownServer(
      createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
        res.end(compress(Buffer.from(reply)));
      }),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const proxy = await startRecordingProxy({ upstream: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` });
    try {
      const res = await fetch(`${proxy.url}/chat/completions`, { method: 'POST', body: '{}' });
      assert.is(await res.text(), reply, `${encoding}: the client decodes what the server sent`);
      assert.equal(
        [proxy.calls[0]!.promptTokens, proxy.calls[0]!.completionTokens, proxy.calls[0]!.toolCalls.map((t) => t.name)],
        [321, 12, ['read']],
        encoding,
      );
    } finally {
      await proxy.close();
      await new Promise<void>((r) => server.close(() => r()));
    }
  }
});

test('an upstream that cannot be reached is a 502 with the reason, never a hang', async () => {
  const proxy = await startRecordingProxy({ upstream: 'http://127.0.0.1:9/v1' });
  try {
    const res = await fetch(`${proxy.url}/chat/completions`, { method: 'POST', body: '{}' });
    assert.is(res.status, 502);
    assert.match(await res.text(), /could not reach http:\/\/127\.0\.0\.1:9/);
  } finally {
    await proxy.close();
  }
});

test('meter: replies without usage, torn lines and non-streamed bodies', () => {
  const chat = meterReply(
    'openai-chat',
    [
      'data: {"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"name":"edit","arguments":"{\\"pa"}}]}}]}',
      'data: {not json',
      'data: {"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"th\\":1}"}}]}}]}',
      'data: [DONE]',
    ].join('\n'),
  );
  assert.equal(chat, { promptTokens: null, completionTokens: null, toolCalls: [{ name: 'edit', args: '{"path":1}' }], text: '' });
  const whole = meterReply(
    'anthropic',
    JSON.stringify({
      type: 'message',
      content: [{ type: 'tool_use', name: 'Bash', input: { command: 'ls' } }],
      usage: { input_tokens: 5, cache_read_input_tokens: 7, output_tokens: 3 },
    }),
  );
  assert.equal(whole, { promptTokens: 12, completionTokens: 3, toolCalls: [{ name: 'Bash', args: '{"command":"ls"}' }], text: '' });
  const geminiArray = meterReply(
    'gemini',
    JSON.stringify([
      { candidates: [{ content: { parts: [{ functionCall: { name: 'ls', args: {} } }] } }], usageMetadata: { promptTokenCount: 9 } },
      { usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 4 } },
    ]),
  );
  assert.equal(geminiArray, { promptTokens: 9, completionTokens: 4, toolCalls: [{ name: 'ls', args: '{}' }], text: '' });
  assert.equal(meterReply('openai-responses', 'garbage'), { promptTokens: null, completionTokens: null, toolCalls: [], text: '' });
});

test('figures of a run: server counts where given, estimates where not, uncached after the common prefix, a loop at the third same call', () => {
  const count = (t: string) => t.length;
  const call = (body: string, promptTokens: number | null, name = 'read') => ({
    dialect: 'openai-chat' as const,
    path: '/v1/chat/completions',
    body,
    status: 200,
    ms: 1,
    promptTokens,
    completionTokens: promptTokens === null ? null : 2,
    toolCalls: [{ name, args: '{"path":"a"}' }],
    text: '',
  });
  const figures = meterCalls([call('aaaa', 40), call('aaaabb', null), call('aaaabbcc', 50)], count);
  assert.equal(figures, {
    requests: 3,
    toolCalls: 3,
    promptTokens: 40 + 6 + 50,
    // The call without usage: its tool call's name and arguments, counted.
    completionTokens: 2 + 'read{"path":"a"}'.length + 2,
    uncachedTokens: 4 + 2 + 2,
    largestRequest: 50,
    usageReported: false,
    looped: true,
    reReads: 2,
  });
  assert.not.ok(meterCalls([call('a', 1), call('b', 1, 'edit'), call('c', 1)], count).looped, 'twice is not a loop');
  // A read after the agent's own change to the file is no re-read; each agent's names for read and write count.
  assert.is(meterCalls([call('a', 1), call('b', 1, 'edit'), call('c', 1)], count).reReads, 0);
  const claude = (name: string, file_path: string) => ({ ...call('x', 1), toolCalls: [{ name, args: JSON.stringify({ file_path }) }] });
  assert.is(
    meterCalls(
      [
        claude('Read', '/r/a.ts'),
        claude('Read', '/r/b.ts'),
        claude('Read', '/r/a.ts'),
        claude('Write', '/r/b.ts'),
        claude('Read', '/r/b.ts'),
      ],
      count,
      'claude',
    ).reReads,
    1,
  );
});

test("an agent's environment: the user's agent settings and what leads out of the fixture dropped, its own home, the proxy reached directly", () => {
  const env = agentProcessEnv(
    {
      PATH: '/usr/bin',
      HOME: '/home/me',
      NO_PROXY: 'corp.example',
      GIT_DIR: '/home/me/repo/.git',
      FORGE_CWD: '/home/me/repo',
      FORGE_PROFILE: 'local',
      ANTHROPIC_AUTH_TOKEN: 'sk-ant-mine',
      GOOGLE_GENAI_USE_VERTEXAI: 'true',
      OPENAI_BASE_URL: 'https://api.openai.com/v1',
      CLAUDE_CONFIG_DIR: '/home/me/.claude',
      CODEX_HOME: '/home/me/.codex',
    },
    '/tmp/eval/home',
    { CODEX_HOME: '/tmp/eval/home/.codex' },
  );
  assert.equal(env, {
    PATH: '/usr/bin',
    HOME: '/tmp/eval/home',
    NO_PROXY: 'corp.example,127.0.0.1,localhost',
    no_proxy: 'corp.example,127.0.0.1,localhost',
    FORGE_PROFILE: 'local',
    CODEX_HOME: '/tmp/eval/home/.codex',
  });
});

test.run();
