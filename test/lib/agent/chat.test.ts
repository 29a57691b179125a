// The chat client against a scripted OpenAI-compatible server on loopback: streaming, tool-call assembly, retries, failures.
import { test } from '../../helpers/harness';
import * as assert from 'uvu/assert';
import { chat, type ChatOptions, type RetryNotice } from '../../../lib/agent/chat';
import { ModelError } from '../../../lib/agent/chat-failures';
import { ChatStream } from '../../../lib/agent/chat-stream';
import type { ChatMessage, ToolSchema } from '../../../lib/agent/chat-types';
import { listModels } from '../../../lib/agent/list-models';
import {
  closedPort,
  failWith,
  modelNotFound,
  raw,
  reply,
  stall,
  startOpenAIServer,
  type OpenAIServer,
  type OpenAIServerOptions,
} from '../../helpers/openai-server';
import { neverExpires, TestClock } from '../../helpers/clock';
import { until } from '../../helpers/process';

/** Quick retries. stallMs only names the limit in messages: stalls run on a clock the test expires (FAST_CLOCK never does). */
const FAST = { attempts: 3, baseMs: 5, stallMs: 300, maxDelayMs: 5000 };
const FAST_CLOCK = { retry: FAST, startTimeout: neverExpires };
const messages: ChatMessage[] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Read a.ts and b.ts' },
];
const tools: ToolSchema[] = [
  {
    type: 'function',
    function: {
      name: 'read',
      description: 'Read a file',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    },
  },
];

async function withServer<T>(options: OpenAIServerOptions, run: (server: OpenAIServer) => Promise<T>): Promise<T> {
  const server = await startOpenAIServer(options);
  try {
    return await run(server);
  } finally {
    await server.close();
  }
}

function call(server: OpenAIServer, extra: Partial<ChatOptions> = {}) {
  return chat({ endpoint: server.url, model: 'test-model', messages, ...FAST_CLOCK, ...extra });
}

async function failure(promise: Promise<unknown>): Promise<ModelError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ModelError) return err;
    throw err;
  }
  throw new Error('expected a ModelError, the call succeeded');
}

test('streams text to onDelta and returns the message, usage and finish reason', async () => {
  await withServer(
    { script: [reply({ text: ['Hel', 'lo, ', 'wörld'], usage: { prompt_tokens: 42, completion_tokens: 7 } })] },
    async (server) => {
      const deltas: string[] = [];
      const result = await call(server, { apiKey: 'sk-test', tools, onDelta: (t) => deltas.push(t) });
      assert.equal(deltas, ['Hel', 'lo, ', 'wörld']);
      assert.equal(result.message, { role: 'assistant', content: 'Hello, wörld' });
      assert.equal(result.usage, { promptTokens: 42, completionTokens: 7 });
      assert.is(result.finishReason, 'stop');
      const [body] = server.chatBodies();
      assert.equal(body, { model: 'test-model', messages, tools, stream: true, stream_options: { include_usage: true } });
      assert.is(server.requests[0]?.headers.authorization, 'Bearer sk-test');
    },
  );
});

test('assembles two tool calls whose arguments arrive in many deltas split across writes', async () => {
  const first = { path: 'src/a.ts', note: 'café ✓ — “quoted”' };
  const second = { path: 'src/b.ts' };
  const script = [
    reply({
      text: ['Reading ', 'both.'],
      toolCalls: [
        { id: 'call_a', name: 'read', arguments: first, pieces: 9 },
        { id: 'call_b', name: 'read', arguments: second, pieces: 5 },
      ],
      usage: { prompt_tokens: 100, completion_tokens: 30 },
      comments: true,
      // 7-byte writes cut `data:` lines, the blank lines between events and multi-byte characters.
      writeBytes: 7,
    }),
  ];
  await withServer({ script }, async (server) => {
    const deltas: string[] = [];
    const result = await call(server, { tools, onDelta: (t) => deltas.push(t) });
    assert.is(deltas.join(''), 'Reading both.');
    assert.equal(result.message.tool_calls, [
      { id: 'call_a', type: 'function', function: { name: 'read', arguments: JSON.stringify(first) } },
      { id: 'call_b', type: 'function', function: { name: 'read', arguments: JSON.stringify(second) } },
    ]);
    assert.is(result.finishReason, 'tool_calls');
    assert.equal(result.usage, { promptTokens: 100, completionTokens: 30 });
  });
});

