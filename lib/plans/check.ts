// forge plan check's driver: find the plans, check each, collect findings sorted by file and line.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { locateWorkspace, resolveInside } from '../files/workspace';
import { InvalidInputError } from '../errors';
import { isFile } from '../fs/stat';
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
  const names = await readdir(dir).catch(() => [] as string[]);
  const paths = names.filter((n) => n.endsWith(ext)).sort().map((n) => join(dir, n));
  const files = await Promise.all(paths.map(async (p) => ((await isFile(p)) ? p : null)));
  return files.filter((p): p is string => p !== null);
}

/** The plans to check: the given paths, or docs/plans/*.md and .forge/plans/*.json under root. */
export async function discoverPlans({ cwd, root, paths }: { cwd: string; root: string; paths: string[] }): Promise<string[]> {
  if (!paths.length) return [...(await listDir(join(root, 'docs', 'plans'), '.md')), ...(await listDir(join(root, '.forge', 'plans'), '.json'))];
  const out: string[] = [];
  // Plans live in the work tree: a --path out of it, or into git's files, is refused like a file tool's.
  const ws = await locateWorkspace({ cwd });
  for (const p of paths) {
    const { abs } = await resolveInside({ ws, path: p });
    const info = await stat(abs).catch(() => null);
    if (!info) throw new InvalidInputError('PLAN_NOT_FOUND', `no plan at '${p}'`, { fix: 'forge plan check' });
    if (info.isDirectory()) out.push(...(await listDir(abs, '.md')), ...(await listDir(abs, '.json')));
    else if (info.isFile()) out.push(abs);
    else throw new InvalidInputError('PLAN_NOT_FOUND', `'${p}' is neither a plan file nor a directory of plans`, { fix: 'forge plan check' });
  }
  return out;
}

export async function checkPlans({ cwd, files, strict, path }: { cwd: string; files: string[]; strict: boolean; path: string }): Promise<CheckReport> {
  const report: CheckReport = { files: [], findings: [], contracts: [], legacy: [], modulePlans: [] };
  for (const abs of files) {
    const file = relative(cwd, abs) || abs;
    report.files.push(file);
    const fail = (code: string, message: string) => report.findings.push({ file, line: 1, col: 1, severity: 'error', code, message });
    // The size is known before reading: a huge file is refused without loading it.
    const size = (await stat(abs)).size;
    if (size > MAX_PLAN_BYTES) {
      fail('PLAN_TOO_LARGE', `the plan is ${(size / 1048576).toFixed(1)} MB; plans over ${MAX_PLAN_BYTES / 1048576} MB are refused unread`);
      continue;
    }
    const buf = await readFile(abs);
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
      report.findings.push({ file, line: line + 1, col: 1, severity: 'error', code: 'INVALID_ENCODING', message: `line ${line + 1} is not valid UTF-8: plans are UTF-8 text` });
      continue;
    }
    if (abs.endsWith('.json')) {
      report.modulePlans.push(file);
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
