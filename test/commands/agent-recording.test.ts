// What forge agent records on refs/forge/state: endpoints without credentials, secrets redacted, and recording that the user can turn off.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { forge } from '../helpers/forge';
import { reply, startOpenAIServer } from '../helpers/openai-server';
import { git, storeLines, tempDir, tempRepo } from '../helpers/repo';

// Distinctive stand-ins, so a grep finds them if any part of them was stored.
const PASSWORD = 's3cretPw41';
const QUERY_KEY = 'QK7Z9XQK7Z9X';
const TASK_KEY = 'sk-proj-Tq8vN2xLk4Hc9WmZr7Yb3Jd6Fg1Ps5Ua';
const ANSWER_KEY = 'sk-ant-api03-Zx9Wv8Ut7Sr6Qp5On4Ml3Kj2Ih1Gf0Ed';
const LESSON_TOKEN = 'ghp_R4nD0mT0k3nV4lu3F0rT3st1ngAbCdEfGh12';
const AWS_KEY = 'AKIAQ7Z9XQ7Z9XQ7Z9XA';

/** Everything on the state ref a clone would get: every commit's message and patch. */
function stateHistory(dir: string): string {
  return git(dir, 'log', '-p', '--format=%H%n%B', 'refs/forge/state');
}

test('an endpoint with user, password and ?api-key, keys in the task, the answer and a saved lesson: none of them reaches refs/forge/state', async () => {
  const dir = tempRepo();
  const server = await startOpenAIServer({
    script: [
      reply({ toolCalls: [{ name: 'memory', arguments: { pattern: `deploy with GITHUB_TOKEN=${LESSON_TOKEN} and ${AWS_KEY}` } }] }),
      reply({ text: `Saved. Your key ${ANSWER_KEY} works; send it as Authorization: Bearer ${ANSWER_KEY}.` }),
    ],
  });
  try {
    const endpoint = server.url.replace('http://', `http://forgeuser:${PASSWORD}@`) + `?api-key=${QUERY_KEY}`;
    const task = `remember how we deploy; my key is ${TASK_KEY} and OPENAI_API_KEY=${TASK_KEY}`;
    const r = await forge(['agent', '--endpoint', endpoint, '--model', 'test-model', '--run-id', 'sec1', task], { cwd: dir });
    assert.is(r.code, 0, r.stderr);
    assert.ok(
      server.requests.some((q) => q.path === `/v1/chat/completions?api-key=${QUERY_KEY}`),
      'the endpoint was used as given, query included',
    );
    assert.match(
      r.stdout,
      new RegExp(`using endpoint ${server.url.replace(/[.]/g, '\\.')} \\(from --endpoint\\)`),
      'the output shows the endpoint without credentials',
    );
    assert.not.match(r.stdout, new RegExp(`${PASSWORD}|${QUERY_KEY}`));
    assert.match(
      r.stdout,
      /\nrecording telemetry \(\.forge\/telemetry\/\) and the session \(\.forge\/agent\/sessions\/\) on refs\/forge\/state, secrets redacted; FORGE_NO_TELEMETRY=1, FORGE_NO_SESSIONS=1 \(or telemetry_disabled, sessions_disabled in a profile\) turn them off\n/,
    );
    await forge(['state', 'log'], { cwd: dir }); // commits the pending tool_call events too

    const history = stateHistory(dir);
    for (const secret of [PASSWORD, 'forgeuser', QUERY_KEY, TASK_KEY, ANSWER_KEY, LESSON_TOKEN, AWS_KEY]) {
      assert.not.ok(history.includes(secret), `${secret} is on refs/forge/state`);
      assert.throws(() => git(dir, 'grep', '-F', secret, 'refs/forge/state'), undefined, `git grep finds ${secret}`);
    }
    const telemetry = JSON.parse(storeLines(dir, '.forge/telemetry').join('\n'));
    assert.is(telemetry.endpoint, server.url);
    assert.is(telemetry.task, 'remember how we deploy; my key is [REDACTED:openai-key] and OPENAI_API_KEY=[REDACTED:openai-key]');
    const [sessionFile] = git(dir, 'ls-tree', '--name-only', 'refs/forge/state:.forge/agent/sessions').split('\n');
    const session = JSON.parse(git(dir, 'show', `refs/forge/state:.forge/agent/sessions/${sessionFile}`));
    assert.is(session.turns[0].task, telemetry.task);
    assert.is(
      session.turns[0].answer,
      'Saved. Your key [REDACTED:anthropic-key] works; send it as Authorization: Bearer [REDACTED:anthropic-key].',
    );
    const lesson = JSON.parse(storeLines(dir, '.forge/memory/project').join('\n'));
    assert.is(lesson.pattern, 'deploy with GITHUB_TOKEN=[REDACTED:github-token] and [REDACTED:aws-access-key]');
    assert.ok(storeLines(dir, '.forge/logs/sec1').join('\n').includes('"event":"memory save"'), 'the run log is there');
    // The state stays what its readers expect: forge stats and --continue read it back.
    assert.is((await forge(['stats', '--json'], { cwd: dir })).records.find((x) => x.type === 'model')!.tasks, 1);
  } finally {
    await server.close();
  }
});