test('reads an SSE event split mid-line across TCP writes, CRLF line ends and a keep-alive comment', async () => {
  const event = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\r\n\r\n`;
  const a = event({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'write', arguments: '{"text":"é' } }] });
  const b = event({ tool_calls: [{ index: 0, function: { arguments: '"}' } }] }, 'tool_calls');
  const bytes = Buffer.from(a);
  // The cut falls inside the two-byte 'é', in the middle of the data line.
  const cut = bytes.indexOf(Buffer.from('é')) + 1;
  const writes = [bytes.subarray(0, cut), bytes.subarray(cut), ': ping\r\n\r\n', b.slice(0, 10), b.slice(10), 'data: [DONE]\r\n\r\n'];
  await withServer({ script: [raw(writes)] }, async (server) => {
    const result = await call(server);
    assert.equal(result.message.tool_calls, [{ id: 'call_1', type: 'function', function: { name: 'write', arguments: '{"text":"é"}' } }]);
    assert.is(result.usage, null);
  });
});

test('assembles the same reply however the bytes are split', () => {
  const lines = [
    { choices: [{ index: 0, delta: { role: 'assistant', content: 'Ünï' } }] },
    { choices: [{ index: 0, delta: { content: 'code ✓' } }] },
    {
      choices: [
        {
          index: 0,
          delta: {
            tool_calls: [
              { index: 0, id: 'c0', type: 'function', function: { name: 'ls', arguments: '{"pa' } },
              { index: 1, id: 'c1', type: 'function', function: { name: 'read', arguments: '' } },
            ],
          },
        },
      ],
    },
    {
      choices: [
        {
          index: 0,
          delta: {
            tool_calls: [
              { index: 1, function: { arguments: '{"path":"ß"}' } },
              { index: 0, function: { arguments: 'th":"."}' } },
            ],
          },
        },
      ],
    },
    { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
    { choices: [], usage: { prompt_tokens: 5, completion_tokens: 6 } },
  ];
  const body = Buffer.from(`: hello\n\n${lines.map((l) => `data: ${JSON.stringify(l)}\n\n`).join('')}data: [DONE]\n\n`);
  const whole = new ChatStream();
  whole.feed(body);
  const expected = whole.finish({ endpoint: 'http://x/v1', eventStream: true });
  assert.equal(expected.message, {
    role: 'assistant',
    content: 'Ünïcode ✓',
    tool_calls: [
      { id: 'c0', type: 'function', function: { name: 'ls', arguments: '{"path":"."}' } },
      { id: 'c1', type: 'function', function: { name: 'read', arguments: '{"path":"ß"}' } },
    ],
  });
  for (let cut = 1; cut < body.length; cut++) {
    const split = new ChatStream();
    split.feed(body.subarray(0, cut));
    split.feed(body.subarray(cut));
    assert.equal(split.finish({ endpoint: 'http://x/v1', eventStream: true }), expected, `split at byte ${cut}`);
  }
});

test('tells apart calls a server numbers all 0 by their ids', () => {
  const stream = new ChatStream();
  for (const [id, args] of [
    ['a', '{"x":1}'],
    ['b', '{"x":2}'],
  ]) {
    stream.feed(
      `data: ${JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id, type: 'function', function: { name: 'ls', arguments: args } }] } }] })}\n\n`,
    );
  }
  stream.feed('data: [DONE]\n\n');
  assert.equal(
    stream.finish({ endpoint: 'http://x/v1', eventStream: true }).message.tool_calls?.map((c) => [c.id, c.function.arguments]),
    [
      ['a', '{"x":1}'],
      ['b', '{"x":2}'],
    ],
  );
});

test('waits out a 429 for its Retry-After, then succeeds', async () => {
  await withServer(
    { script: [failWith(429, { error: { message: 'slow down' } }, { retryAfter: '1' }), reply({ text: 'ok' })] },
    async (server) => {
      const retries: RetryNotice[] = [];
      const result = await call(server, { onRetry: (n) => retries.push(n) });
      assert.is(result.message.content, 'ok');
      assert.equal(
        retries.map((r) => [r.attempt, r.code, r.delayMs]),
        [[1, 'MODEL_RATE_LIMITED', 1000]],
      );
      assert.is(server.chatBodies().length, 2);
    },
  );
});

test('fails at once when a 429 asks for a longer wait than maxDelayMs', async () => {
  await withServer({ script: [failWith(429, { error: { message: 'slow down' } }, { retryAfter: '3600' })] }, async (server) => {
    const err = await failure(call(server));
    assert.is(err.code, 'MODEL_RATE_LIMITED');
    assert.match(err.message, /retry after 3600 s/);
    assert.is(server.chatBodies().length, 1);
  });
});

test('does not retry a 429 that means the account is out of quota', async () => {
  const body = { error: { message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' } };
  await withServer({ script: [failWith(429, body)] }, async (server) => {
    const err = await failure(call(server, { apiKey: 'sk-x', apiKeyEnv: 'OPENAI_API_KEY' }));
    assert.is(err.code, 'MODEL_QUOTA');
    assert.is(server.chatBodies().length, 1);
  });
});

test('retries a 500 twice, then succeeds', async () => {
  await withServer(
    { script: [failWith(500, { error: { message: 'boom' } }), failWith(503, 'upstream busy'), reply({ text: 'fine' })] },
    async (server) => {
      const retries: RetryNotice[] = [];
      const result = await call(server, { onRetry: (n) => retries.push(n) });
      assert.is(result.message.content, 'fine');
      assert.equal(
        retries.map((r) => [r.attempt, r.code]),
        [
          [1, 'MODEL_SERVER_ERROR'],
          [2, 'MODEL_SERVER_ERROR'],
        ],
      );
      assert.is(server.chatBodies().length, 3);
    },
  );
});

test('gives up on a 500 every time after the configured attempts with MODEL_SERVER_ERROR', async () => {
  const script = [1, 2, 3, 4].map(() => failWith(500, { error: { message: 'model crashed' } }));
  await withServer({ script }, async (server) => {
    const err = await failure(call(server));
    assert.is(err.code, 'MODEL_SERVER_ERROR');
    assert.match(err.message, /model crashed/);
    assert.match(err.message, /gave up after 3 attempts/);
    assert.match(err.fix!, /^curl -sS http:\/\/127\.0\.0\.1:\d+\/(v1\/)?models$/, 'what the endpoint answers, never a placeholder');
    assert.is(err.data.attempts, 3);
    assert.is(err.data.status, 500);
    assert.is(server.chatBodies().length, 3);
  });
});

test('retries a stream that stalls after some text, and the retry starts the reply afresh', async () => {
  await withServer({ script: [stall({ text: ['Part'] }), reply({ text: ['Partial ', 'then whole'] })] }, async (server) => {
    const clock = new TestClock();
    const seen: string[] = [];
    const retries: RetryNotice[] = [];
    const pending = call(server, {
      startTimeout: clock.startTimeout,
      onDelta: (t) => seen.push(t),
      onRetry: (n) => {
        retries.push(n);
        seen.push(`<retry ${n.code}>`);
      },
    });
    // The stall: the text came, then nothing; its wait is the one running.
    await until(() => seen.length === 1);
    assert.is(clock.expire(), 1);
    const result = await pending;
    assert.equal(seen, ['Part', '<retry MODEL_STALLED>', 'Partial ', 'then whole']);
    assert.match(retries[0]!.message, /sent nothing for 300 ms in the middle of its reply$/);
    assert.is(result.message.content, 'Partial then whole');
    assert.ok(
      clock.limits.every((ms) => ms === 300),
      'every wait is the policy’s stallMs',
    );
    assert.is(clock.pending, 0, 'no wait outlives the call');
  });
});

test('the stall wait starts again at the headers and at every chunk, and none outlives the call', async () => {
  await withServer({ script: [reply({ text: ['a', 'b', 'c', 'd'] })] }, async (server) => {
    const clock = new TestClock();
    const result = await call(server, { startTimeout: clock.startTimeout });
    assert.is(result.message.content, 'abcd');
    assert.ok(clock.limits.length >= 3, `the request's wait, then one from the headers and one per chunk: ${clock.limits.length}`);
    assert.is(clock.pending, 0);
  });
});

