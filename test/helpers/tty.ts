// Runs forge on a real pseudo-terminal (python3's pty module) and answers its questions in order.
import { spawn } from 'node:child_process';
import { FORGE, forgeEnv } from './forge';

/**
 * Each time the output shows one more `prompt` than has been answered, the next answer is typed
 * (with Enter). Resolves with everything the terminal showed and the exit code.
 */
const DRIVER = String.raw`
import json, os, pty, re, select, sys, time
argv, prompt, answers = json.loads(sys.argv[1]), sys.argv[2], json.loads(sys.argv[3])
pid, fd = pty.fork()
if pid == 0:
    os.execvp(argv[0], argv)
out, sent, deadline = b'', 0, time.time() + 90
while time.time() < deadline:
    r, _, _ = select.select([fd], [], [], 0.1)
    if fd in r:
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        out += data
    if sent < len(answers) and len(re.findall(prompt.encode(), out)) > sent:
        os.write(fd, (answers[sent] + '\r').encode())
        sent += 1
_, status = os.waitpid(pid, 0)
sys.stdout.write(out.decode('utf8', 'replace'))
sys.exit(os.waitstatus_to_exitcode(status))
`;

export function forgeOnTty(
  args: string[],
  { cwd, prompt, answers, env = {} }: { cwd: string; prompt: string; answers: string[]; env?: Record<string, string | undefined> },
): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', ['-c', DRIVER, JSON.stringify([process.execPath, FORGE, ...args]), prompt, JSON.stringify(answers)], {
      cwd,
      env: forgeEnv(env),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}
