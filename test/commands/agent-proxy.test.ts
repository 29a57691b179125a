// forge agent behind a proxy: a real CONNECT proxy on loopback, reached as the environment names it (HTTPS_PROXY, http_proxy, NO_PROXY), to a model endpoint over HTTPS and HTTP.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect, type Socket } from 'node:net';
import { join, resolve } from 'node:path';
import * as assert from 'uvu/assert';
import { forge } from '../helpers/forge';
import { test } from '../helpers/harness';
import { reply, startOpenAIServer, closedPort } from '../helpers/openai-server';
import { ownServer } from '../helpers/owner';
import { repoWith } from '../helpers/repo';

const TLS = resolve('test/fixtures/tls');
const tls = { key: readFileSync(join(TLS, 'key.pem')), cert: readFileSync(join(TLS, 'cert.pem')) };

/** A forward proxy as corporate networks run them: CONNECT tunnels only, each target it was asked for recorded. */
async function startProxy(): Promise<{ url: string; tunnels: string[] }> {
  const tunnels: string[] = [];
  const sockets = new Set<Socket>();
  const server = ownServer(createServer((_req, res) => res.writeHead(405).end('CONNECT only')));
  server.on('connect', (req, client: Socket, head: Buffer) => {
    tunnels.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host!, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => s.destroy());
      s.on('close', () => sockets.delete(s));
    }
  });
  server.on('close', () => {
    for (const s of sockets) s.destroy();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, tunnels };
}

/** forge agent asked to say hi, against `endpoint`, with `env` as its proxy settings. */
const askHi = (dir: string, endpoint: string, env: Record<string, string>) =>
  forge(['agent', '--endpoint', endpoint, '--model', 'test-model', '--json', 'say hi'], {
    cwd: dir,
    env: { NODE_EXTRA_CA_CERTS: join(TLS, 'cert.pem'), ...env },
  });

test('an HTTPS model endpoint is reached through the proxy HTTPS_PROXY names, and directly when NO_PROXY lists its host', async () => {
  const proxy = await startProxy();
  const server = await startOpenAIServer({ tls, script: [reply({ text: 'hi' }), reply({ text: 'hi' })] });
  try {
    const dir = repoWith({ 'a.txt': 'a\n' });
    const port = new URL(server.url).port;
    const through = await askHi(dir, server.url, { HTTPS_PROXY: proxy.url });
    assert.is(through.code, 0, through.stderr);
    assert.ok(proxy.tunnels.includes(`127.0.0.1:${port}`), `the proxy carried it: ${proxy.tunnels.join(', ')}`);
    const before = proxy.tunnels.length;
    const direct = await askHi(dir, server.url, { HTTPS_PROXY: proxy.url, NO_PROXY: '127.0.0.1' });
    assert.is(direct.code, 0, direct.stderr);
    assert.is(proxy.tunnels.length, before, 'NO_PROXY: not through the proxy');
  } finally {
    await server.close();
  }
});

test('an HTTP endpoint goes through the lower-case http_proxy; an unreachable proxy is named in the error', async () => {
  const proxy = await startProxy();
  const server = await startOpenAIServer({ script: [reply({ text: 'hi' })] });
  try {
    const dir = repoWith({ 'a.txt': 'a\n' });
    const r = await askHi(dir, server.url, { http_proxy: proxy.url });
    assert.is(r.code, 0, r.stderr);
    assert.ok(proxy.tunnels.includes(`127.0.0.1:${new URL(server.url).port}`), proxy.tunnels.join(', '));
    const dead = `http://127.0.0.1:${await closedPort()}`;
    const refused = await askHi(dir, server.url, { http_proxy: dead });
    assert.is(refused.code, 2, refused.stderr);
    assert.equal(refused.records.at(-1)!.error.code, 'MODEL_UNREACHABLE');
    assert.match(refused.records.at(-1)!.error.message, new RegExp(`through the proxy ${dead}`));
  } finally {
    await server.close();
  }
});

test('the Fix of an unreachable endpoint with a query string asks its /models, the query after the path', async () => {
  const base = `http://127.0.0.1:${await closedPort()}/v1`;
  const r = await forge(['agent', '--endpoint', `${base}?api-version=2024-10-21`, '--model', 'm', '--json', 'say hi'], {
    cwd: repoWith({ 'a.txt': 'a\n' }),
  });
  assert.is(r.records.at(-1)!._next_action, `curl -sS '${base}/models?api-version=2024-10-21'`);
});

test.run();