test('gives up on a stream that keeps stalling with MODEL_STALLED', async () => {
  await withServer({ script: [stall({ text: ['a'] }), stall({ beforeHeaders: true })] }, async (server) => {
    const clock = new TestClock();
    const deltas: string[] = [];
    const pending = failure(
      call(server, { retry: { ...FAST, attempts: 2 }, startTimeout: clock.startTimeout, onDelta: (t) => deltas.push(t) }),
    );
    await until(() => deltas.length === 1);
    assert.is(clock.expire(), 1);
    // The second request is in: its headers never come.
    await until(() => server.chatBodies().length === 2 && clock.pending === 1);
    clock.expire();
    const err = await pending;
    assert.is(err.code, 'MODEL_STALLED');
    assert.match(err.message, /sent nothing for 300 ms after the request \(gave up after 2 attempts\)/);
    assert.match(err.fix!, /^curl -sS http:\/\/127\.0\.0\.1:\d+\/(v1\/)?models$/, 'what the endpoint answers, never a placeholder');
    assert.is(server.chatBodies().length, 2);
  });
});

test('retries a stream cut off before it finished, and an error event inside a stream', async () => {
  const errorEvent = raw([`data: ${JSON.stringify({ error: { message: 'overloaded mid-stream' } })}\n\n`]);
  await withServer({ script: [reply({ text: ['half'], cutOff: true }), errorEvent, reply({ text: 'whole' })] }, async (server) => {
    const codes: string[] = [];
    const result = await call(server, { onRetry: (n) => codes.push(n.code) });
    assert.is(result.message.content, 'whole');
    assert.equal(codes, ['MODEL_SERVER_ERROR', 'MODEL_SERVER_ERROR']);
  });
});

