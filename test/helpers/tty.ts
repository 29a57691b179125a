// Runs forge on a real pseudo-terminal (python3's pty module) and answers its questions in order.
import { spawn } from 'node:child_process';
import { FORGE, forgeEnv } from './forge';
import { ownChild } from './owner';

/**
 * Each time the output shows one more `prompt` (a regular expression) than has been answered, the
 * next answer is typed (with Enter). What the terminal shows is passed on as it comes. No deadline:
 * the terminal is read until forge closes it, and the harness's per-test timeout bounds a hang.
 */
const DRIVER = String.raw`
import json, os, pty, re, sys
argv, prompt, answers = json.loads(sys.argv[1]), sys.argv[2], json.loads(sys.argv[3])
pid, fd = pty.fork()
if pid == 0:
    os.execvp(argv[0], argv)
out, sent = b'', 0
while True:
    try:
        data = os.read(fd, 65536)
    except OSError:
        break
    if not data:
        break
    out += data
    sys.stdout.buffer.write(data)
    sys.stdout.flush()
    if sent < len(answers) and len(re.findall(prompt.encode(), out)) > sent:
        os.write(fd, (answers[sent] + '\r').encode())
        sent += 1
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
`;

export function forgeOnTty(
  args: string[],
  {
    cwd,
    prompt,
    answers,
    env = {},
    onOutput,
  }: {
    cwd: string;
    prompt: string;
    answers: string[];
    env?: Record<string, string | undefined>;
    /** Called with all the terminal has shown so far, each time it shows more. */
    onOutput?: (shown: string) => void;
  },
): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = ownChild(
      spawn('python3', ['-c', DRIVER, JSON.stringify([process.execPath, FORGE, ...args]), prompt, JSON.stringify(answers)], {
        cwd,
        env: forgeEnv(env),
        stdio: ['ignore', 'pipe', 'inherit'],
      }),
    );
    const chunks: Buffer[] = [];
    // Decoded whole each time: a chunk may end inside a character.
    const shown = () => Buffer.concat(chunks).toString('utf8');
    child.stdout.on('data', (b: Buffer) => {
      chunks.push(b);
      onOutput?.(shown());
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, output: shown() }));
  });
}
