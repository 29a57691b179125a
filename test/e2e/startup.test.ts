// The executable's code cache: used when it is this bundle's and intact, never when it is stale, corrupt, foreign or somewhere unsafe — and the output is the same either way.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  cpSync,
  openSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { checksum, MAX_CACHES } from '../../bin/code-cache';
import { forgeArgsOf } from '../../lib/plans/forge-effects';
import { shellSplit } from '../../lib/quote';
import { FORGE, forgeEnv } from '../helpers/forge';
import { opening } from '../helpers/mcp';
import { tempDir, tempRepo } from '../helpers/repo';

const repo = tempRepo();
writeFileSync(join(repo, 'a.txt'), 'one\ntwo\n');

/**
 * The environment of a user's run: no coverage, so the cache is in play. Empty, not unset: Node
 * copies its own NODE_V8_COVERAGE (c8's) into a child's environment that lacks one.
 */
const userEnv = (cacheHome: string) => forgeEnv({ XDG_CACHE_HOME: cacheHome, NODE_V8_COVERAGE: '' });

/** `forge read a.txt` with this cache home, as a user runs it. */
function read(cacheHome: string, forgeJs = FORGE) {
  const env = userEnv(cacheHome);
  const r = spawnSync(process.execPath, [forgeJs, 'read', 'a.txt'], { cwd: repo, env, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The cache files under a cache home, with their contents. */
function caches(cacheHome: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const root = join(cacheHome, 'forge', 'code-cache');
  if (!existsSync(root)) return out;
  for (const version of readdirSync(root))
    for (const name of readdirSync(join(root, version))) out.set(join(root, version, name), readFileSync(join(root, version, name)));
  return out;
}

const expected = { code: 0, stdout: 'a.txt: lines 1–2 of 2\n1#a3c8: one\n2#360d: two\nDone.\n', stderr: '' };

test('the first run writes the cache, the next ones use it as it is, and print the same', () => {
  const home = tempDir();
  assert.equal(read(home), expected);
  const written = caches(home);
  assert.is(written.size, 1);
  const [path, bytes] = [...written][0]!;
  const mtime = statSync(path).mtimeMs;
  assert.equal(read(home), expected);
  assert.equal(read(home), expected);
  // Used, not rewritten: V8 took it.
  assert.is(statSync(path).mtimeMs, mtime);
  assert.ok(readFileSync(path).equals(bytes));
  assert.is(statSync(path).mode & 0o777, 0o600);
  assert.is(statSync(join(path, '..')).mode & 0o777, 0o700);
});

test('a corrupt, truncated, empty or foreign cache is not used: the same output, and a good cache replaces it', () => {
  const home = tempDir();
  read(home);
  const [path, good] = [...caches(home)][0]!;
  const data = good.subarray(8);
  // V8's own header of the data with one bit changed, re-checksummed: what another Node version's cache looks like to it.
  const foreign = Buffer.from(data);
  foreign[5]! ^= 1;
  const rehashed = Buffer.concat([good.subarray(0, 4), Buffer.alloc(4), foreign]);
  rehashed.writeUInt32LE(checksum(foreign), 4);
  const flipped = Buffer.from(good);
  flipped[Math.floor(good.length / 2)]! ^= 0x40;
  const cases = {
    flipped,
    truncated: good.subarray(0, good.length - 100),
    empty: Buffer.alloc(0),
    garbage: Buffer.from('not a cache at all'),
    foreign: rehashed,
  };
  for (const [name, bytes] of Object.entries(cases)) {
    writeFileSync(path, bytes);
    assert.equal(read(home), expected, name);
    assert.ok(readFileSync(path).subarray(8).length > 1000 && !readFileSync(path).equals(bytes), `${name}: rewritten`);
    assert.equal(read(home), expected, `${name}: then used`);
  }
});

test('a rebuilt bundle gets a cache of its own and the stale one goes', () => {
  const home = tempDir();
  const install = join(tempDir(), 'dist');
  cpSync(join(FORGE, '..'), install, { recursive: true });
  const forgeJs = join(install, 'forge.js');
  assert.equal(read(home, forgeJs), expected);
  const [first] = [...caches(home).keys()];
  // Same size, new modification time: what a rebuild in place looks like.
  const bundle = join(install, 'commands', 'read.js');
  utimesSync(bundle, new Date(), new Date(Date.now() + 5000));
  assert.equal(read(home, forgeJs), expected);
  const after = [...caches(home).keys()];
  assert.is(after.length, 1);
  assert.is.not(after[0], first);
});

test('a cache directory keeps at most MAX_CACHES caches: a write drops the oldest written, and nothing that is not a cache', () => {
  const home = tempDir();
  assert.equal(read(home), expected);
  const [first] = [...caches(home).keys()];
  const dir = dirname(first!);
  // Other installs' caches, written long ago, oldest first; and a file that is no cache.
  for (let i = 0; i < MAX_CACHES + 20; i++) {
    const file = join(dir, `other-${String(i).padStart(3, '0')}-1-2-3-4.v8`);
    writeFileSync(file, 'x');
    utimesSync(file, 1_000_000 + i, 1_000_000 + i);
  }
  writeFileSync(join(dir, 'notes.txt'), 'kept');
  rmSync(first!); // the next read writes its cache again
  assert.equal(read(home), expected);
  const left = readdirSync(dir);
  assert.is(left.filter((f) => f.endsWith('.v8')).length, MAX_CACHES);
  assert.ok(left.includes(basename(first!)), "the read's own cache, just written");
  assert.ok(left.includes('notes.txt'));
  assert.not.ok(left.includes('other-000-1-2-3-4.v8'), 'the oldest went');
  assert.ok(left.includes(`other-${String(MAX_CACHES + 19).padStart(3, '0')}-1-2-3-4.v8`), 'the newest stayed');
});

test('a read-only install, and a cache home that is unusable or unsafe, leave output alone and write nothing there', () => {
  const install = join(tempDir(), 'dist');
  cpSync(join(FORGE, '..'), install, { recursive: true });
  const listing = () => readdirSync(install, { recursive: true }).map(String).sort();
  const before = listing();
  chmodSync(join(install, 'commands'), 0o555);
  const home = tempDir();
  assert.equal(read(home, join(install, 'forge.js')), expected);
  assert.equal(read(home, join(install, 'forge.js')), expected);
  chmodSync(join(install, 'commands'), 0o755);
  assert.equal(listing(), before, 'nothing written beside the bundles');

  // A file where the directory goes; a relative path; a directory others may write to; a symlink to one.
  const file = join(tempDir(), 'file');
  writeFileSync(file, '');
  const shared = tempDir();
  mkdirSync(join(shared, 'forge', 'code-cache'), { recursive: true });
  const byVersion = join(shared, 'forge', 'code-cache', `node-${process.version}-${process.arch}`);
  mkdirSync(byVersion);
  chmodSync(byVersion, 0o777);
  const linked = tempDir();
  mkdirSync(join(linked, 'forge', 'code-cache'), { recursive: true });
  symlinkSync(tempDir(), join(linked, 'forge', 'code-cache', `node-${process.version}-${process.arch}`));
  for (const home of [file, 'relative/cache', shared, linked]) {
    assert.equal(read(home), expected, home);
    assert.equal(read(home), expected, home);
  }
  assert.equal(readdirSync(byVersion), [], 'nothing written where others may write');
  assert.equal(
    readdirSync(join(linked, 'forge', 'code-cache', `node-${process.version}-${process.arch}`)),
    [],
    'nothing written through a symlink',
  );
});

/** A file for node -r that reports on stderr, at exit, whether the stream module was loaded: which reader and writer the executable took. */
function streamProbe(): string {
  const probe = join(tempDir(), 'probe.cjs');
  writeFileSync(
    probe,
    "process.on('exit', () => require('node:fs').writeSync(2, `stream:${process.moduleLoadList.includes('NativeModule stream')}\\n`));\n",
  );
  return probe;
}

test('stdout to /dev/null, a pipe or a file is written with write(2), without loading the stream modules', () => {
  const home = tempDir();
  const probe = streamProbe();
  const run = (stdout: number | 'pipe') =>
    spawnSync(process.execPath, ['-r', probe, FORGE, 'read', 'a.txt'], {
      cwd: repo,
      env: userEnv(home),
      encoding: 'utf8',
      stdio: ['ignore', stdout, 'pipe'],
    });
  const devNull = openSync('/dev/null', 'w');
  const file = join(tempDir(), 'out.txt');
  const fileFd = openSync(file, 'w');
  try {
    for (const [name, r] of [
      ['/dev/null', run(devNull)],
      ['pipe', run('pipe')],
      ['file', run(fileFd)],
    ] as const) {
      assert.is(r.status, 0, name);
      assert.is(r.stderr, 'stream:false\n', name);
    }
  } finally {
    closeSync(devNull);
    closeSync(fileFd);
  }
  assert.is(readFileSync(file, 'utf8'), expected.stdout);
});

test('stdin from a pipe, a socket or a file is read with read(2), without loading the stream modules: the same requests', () => {
  const home = tempDir();
  const probe = streamProbe();
  const input = join(tempDir(), 'in.txt');
  writeFileSync(input, 'from stdin\n');
  const forgeCmd = `'${process.execPath}' -r '${probe}' '${FORGE}'`;
  const inputFd = openSync(input, 'r');
  try {
    for (const [name, r] of [
      // A shell's pipe (a FIFO); Node's spawnSync input (a socket); a redirected file.
      ['pipe', spawnSync('sh', ['-c', `cat '${input}' | ${forgeCmd} write pipe.txt`], { cwd: repo, env: userEnv(home), encoding: 'utf8' })],
      [
        'socket',
        spawnSync(process.execPath, ['-r', probe, FORGE, 'write', 'socket.txt'], {
          cwd: repo,
          env: userEnv(home),
          encoding: 'utf8',
          input: 'from stdin\n',
        }),
      ],
      [
        'file',
        spawnSync(process.execPath, ['-r', probe, FORGE, 'write', 'file.txt'], {
          cwd: repo,
          env: userEnv(home),
          encoding: 'utf8',
          stdio: [inputFd, 'pipe', 'pipe'],
        }),
      ],
      [
        'NDJSON',
        spawnSync(process.execPath, ['-r', probe, FORGE, 'write'], {
          cwd: repo,
          env: userEnv(home),
          encoding: 'utf8',
          input: '{"path":"ndjson.txt","content":"from stdin\\n"}\n',
        }),
      ],
    ] as const) {
      assert.is(r.status, 0, `${name}: ${r.stderr}`);
      assert.is(r.stderr, 'stream:false\n', name);
      assert.is(readFileSync(join(repo, `${name === 'NDJSON' ? 'ndjson' : name}.txt`), 'utf8'), 'from stdin\n', name);
    }
  } finally {
    closeSync(inputFd);
  }
});

test("each bundle's import.meta.url is pathToFileURL's, for plain paths and for those it encodes", () => {
  const banner = readFileSync(join(FORGE, '..', 'commands', 'read.js'), 'utf8').split('\n')[0]!;
  assert.match(banner, /^var __forgeImportMetaUrl = /);
  const urlOf = new Function('__filename', 'require', `${banner}\nreturn __forgeImportMetaUrl;`);
  for (const path of [
    '/usr/lib/node_modules/forge-cli/dist/commands/read.js',
    '/home/a b/forge/dist/x.js',
    '/tmp/100%/#?/x.js',
    '/opt/é/x.js',
    '/a/b\\c/x.js',
    '/a/[x]/x.js',
  ]) {
    assert.is(urlOf(path, createRequire(import.meta.url)), pathToFileURL(path).href, path);
  }
});

test('forge mcp loads the code of each command it is asked to run, once, caching each; stderr stays quiet', async () => {
  const home = tempDir();
  const tools = [
    'read',
    'search',
    'ls',
    'plan_status',
    'plan_journal',
    'memory_recall',
    'logs',
    'stats',
    'iter_get',
    'session_list',
    'state_log',
    'loop_status',
  ];
  const session = (calls: string[]) => {
    const lines = [
      ...opening(0),
      ...calls.map((name, i) => ({
        jsonrpc: '2.0',
        id: i + 1,
        method: 'tools/call',
        params: {
          name,
          arguments:
            name === 'read' ? { path: 'a.txt' } : name === 'search' ? { pattern: 'one' } : name === 'iter_get' ? { module: 'm1' } : {},
        },
      })),
    ];
    const env = userEnv(home);
    return spawnSync(process.execPath, [FORGE, 'mcp', '--toolsets', 'all'], {
      cwd: repo,
      env,
      encoding: 'utf8',
      input: lines.map((l) => `${JSON.stringify(l)}\n`).join(''),
    });
  };
  const first = session([...tools, 'read']);
  const answers = first.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  assert.equal(
    answers.map((a) => a.id).sort((x, y) => x - y),
    [0, ...tools.map((_, i) => i + 1), tools.length + 1],
  );
  assert.ok(
    answers.every((a) => a.result),
    'every call answered',
  );
  assert.not.match(first.stderr, /Warning|Error/);
  // The server's bundle and those of the twelve commands and of the forge commands their hints name
  // (a hint is read by its command's declaration, for _next_call), each cached once.
  const hinted = answers.flatMap((a) =>
    String(a.result.content?.[0].text ?? '')
      .split('\n')
      .filter(Boolean)
      .flatMap((l) => {
        const next = JSON.parse(l)._next_action;
        const words = typeof next === 'string' ? (shellSplit(next) ?? []) : [];
        const command = words[0] === 'forge' ? forgeArgsOf(words.slice(1)).command : null;
        return command ? [command.replace(/[ -]/g, '_')] : [];
      }),
  );
  assert.is(caches(home).size, new Set([...tools, ...hinted]).size + 2);
  const second = session(tools);
  // Calls run concurrently: compared by id, without the times in them.
  const texts = (out: string) =>
    Object.fromEntries(
      out
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
        .filter((a) => a.id > 0 && a.id <= tools.length)
        .map((a) => [a.id, a.result.content[0].text.replace(/"(updatedAt|timestamp|time)":"[^"]*"/g, '')]),
    );
  assert.equal(texts(second.stdout), texts(first.stdout));
  assert.not.match(second.stderr, /Warning|Error/);
});

test.run();