test('an unreachable endpoint is MODEL_UNREACHABLE with a fix naming --endpoint', async () => {
  const endpoint = `http://127.0.0.1:${await closedPort()}/v1`;
  const retries: RetryNotice[] = [];
  const err = await failure(
    chat({ endpoint, model: 'm', messages, ...FAST_CLOCK, retry: { ...FAST, attempts: 2 }, onRetry: (n) => retries.push(n) }),
  );
  assert.is(err.code, 'MODEL_UNREACHABLE');
  assert.match(err.message, new RegExp(`cannot reach '${endpoint}': connection refused`));
  assert.match(err.fix!, /^curl -sS http:\/\/127\.0\.0\.1:\d+\/(v1\/)?models$/, 'what the endpoint answers, never a placeholder');
  assert.is(err.data.setting, 'endpoint');
  assert.is(err.exitCode, 2);
  assert.is(retries.length, 1);
});

test('a model Ollama has not pulled is MODEL_NOT_FOUND, fixed by pulling it, and not retried', async () => {
  await withServer({ script: [modelNotFound('qwen9:1b')] }, async (server) => {
    const err = await failure(chat({ endpoint: server.url, model: 'qwen9:1b', messages, ...FAST_CLOCK }));
    assert.is(err.code, 'MODEL_NOT_FOUND');
    assert.match(err.message, /model 'qwen9:1b' is not available/);
    assert.is(err.fix, 'ollama pull qwen9:1b');
    assert.is(server.chatBodies().length, 1);
  });
});

test('an unknown model elsewhere is MODEL_NOT_FOUND naming --model and a model the endpoint has', async () => {
  const body = {
    error: {
      message: 'The model `gpt-9` does not exist or you do not have access to it.',
      type: 'invalid_request_error',
      code: 'model_not_found',
    },
  };
  await withServer({ script: [failWith(404, body)], models: ['small-model', 'big-model'] }, async (server) => {
    const err = await failure(chat({ endpoint: server.url, model: 'gpt-9', messages, ...FAST_CLOCK }));
    assert.is(err.code, 'MODEL_NOT_FOUND');
    assert.is(err.fix, 'forge agent --model small-model');
    assert.is(err.data.setting, 'model');
  });
});

test("a hostile endpoint's model name is one quoted word in the fix, never a second command", async () => {
  const body = { error: { message: 'The model `gpt-9` does not exist', code: 'model_not_found' } };
  await withServer({ script: [failWith(404, body)], models: ['gpt-9', 'x; touch pwned #'] }, async (server) => {
    const err = await failure(chat({ endpoint: server.url, model: 'gpt-9', messages, ...FAST_CLOCK }));
    assert.is(err.code, 'MODEL_NOT_FOUND');
    assert.is(err.fix, "forge agent --model 'x; touch pwned #'");
  });
  await withServer({ script: [modelNotFound('qwen$(id):1b')] }, async (server) => {
    const err = await failure(chat({ endpoint: server.url, model: 'qwen$(id):1b', messages, ...FAST_CLOCK }));
    assert.is(err.fix, "ollama pull 'qwen$(id):1b'");
  });
});

test('a base URL without the API path is MODEL_BAD_ENDPOINT, not a missing model', async () => {
  await withServer({}, async (server) => {
    const err = await failure(chat({ endpoint: server.url.replace(/\/v1$/, ''), model: 'm', messages, ...FAST_CLOCK }));
    assert.is(err.code, 'MODEL_BAD_ENDPOINT');
    assert.match(err.message, /does not exist \(404\); is '.*' the API base \(usually ending in \/v1\)\?/);
    assert.match(err.fix!, /^curl -sS http:\/\/127\.0\.0\.1:\d+\/(v1\/)?models$/, 'what the endpoint answers, never a placeholder');
  });
});

