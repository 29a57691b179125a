// Whether forge runs inside a coding agent: a process of one among its ancestors, or the mark an agent sets in its shells' environment.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';

/** The agents forge can tell it runs inside of, by their programs' command lines and the variable each sets for the commands it runs. */
export const AGENT_MARKS: readonly { agent: string; program: RegExp; env: string | null }[] = [
  { agent: 'Claude Code', program: /(^|\/)claude(\.exe)?( |$)|@anthropic-ai\/claude-code\//, env: 'CLAUDECODE' },
  { agent: 'Codex CLI', program: /(^|\/)codex(-[a-z0-9_-]+)?(\.exe)?( |$)|@openai\/codex\//, env: null },
  { agent: 'Gemini CLI', program: /(^|\/)gemini( |$)|@google\/gemini-cli\//, env: 'GEMINI_CLI' },
  { agent: 'OpenCode', program: /(^|\/)opencode(-[a-z0-9_-]+)?(\.exe)?( |$)|opencode-ai\//, env: 'OPENCODE' },
  { agent: 'forge agent', program: /(^|\/)forge(\.js)? (.* )?(agent|loop run)( |$)/, env: null },
];

/** How far up the process tree to look: an agent's shell is a few levels above forge, never dozens. */
const MAX_DEPTH = 64;

interface ProcessRow {
  ppid: number;
  args: string;
}

/** One process's parent and command line from /proc (Linux); null when it cannot be read. */
async function procRow(pid: number): Promise<ProcessRow | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The command name in parentheses may hold spaces and ')': the fields after the last ')' are plain.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const args = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').filter(Boolean).join(' ');
    return Number.isInteger(ppid) ? { ppid, args } : null;
  } catch {
    return null;
  }
}

/** Every process's parent and command line from ps, where there is no /proc (macOS). */
function psTable(): Promise<Map<number, ProcessRow>> {
  return new Promise((done) => {
    execFile('ps', ['-A', '-o', 'pid=,ppid=,args='], { maxBuffer: 16 * 1024 * 1024 }, (err, stdout) => {
      const rows = new Map<number, ProcessRow>();
      if (!err)
        for (const line of stdout.split('\n')) {
          const m = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
          if (m) rows.set(Number(m[1]), { ppid: Number(m[2]), args: m[3]! });
        }
      done(rows);
    });
  });
}

/**
 * The agent forge runs inside of, or null: the first ancestor of `pid` whose command line is an
 * agent's, else the first agent mark set in `env`. An agent can clear its marks from a command's
 * environment, but not its own process from the command's ancestors.
 */
export async function agentAround({ pid, ppid, env }: { pid: number; ppid: number; env: NodeJS.ProcessEnv }): Promise<string | null> {
  const linux = (await procRow(pid)) !== null;
  const table = linux ? null : await psTable();
  let at = ppid;
  for (let depth = 0; at > 1 && depth < MAX_DEPTH; depth++) {
    const row = linux ? await procRow(at) : (table!.get(at) ?? null);
    if (!row) break;
    const mark = AGENT_MARKS.find((m) => m.program.test(row.args));
    if (mark) return mark.agent;
    at = row.ppid;
  }
  return AGENT_MARKS.find((m) => m.env && env[m.env])?.agent ?? null;
}