test('recording can be turned off: FORGE_NO_TELEMETRY, DO_NOT_TRACK, FORGE_NO_SESSIONS and the profile keys', async () => {
  const server = await startOpenAIServer({ script: Array.from({ length: 5 }, () => reply({ text: 'ok' })) });
  const model = ['--endpoint', server.url, '--model', 'test-model'];
  const recorded = (dir: string) => {
    const files = git(dir, 'ls-tree', '-r', '--name-only', 'refs/forge/state').split('\n');
    return {
      telemetry: files.some((f) => f.startsWith('.forge/telemetry/')),
      sessions: files.some((f) => f.startsWith('.forge/agent/sessions/')),
    };
  };
  try {
    const cases: Array<{ env: Record<string, string>; expect: { telemetry: boolean; sessions: boolean }; says: RegExp }> = [
      {
        env: { FORGE_NO_TELEMETRY: '1' },
        expect: { telemetry: false, sessions: true },
        says: /^recording the session \(\.forge\/agent\/sessions\/\) on refs\/forge\/state, secrets redacted; not telemetry \(off from \$FORGE_NO_TELEMETRY\); FORGE_NO_SESSIONS=1 \(or sessions_disabled in a profile\) turns it off$/m,
      },
      { env: { DO_NOT_TRACK: '1' }, expect: { telemetry: false, sessions: true }, says: /not telemetry \(off from \$DO_NOT_TRACK\)/ },
      {
        env: { FORGE_NO_SESSIONS: '1' },
        expect: { telemetry: true, sessions: false },
        says: /^recording telemetry \(\.forge\/telemetry\/\) on refs\/forge\/state, secrets redacted; not the session \(off from \$FORGE_NO_SESSIONS\); FORGE_NO_TELEMETRY=1 \(or telemetry_disabled in a profile\) turns it off$/m,
      },
      {
        env: { DO_NOT_TRACK: '0', FORGE_NO_TELEMETRY: '' },
        expect: { telemetry: true, sessions: true },
        says: /^recording telemetry .* and the session /m,
      },
    ];
    for (const c of cases) {
      const dir = tempRepo();
      const r = await forge(['agent', ...model, 'say ok'], { cwd: dir, env: c.env });
      assert.is(r.code, 0, r.stderr);
      assert.match(r.stdout, c.says, JSON.stringify(c.env));
      assert.equal(recorded(dir), c.expect, JSON.stringify(c.env));
      if (!c.expect.sessions) assert.not.match(r.stdout, /session ag-|--continue/, 'no session is offered to continue');
    }

    const config = tempDir('forge-config-');
    mkdirSync(join(config, 'forge'));
    writeFileSync(
      join(config, 'forge', 'config.json'),
      JSON.stringify({
        profiles: { quiet: { endpoint: server.url, model: 'test-model', telemetry_disabled: true, sessions_disabled: true } },
      }),
    );
    const dir = tempRepo();
    const r = await forge(['agent', 'say ok'], { cwd: dir, env: { XDG_CONFIG_HOME: config } });
    assert.is(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^not recording telemetry \(off from profiles\.quiet\.telemetry_disabled in .*\) or the session \(off from profiles\.quiet\.sessions_disabled in .*\)$/m,
    );
    assert.throws(() => git(dir, 'rev-parse', '--verify', '-q', 'refs/forge/state'), undefined, 'nothing was recorded at all');

    writeFileSync(
      join(config, 'forge', 'config.json'),
      JSON.stringify({ profiles: { quiet: { endpoint: server.url, model: 'test-model', telemetry_disabled: 'yes' } } }),
    );
    const bad = await forge(['agent', 'say ok'], { cwd: dir, env: { XDG_CONFIG_HOME: config } });
    assert.is(bad.code, 2);
    assert.match(
      bad.stderr,
      /profiles\.quiet\.telemetry_disabled must be true \(forge agent records nothing in \.forge\/telemetry\/\) or false/,
    );
  } finally {
    await server.close();
  }
});

test.run();
