// Reads git objects through one `git cat-file --batch` process (or from loose objects directly) and writes loose objects atomically.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ForgeError } from '../errors';
import { exists } from '../fs/stat';
import { randomHex } from '../random';
import { sha1Hex } from '../sha1';
import { gitEnv } from './exec';
import { parsePackedRefs } from './packed-refs';
import { locateDirectly } from './repo';
import { deflateStored, inflate } from './zlib';

export type ObjectType = 'blob' | 'tree' | 'commit' | 'tag';

export interface GitObject {
  oid: string;
  type: ObjectType;
  content: Buffer;
}

export interface TreeEntry {
  mode: string;
  name: string;
  oid: string;
}

interface Pending {
  resolve(obj: GitObject | null): void;
  reject(err: Error): void;
}

/**
 * A long-lived `git cat-file --batch`: many reads (by oid or `rev:path`) for the cost of one
 * process. git resolves packs, alternates and refs, so forge never parses a packfile itself.
 */
export class ObjectReader {
  private child: ChildProcessWithoutNullStreams | null = null;
  /** Unparsed output, kept as chunks: joining on every chunk would copy a big blob O(n²) times. */
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** Bytes the head of the queue still needs before it can be parsed (0: unknown yet). */
  private needed = 0;
  private queue: Pending[] = [];
  private failure: Error | null = null;
  /** Reads without git where the objects are loose in a plain repository (null: never). */
  private direct: LooseReader | null | undefined;

  constructor(private readonly cwd: string) {}

  private async start(): Promise<ChildProcessWithoutNullStreams> {
    if (this.child) return this.child;
    const { spawn } = await import('node:child_process');
    if (this.child) return this.child;
    const child = spawn('git', ['cat-file', '--batch'], { cwd: this.cwd, env: gitEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
      if (this.buffered >= this.needed) this.drain();
    });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const fail = (err: Error) => {
      this.failure = err;
      for (const p of this.queue.splice(0)) p.reject(err);
    };
    // A repository git cannot read (a packed-refs it dies on) is GIT_FAILED, with git's words: not a crash of forge's.
    child.on('error', (err) => fail(new ForgeError('GIT_FAILED', `cannot run git cat-file: ${err.message}`, { fix: 'git --version' })));
    child.on('close', (code) => {
      if (this.queue.length) fail(new ForgeError('GIT_FAILED', `git cat-file exited (${code}): ${stderr.trim()}`, { fix: 'git fsck' }));
      this.child = null;
    });
    child.stdin.on('error', () => {}); // reported through 'close'
    this.child = child;
    return child;
  }

  private drain(): void {
    let buffer = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    this.needed = 0;
    while (this.queue.length) {
      const nl = buffer.indexOf(10);
      if (nl < 0) break;
      const header = buffer.subarray(0, nl).toString('utf8');
      if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
        buffer = buffer.subarray(nl + 1);
        this.queue.shift()!.resolve(null);
        continue;
      }
      const [oid, type, sizeText] = header.split(' ');
      const end = nl + 1 + Number(sizeText) + 1;
      if (buffer.length < end) {
        this.needed = end;
        break;
      }
      const content = Buffer.from(buffer.subarray(nl + 1, end - 1));
      buffer = buffer.subarray(end);
      this.queue.shift()!.resolve({ oid: oid!, type: type as ObjectType, content });
    }
    this.chunks = buffer.length ? [buffer] : [];
    this.buffered = buffer.length;
  }

  /** Reads an object by oid or revision expression (`refs/forge/state:.forge/x`); null when missing. */
  async read(spec: string): Promise<GitObject | null> {
    if (this.failure) throw this.failure;
    if (spec.includes('\n')) return null;
    this.direct ??= LooseReader.open(this.cwd);
    const direct = this.direct?.read(spec);
    if (direct !== undefined) return direct;
    const child = await this.start();
    return new Promise((resolve, reject) => {
      this.queue.push({ resolve, reject });
      child.stdin.write(`${spec}\n`);
    });
  }

  close(): void {
    this.child?.stdin.end();
    this.child = null;
  }
}

/** Commits and trees a reader keeps (forge mcp reads for as long as it runs). */
const KEPT_MAX = 1024;

/** Refs git keeps per worktree, not in the common dir. */
const PER_WORKTREE_REFS = /^refs\/(bisect|worktree|rewritten)\//;

