// forge plan check's driver: find the plans, check each, collect findings sorted by file and line.
import { open, readdir, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { locateWorkspace, resolveInside } from '../files/workspace';
import type { FindingCode } from '../error-codes';
import { InvalidInputError } from '../errors';
import { isFile } from '../fs/stat';
import { shellQuote } from '../quote';
import { checkMarkdownPlan, type MarkdownPlan } from './markdown';
import { checkModulePlan } from './modules';
import type { Finding } from './yaml';

/** A plan file larger than this is refused unread: plans are documents, not data. */
export const MAX_PLAN_BYTES = 1024 * 1024;

export interface CheckReport {
  files: string[];
  findings: Finding[];
  contracts: MarkdownPlan[];
  legacy: string[];
  modulePlans: string[];
}

/** The regular files (or links to them) of dir with this extension: a FIFO or device named x.md would never finish reading. */
async function listDir(dir: string, ext: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  // The directory entry tells a regular file without a stat; only a symlink is followed to see.
  const kept = await Promise.all(
    entries
      .filter((e) => e.name.endsWith(ext))
      .map(async (e) => (e.isFile() || (e.isSymbolicLink() && (await isFile(join(dir, e.name)))) ? e.name : null)),
  );
  return kept
    .filter((n): n is string => n !== null)
    .sort()
    .map((n) => join(dir, n));
}

/** How many plans are read ahead of the one being checked. */
const READ_AHEAD = 8;

/** A file's bytes, or its size when that is over `max` (then it is not read): one open, one fstat, as readFile does. */
async function readUpTo(abs: string, max: number): Promise<Buffer | number> {
  const fh = await open(abs, 'r');
  try {
    const { size } = await fh.stat();
    return size > max ? size : await fh.readFile();
  } finally {
    await fh.close();
  }
}

/** Where people keep plan contracts, and module plans, in the work tree. */
export const CONTRACTS_DIR = 'docs/plans';
export const MODULE_PLANS_DIR = '.forge/modules';
/** Where module plans were kept before: the name on the state ref means activated contracts, so it is read but warned about. */
const OLD_MODULE_PLANS_DIR = '.forge/plans';

/** The plans to check: the given paths, or docs/plans/*.md and .forge/modules/*.json under root (and any left in .forge/plans/). */
export async function discoverPlans({ cwd, root, paths }: { cwd: string; root: string; paths: string[] }): Promise<string[]> {
  if (!paths.length)
    return [
      ...(await listDir(join(root, CONTRACTS_DIR), '.md')),
      ...(await listDir(join(root, MODULE_PLANS_DIR), '.json')),
      ...(await listDir(join(root, OLD_MODULE_PLANS_DIR), '.json')),
    ];
  const out: string[] = [];
  // Plans live in the work tree: a --path out of it, or into git's files, is refused like a file tool's.
  const ws = await locateWorkspace({ cwd });
  for (const p of paths) {
    const { abs } = await resolveInside({ ws, path: p });
    const info = await stat(abs).catch(() => null);
    if (!info) throw new InvalidInputError('PLAN_NOT_FOUND', `no plan at '${p}'`, { fix: 'forge plan check' });
    if (info.isDirectory()) out.push(...(await listDir(abs, '.md')), ...(await listDir(abs, '.json')));
    else if (info.isFile()) out.push(abs);
    else
      throw new InvalidInputError('PLAN_NOT_FOUND', `'${p}' is neither a plan file nor a directory of plans`, { fix: 'forge plan check' });
  }
  return out;
}

/** A module plan directly in a .forge/plans/ directory, the place module plans had before they moved. */
function isOldPlace(abs: string): boolean {
  return dirname(abs).endsWith(join(sep, OLD_MODULE_PLANS_DIR));
}

export async function checkPlans({
  cwd,
  files,
  strict,
  path,
}: {
  cwd: string;
  files: string[];
  strict: boolean;
  path: string;
}): Promise<CheckReport> {
  const report: CheckReport = { files: [], findings: [], contracts: [], legacy: [], modulePlans: [] };
  // Reading waits on the disk and checking on the CPU: the next few plans are read while one is checked.
  const reads = new Map<number, Promise<{ buf: Buffer | number } | { err: unknown }>>();
  const readAhead = (i: number) => {
    if (i < files.length && !reads.has(i))
      reads.set(
        i,
        readUpTo(files[i]!, MAX_PLAN_BYTES).then(
          (buf) => ({ buf }),
          (err: unknown) => ({ err }),
        ),
      );
  };
  for (const [i, abs] of files.entries()) {
    const file = relative(cwd, abs) || abs;
    report.files.push(file);
    const fail = (code: FindingCode, message: string) => report.findings.push({ file, line: 1, col: 1, severity: 'error', code, message });
    for (let j = i; j < i + READ_AHEAD; j++) readAhead(j);
    const read = await reads.get(i)!;
    reads.delete(i);
    if ('err' in read) throw read.err;
    // The size is known before reading: a huge file is refused without loading it.
    const { buf } = read;
    if (typeof buf === 'number') {
      fail('PLAN_TOO_LARGE', `the plan is ${(buf / 1048576).toFixed(1)} MB; plans over ${MAX_PLAN_BYTES / 1048576} MB are refused unread`);
      continue;
    }
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(buf);
    } catch {
      // Name the first line that is not UTF-8.
      const rows = buf.toString('latin1').split('\n');
      const decoder = new TextDecoder('utf-8', { fatal: true });
      const line = rows.findIndex((row) => {
        try {
          decoder.decode(Buffer.from(row, 'latin1'));
          return false;
        } catch {
          return true;
        }
      });
      report.findings.push({
        file,
        line: line + 1,
        col: 1,
        severity: 'error',
        code: 'INVALID_ENCODING',
        message: `line ${line + 1} is not valid UTF-8: plans are UTF-8 text`,
      });
      continue;
    }
    if (abs.endsWith('.json')) {
      report.modulePlans.push(file);
      if (isOldPlace(abs)) {
        const to = relative(cwd, join(dirname(abs), '..', 'modules')) || '.';
        report.findings.push({
          file,
          line: 1,
          col: 1,
          severity: 'warning',
          code: 'OLD_PLACE',
          message: `module plans live in ${MODULE_PLANS_DIR}/ (on the state ref ${OLD_MODULE_PLANS_DIR}/ holds activated contracts): mkdir -p ${shellQuote(to)} && mv ${shellQuote(file)} ${shellQuote(to)}/`,
        });
      }
      report.findings.push(...(await checkModulePlan({ file, text, cwd, path })).findings);
    } else {
      const r = await checkMarkdownPlan({ file, text, strict });
      report.findings.push(...r.findings);
      if (r.plan?.legacy) report.legacy.push(file);
      else if (r.plan && !r.findings.some((f) => f.severity === 'error')) report.contracts.push(r.plan);
    }
  }
  report.findings.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.col - b.col);
  return report;
}