test('a 401 is MODEL_AUTH naming the key variable, and is not retried', async () => {
  await withServer({ script: [failWith(401, { error: { message: 'Incorrect API key provided' } })] }, async (server) => {
    const err = await failure(call(server, { apiKey: 'sk-wrong', apiKeyEnv: 'OPENROUTER_API_KEY' }));
    assert.is(err.code, 'MODEL_AUTH');
    assert.match(err.message, /refused the API key \(401\): Incorrect API key provided/);
    assert.match(err.fix!, /^curl -sS -H "Authorization: Bearer \$OPENROUTER_API_KEY" http:\/\/127\.0\.0\.1:\d+\/v1\/models$/);
    assert.is(server.chatBodies().length, 1);
  });
});

test('other 4xx fail at once; a too-long conversation has its own code', async () => {
  const script = [
    failWith(400, { error: { message: "This model's maximum context length is 8192 tokens", code: 'context_length_exceeded' } }),
    failWith(400, { error: { message: 'registry.ollama.ai/library/gemma does not support tools' } }),
  ];
  await withServer({ script }, async (server) => {
    assert.is((await failure(call(server))).code, 'MODEL_CONTEXT_EXCEEDED');
    const err = await failure(call(server));
    assert.is(err.code, 'MODEL_REQUEST_REJECTED');
    assert.match(err.message, /does not support tools/);
    assert.is(server.chatBodies().length, 2);
  });
});

test('takes a whole JSON completion from a server that ignores stream: true', async () => {
  const completion = {
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: 'once',
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'ls', arguments: '{}' } }],
        },
        finish_reason: 'tool_calls',
      },
    ],
    usage: { prompt_tokens: 3, completion_tokens: 4 },
  };
  await withServer({ script: [raw([JSON.stringify(completion)], { contentType: 'application/json' })] }, async (server) => {
    const deltas: string[] = [];
    const result = await call(server, { onDelta: (t) => deltas.push(t) });
    assert.equal(deltas, ['once']);
    assert.equal(result.message.tool_calls, completion.choices[0]!.message.tool_calls);
    assert.equal(result.usage, { promptTokens: 3, completionTokens: 4 });
  });
});

test('stops at once when the caller aborts, without retrying', async () => {
  await withServer({ script: [stall({ text: ['x'] }), reply({ text: 'never' })] }, async (server) => {
    const controller = new AbortController();
    const reason = new Error('user pressed ctrl-c');
    const pending = call(server, { signal: controller.signal, onDelta: () => controller.abort(reason) });
    try {
      await pending;
      assert.unreachable();
    } catch (err) {
      assert.is(err, reason);
    }
    assert.is(server.chatBodies().length, 1);
  });
});

test('lists models, and reports an endpoint that does not answer in time', async () => {
  await withServer({ models: ['a', 'b'] }, async (server) => {
    const clock = new TestClock();
    assert.equal(await listModels({ endpoint: `${server.url}/`, startTimeout: clock.startTimeout }), ['a', 'b']);
    assert.equal([clock.limits, clock.pending], [[5000], 0], 'the default limit, cancelled once answered');
  });
  await withServer({ models: stall({ beforeHeaders: true }) }, async (server) => {
    const clock = new TestClock();
    const pending = failure(listModels({ endpoint: server.url, timeoutMs: 200, startTimeout: clock.startTimeout }));
    await until(() => server.requests.length === 1);
    assert.is(clock.expire(), 1);
    const err = await pending;
    assert.is(err.code, 'MODEL_UNREACHABLE');
    assert.match(err.message, /did not answer within 200 ms/);
  });
  await withServer({ models: failWith(401, { error: 'no key' }) }, async (server) => {
    assert.is((await failure(listModels({ endpoint: server.url, startTimeout: neverExpires }))).code, 'MODEL_AUTH');
  });
  const err = await failure(listModels({ endpoint: `http://127.0.0.1:${await closedPort()}/v1`, startTimeout: neverExpires }));
  assert.is(err.code, 'MODEL_UNREACHABLE');
  assert.match(err.message, /connection refused/, 'refused, not timed out');
});

test('refuses an endpoint that is not an http(s) URL before sending anything', async () => {
  const err = await failure(chat({ endpoint: 'localhost:11434', model: 'm', messages }));
  assert.is(err.code, 'MODEL_BAD_ENDPOINT');
  assert.is(err.fix, 'forge agent --endpoint http://localhost:11434', 'the same address with its scheme');
});

test.run();