/**
 * Answers what `git cat-file --batch` would for the specs forge reads — a full oid, a full ref name
 * under refs/, either followed by `:<path>` — from loose objects and loose or packed refs, without a
 * git process. It serves only a plain repository (repo.ts locateDirectly: no reftable, includes,
 * moved dirs or GIT_* environment) with no replace refs; read returns undefined — git reads — for
 * any other spec, an object not loose (packed, in an alternate) or one it cannot inflate.
 */
class LooseReader {
  private readonly kept = new Map<string, GitObject>();
  private readonly parsed = new Map<string, Map<string, TreeEntry>>();
  /**
   * Compressed bytes this reader inflates in JavaScript before it loads node:zlib: uncompressed
   * objects (forge writes small ones so) cost next to nothing there, but JavaScript not yet
   * optimised decodes Huffman codes slower than zlib, whose load (2.5 ms) then pays.
   */
  private jsBudget = 4 * 1024;

  private constructor(
    private readonly commonDir: string,
    private readonly objectsDir: string,
    private readonly hashBytes: number,
  ) {}

  static open(cwd: string): LooseReader | null {
    const repo = locateDirectly(cwd);
    if (!repo) return null;
    // Replace refs change what cat-file returns for an oid.
    if (
      readdirOrEmpty(join(repo.commonDir, 'refs', 'replace')).length ||
      /^[0-9a-f]+ refs\/replace\//m.test(readOrNull(join(repo.commonDir, 'packed-refs'))?.toString('utf8') ?? '')
    )
      return null;
    return new LooseReader(repo.commonDir, repo.objectsDir, repo.objectFormat === 'sha256' ? 32 : 20);
  }

  read(spec: string): GitObject | null | undefined {
    const colon = spec.indexOf(':');
    const oid = this.resolve(colon < 0 ? spec : spec.slice(0, colon));
    if (oid === null || oid === undefined) return oid;
    let obj = this.object(oid);
    if (colon < 0 || !obj) return obj;
    const path = spec.slice(colon + 1);
    if (obj.type === 'commit') obj = this.object(this.treeOf(obj));
    else if (obj.type !== 'tree') return undefined;
    if (path === '') return obj;
    // git reads `./` and `../` relative to the working directory: its own case.
    if (path.startsWith('/') || path.endsWith('/') || path.split('/').some((p) => p === '' || p === '.' || p === '..')) return undefined;
    for (const name of path.split('/')) {
      if (!obj) return obj;
      if (obj.type !== 'tree') return null;
      const byName = this.entries(obj);
      // A tree git's fsck would call broken: git's answer (or its error).
      if (!byName) return undefined;
      const entry = byName.get(name);
      if (!entry) return null;
      // A submodule's commit is not in this repository.
      if (entry.mode === '160000') return undefined;
      obj = this.object(entry.oid);
    }
    return obj;
  }

