// Syntax checks of a module's files: Babel for JavaScript and TypeScript, JSON.parse, and Python's ast.
import { readFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { shellJoin } from '../quote';
import { runShell } from '../process/program';
import { jsonError, parseScript, SCRIPT_EXTENSIONS, SourceSyntaxError, type ParseError } from './parse';
import type { CheckResult } from './types';

/** Python gets this long for all its files at once: the seed's per-file AST budget. */
const PYTHON_TIMEOUT_MS = 60_000;

/** Whether forge can check a file's syntax (Python only with python3 on the PATH). */
function checksSyntax(file: string): boolean {
  const ext = extname(file);
  return (SCRIPT_EXTENSIONS as readonly string[]).includes(ext) || ext === '.json' || ext === '.py';
}

function result(file: string, error: ParseError | null): CheckResult {
  if (!error) return { type: 'syntax_check', name: file, passed: true, message: 'parses' };
  return {
    type: 'syntax_check',
    name: file,
    passed: false,
    message: `${file}:${error.line}:${error.col}: ${error.message}`,
    file,
    line: error.line,
    col: error.col,
  };
}

async function checkScriptOrJson(cwd: string, file: string): Promise<CheckResult> {
  const text = await readFile(resolve(cwd, file), 'utf8');
  if (extname(file) === '.json') return result(file, jsonError(text));
  try {
    await parseScript({ file, text });
    return result(file, null);
  } catch (err) {
    if (err instanceof SourceSyntaxError) return result(file, err.location);
    throw err;
  }
}

// Reads each file as bytes so its coding declaration counts, and prints one JSON line per file.
const PYTHON_CHECKER = `
import ast, json, sys, warnings
warnings.simplefilter('ignore')
for path in sys.argv[1:]:
    out = {'file': path}
    try:
        with open(path, 'rb') as f:
            ast.parse(f.read(), path)
    except SyntaxError as e:
        out.update(line=e.lineno or 1, col=e.offset or 1, message=e.msg)
    except Exception as e:
        out.update(line=1, col=1, message=str(e))
    print('forge-py ' + json.dumps(out))
`;

/** One python3 process parses every .py file; a crash or timeout fails them all with its reason. */
async function checkPython({
  cwd,
  files,
  timeoutMs,
  env,
}: {
  cwd: string;
  files: string[];
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
}): Promise<CheckResult[]> {
  const r = await runShell({ command: shellJoin(['python3', '-c', PYTHON_CHECKER, ...files]), cwd, timeoutMs, env, tailBytes: 1 << 20 });
  const found = new Map<string, { line?: number; col?: number; message?: string }>();
  for (const line of r.tail.split('\n'))
    if (line.startsWith('forge-py ')) {
      const entry = JSON.parse(line.slice('forge-py '.length)) as { file: string; line?: number; col?: number; message?: string };
      found.set(entry.file, entry);
    }
  return files.map((file) => {
    const entry = found.get(file);
    if (!entry) {
      const why = r.timedOut
        ? `timed out after ${timeoutMs / 1000} s`
        : `python3 exited ${r.exitCode ?? r.signal}: ${r.tail.trim().split('\n').at(-1) ?? ''}`;
      return { type: 'syntax_check', name: file, passed: false, message: `${file}: not checked: ${why}` };
    }
    return result(file, entry.message === undefined ? null : { line: entry.line ?? 1, col: entry.col ?? 1, message: entry.message });
  });
}

/**
 * One syntax_check per file forge can parse, in the order given. Python files are skipped (passed,
 * skipped: true, not counted in the score) when python3 is not available.
 */
export async function checkSyntax({
  cwd,
  files,
  python,
  env,
}: {
  cwd: string;
  files: string[];
  python: boolean;
  env: NodeJS.ProcessEnv;
}): Promise<CheckResult[]> {
  const parsable = files.filter(checksSyntax);
  const py = parsable.filter((f) => extname(f) === '.py');
  const pyResults = !py.length
    ? []
    : python
      ? await checkPython({ cwd, files: py, timeoutMs: PYTHON_TIMEOUT_MS, env })
      : py.map(
          (file): CheckResult => ({
            type: 'syntax_check',
            name: file,
            passed: true,
            skipped: true,
            message: 'not checked: python3 is not on the PATH',
          }),
        );
  const byFile = new Map(pyResults.map((r) => [r.name, r]));
  const results: CheckResult[] = [];
  for (const file of parsable) results.push(byFile.get(file) ?? (await checkScriptOrJson(cwd, file)));
  return results;
}