  /** A full oid, or a ref under refs/ (loose, then packed, as git looks); null when the ref does not exist. */
  private resolve(rev: string): string | null | undefined {
    const hex = this.hashBytes * 2;
    if (rev.length === hex && /^[0-9a-f]+$/.test(rev)) return rev;
    if (
      !/^refs\/[A-Za-z0-9_./-]+$/.test(rev) ||
      PER_WORKTREE_REFS.test(rev) ||
      rev.endsWith('.lock') ||
      rev.split('/').some((p) => p === '' || p.startsWith('.'))
    )
      return undefined;
    let loose: string;
    try {
      loose = readFileSync(join(this.commonDir, rev), 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return undefined;
      const packed = readOrNull(join(this.commonDir, 'packed-refs'));
      if (!packed) return null;
      const refs = parsePackedRefs(packed.toString('utf8'), hex === 64 ? 64 : 40);
      // A file git would read otherwise (or die on): git's answer.
      if (!refs) return undefined;
      return refs.find((r) => r.name === rev)?.oid ?? null;
    }
    const m = new RegExp(`^([0-9a-f]{${hex}})\\n?$`).exec(loose);
    return m ? m[1]! : undefined;
  }

  private treeOf(commit: GitObject): string {
    return /^tree ([0-9a-f]+)\n/.exec(commit.content.toString('latin1', 0, 100))?.[1] ?? '';
  }

  /** A tree's entries by name, parsed once: reading many files of one directory walks the same trees. Null for a malformed tree. */
  private entries(tree: GitObject): Map<string, TreeEntry> | null {
    let byName = this.parsed.get(tree.oid);
    if (!byName) {
      const entries = parseTree(tree.content, this.hashBytes);
      if (!entries) return null;
      byName = new Map(entries.map((e) => [e.name, e]));
      this.parsed.set(tree.oid, byName);
    }
    return byName;
  }

  /** The loose object, or undefined when it is not loose here (git finds it in a pack) or cannot be read. */
  private object(oid: string): GitObject | undefined {
    // Objects never change: commits and trees, small and read again on every path under them, are kept.
    const kept = this.kept.get(oid);
    if (kept) return kept;
    const obj = this.load(oid);
    if (obj && obj.type !== 'blob') {
      if (this.kept.size >= KEPT_MAX) {
        this.kept.clear();
        this.parsed.clear();
      }
      this.kept.set(oid, obj);
    }
    return obj;
  }

  /** A loose object's bytes, inflated; throws when they are not exactly one zlib stream. */
  private inflate(data: Buffer): Buffer {
    // The first block's type: 0 is stored (uncompressed).
    const stored = data.length > 2 && ((data[2]! >> 1) & 3) === 0;
    if (stored || data.length <= this.jsBudget) {
      if (!stored) this.jsBudget -= data.length;
      return inflate(data);
    }
    return (process.getBuiltinModule('node:zlib') as typeof import('node:zlib')).inflateSync(data);
  }

  private load(oid: string): GitObject | undefined {
    if (oid.length !== this.hashBytes * 2) return undefined;
    const data = readOrNull(join(this.objectsDir, oid.slice(0, 2), oid.slice(2)));
    if (!data) return undefined;
    let raw: Buffer;
    try {
      raw = this.inflate(data);
    } catch {
      return undefined;
    }
    const nul = raw.indexOf(0);
    // git refuses a size written with a leading zero, a sign or more spaces: then git answers (it says missing).
    const header = /^(blob|tree|commit|tag) (0|[1-9]\d*)$/.exec(raw.toString('latin1', 0, Math.max(0, nul)));
    if (!header || Number(header[2]) !== raw.length - nul - 1) return undefined;
    return { oid, type: header[1] as ObjectType, content: raw.subarray(nul + 1) };
  }
}

function readOrNull(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

function readdirOrEmpty(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}

/**
 * A tree object's entries, or null for one git's fsck calls broken: an entry cut short, a mode not
 * in octal, a name that is empty, `.`, `..` or `.git` (in any case) or holds a `/`, entries out of
 * git's order or a name twice. Trees come from refs anyone may push (a synced state ref): such a
 * name would take a path out of the directory it is written under (forge state export), and
 * reading on would loop or answer for a tree git does not read that way.
 */
export function parseTree(content: Buffer, hashBytes: number): TreeEntry[] | null {
  const entries: TreeEntry[] = [];
  const names = new Set<string>();
  let previous: Buffer | null = null;
  for (let i = 0; i < content.length; ) {
    const space = content.indexOf(0x20, i);
    const nul = space < 0 ? -1 : content.indexOf(0, space + 1);
    if (space <= i || nul < 0 || nul + 1 + hashBytes > content.length) return null;
    const mode = content.toString('latin1', i, space);
    const name = content.toString('utf8', space + 1, nul);
    if (!/^[0-7]+$/.test(mode) || !safeTreeName(name) || names.has(name)) return null;
    const key = sortKey({ mode, name, oid: '' });
    if (previous && Buffer.compare(previous, key) >= 0) return null;
    names.add(name);
    previous = key;
    entries.push({ mode, name, oid: content.toString('hex', nul + 1, nul + 1 + hashBytes) });
    i = nul + 1 + hashBytes;
  }
  return entries;
}

/** A name a tree entry may have: git refuses to check out the others. */
function safeTreeName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !name.includes('/') && name.toLowerCase() !== '.git';
}

/** git orders tree entries by name, comparing a subtree's name as if it ended in '/'. */
function sortKey(e: TreeEntry): Buffer {
  return Buffer.from(e.mode === '40000' ? `${e.name}/` : e.name, 'utf8');
}

export function serializeTree(entries: TreeEntry[]): Buffer {
  const sorted = [...entries].sort((a, b) => Buffer.compare(sortKey(a), sortKey(b)));
  return Buffer.concat(sorted.flatMap((e) => [Buffer.from(`${e.mode} ${e.name}\0`, 'utf8'), Buffer.from(e.oid, 'hex')]));
}

/**
 * Writes loose objects straight into the object store: deflate, write a temp file, rename into
 * place. That is git's own format and its own tmp+rename protocol, so a crash or two writers of
 * the same object never leave a truncated object behind; it saves a git process per object.
 */
export class ObjectWriter {
  readonly hashBytes: number;

  constructor(
    private readonly objectsDir: string,
    private readonly format: 'sha1' | 'sha256',
  ) {
    this.hashBytes = format === 'sha256' ? 32 : 20;
  }

  async write(type: ObjectType, content: Buffer): Promise<string> {
    const raw = Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]);
    // SHA-1 and small objects' zlib framing in JavaScript: a state write does not load crypto or zlib.
    const oid = this.format === 'sha1' ? sha1Hex(raw) : (await import('node:crypto')).createHash(this.format).update(raw).digest('hex');
    const dir = join(this.objectsDir, oid.slice(0, 2));
    const path = join(dir, oid.slice(2));
    if (await exists(path)) return oid;
    // Level 1 is git's own default for loose objects (core.looseCompression); an object that fits
    // in a file system block takes that block compressed or not, so it is stored as it is.
    const data = raw.length <= STORED_MAX ? deflateStored(raw) : await promisify((await import('node:zlib')).deflate)(raw, { level: 1 });
    await mkdir(dir, { recursive: true });
    const tmp = join(dir, `tmp_obj_forge_${randomHex()}`);
    try {
      await writeFile(tmp, data, { mode: 0o444, flag: 'wx' });
      await rename(tmp, path);
    } catch (err) {
      await unlink(tmp).catch(() => {});
      throw err;
    }
    return oid;
  }
}

/** Objects up to this size are written uncompressed (zlib stored blocks): with the zlib framing they fit a 4 KiB block. */
const STORED_MAX = 4096 - 64;

/**
 * Streams the lines of many blobs, in order, through one `git cat-file --batch`, holding a line at
 * a time: a log of any size reads in constant memory. A blob's last line ends with the blob (a
 * missing final newline never joins two blobs' lines); a spec that names no blob yields nothing.
 */
export async function* streamBlobLines({ cwd, specs }: { cwd: string; specs: string[] }): AsyncGenerator<string> {
  const wanted = specs.filter((s) => !s.includes('\n'));
  if (!wanted.length) return;
  const { spawn } = await import('node:child_process');
  const child = spawn('git', ['cat-file', '--batch'], { cwd, env: gitEnv(), stdio: ['pipe', 'pipe', 'ignore'] });
  child.stdin.on('error', () => {}); // a reader that stops early closes the pipe
  child.stdin.end(wanted.map((s) => `${s}\n`).join(''));
  let header: Buffer[] = [];
  /** Bytes of the current object still to come; -1 while a header is read. */
  let remaining = -1;
  let isBlob = false;
  /** The LF git writes after each object's content. */
  let skipLf = false;
  let partial: Buffer[] = [];
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      const lines: string[] = [];
      let i = 0;
      while (i < chunk.length) {
        if (skipLf) {
          skipLf = false;
          i++;
          continue;
        }
        if (remaining < 0) {
          const nl = chunk.indexOf(10, i);
          header.push(chunk.subarray(i, nl < 0 ? chunk.length : nl));
          if (nl < 0) break;
          i = nl + 1;
          const m = /^\S+ (\S+) (\d+)$/.exec(Buffer.concat(header).toString('utf8'));
          header = [];
          if (!m) continue; // `<spec> missing` or `ambiguous`: no content follows
          isBlob = m[1] === 'blob';
          remaining = Number(m[2]);
          if (remaining === 0) [remaining, skipLf] = [-1, true];
          continue;
        }
        const end = Math.min(chunk.length, i + remaining);
        for (let j = i; j < end; ) {
          const nl = chunk.indexOf(10, j);
          if (nl < 0 || nl >= end) {
            partial.push(chunk.subarray(j, end));
            break;
          }
          partial.push(chunk.subarray(j, nl));
          if (isBlob) lines.push(Buffer.concat(partial).toString('utf8'));
          partial = [];
          j = nl + 1;
        }
        remaining -= end - i;
        i = end;
        if (remaining === 0) {
          if (isBlob && partial.some((p) => p.length)) lines.push(Buffer.concat(partial).toString('utf8'));
          partial = [];
          [remaining, skipLf] = [-1, true];
        }
      }
      for (const line of lines) yield line;
    }
  } finally {
    child.kill();
  }
}
