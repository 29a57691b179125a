// Control sequences in a file or a model's reply reach a terminal as visible text, never as commands to it; piped and --json output keep their bytes.
import * as assert from 'uvu/assert';
import { visible } from '../../lib/cli/visible';
import { FORGE, forge, forgeEnv } from '../helpers/forge';
import { test } from '../helpers/harness';
import { reply, startOpenAIServer } from '../helpers/openai-server';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoWith, tempDir, tempRepo } from '../helpers/repo';
import { forgeOnTty } from '../helpers/tty';

const ESC = '\x1b';
const BEL = '\x07';
/** A window title (OSC 0), a hyperlink (OSC 8), a clipboard write (OSC 52), a cleared screen (CSI 2J) and a C1 CSI. */
const HOSTILE = [
  `${ESC}]0;pwned${BEL}`,
  `${ESC}]8;;https://evil.example${ESC}\\click${ESC}]8;;${ESC}\\`,
  `${ESC}]52;c;Y3VybCBldmlsLnNofHNo${BEL}`,
  `${ESC}[2J`,
  '\u009b31m',
].join(' ');

/** Whether `shown` holds any control character a terminal would act on (forge's own colour and status-line erase aside). */
const obeyable = (shown: string) =>
  /[\x00-\x08\x0b\x0c\x0d\x0e-\x1a\x1c-\x1f\x7f-\x9f]|\x1b(?!\[[0-9;]*m)/.test(shown.replace(/\r\n/g, '\n').replaceAll('\r\x1b[K', ''));

test('visible: C0, DEL and C1 shown in caret or code point form; tab, newline, CRLF and (when coloured) SGR kept', () => {
  assert.is(visible(`a${ESC}]0;t${BEL}b`, { colour: false }), 'a^[]0;t^Gb');
  assert.is(visible('x\u009by\x7f', { colour: false }), 'x<U+009B>y^?');
  assert.is(visible('a\tb\r\nc\rd', { colour: false }), 'a\tb\r\nc^Md');
  assert.is(visible(`${ESC}[31mred${ESC}[0m${ESC}[2J`, { colour: true }), `${ESC}[31mred${ESC}[0m^[[2J`);
  assert.is(visible(`${ESC}[31mred`, { colour: false }), '^[[31mred');
});

test('forge read and forge search on a terminal show a file’s escape sequences; piped, the bytes are as in the file', async () => {
  const dir = repoWith({ 'notes.txt': `title ${HOSTILE} end\n` });
  for (const args of [
    ['read', 'notes.txt'],
    ['search', 'title'],
  ]) {
    const tty = await forgeOnTty(args, { cwd: dir, prompt: 'never', answers: [] });
    assert.is(tty.code, 0, tty.output);
    assert.not.ok(obeyable(tty.output), `nothing for the terminal to obey: ${JSON.stringify(tty.output)}`);
    assert.match(tty.output, /\^\[\]0;pwned\^G/);
    assert.match(tty.output, /\^\[\[2J/);
    const piped = await forge(args, { cwd: dir });
    assert.ok(piped.stdout.includes(`${ESC}]52;c;`), 'piped: the file’s bytes');
  }
  const json = await forge(['read', 'notes.txt', '--json'], { cwd: dir });
  assert.is(json.records[0]!.lines[0].text, `title ${HOSTILE} end`, 'NDJSON keeps the bytes');
});

test('a model reply holding an OSC 52 clipboard write reaches the terminal as text, streamed or not', async () => {
  const server = await startOpenAIServer({ script: [reply({ text: ['Done. ', `${ESC}]52;c;`, `ZXZpbA==${BEL} bye`] })] });
  try {
    const dir = repoWith({ 'a.txt': 'a\n' });
    const r = await forgeOnTty(['agent', '--endpoint', server.url, '--model', 'test-model', 'say hi'], {
      cwd: dir,
      prompt: 'never',
      answers: [],
    });
    assert.not.ok(obeyable(r.output), JSON.stringify(r.output));
    assert.match(r.output, /\^\[\]52;c;ZXZpbA==\^G bye/);
  } finally {
    await server.close();
  }
});

/** forge undo on a pseudo-terminal, `answer` typed once its question is up (none: never answered). */
const undoOnTerminal = (dir: string, args: string[], answer: string) =>
  forgeOnTty(args, { cwd: dir, prompt: String.raw`\[y/N\]`, answers: answer ? [answer] : [] });

test('on a terminal undo asks first: no leaves the work tree, yes restores, --yes does not ask', async () => {
  const dir = tempRepo();
  writeFileSync(join(dir, 'f.txt'), 'kept\n');
  await forge(['checkpoint', 'before'], { cwd: dir });
  writeFileSync(join(dir, 'f.txt'), 'changed\n');
  const no = await undoOnTerminal(dir, ['undo'], 'n');
  assert.match(
    no.output,
    /Restore the work tree to checkpoint 1 \(forge: checkpoint before "before", [^)]*, 1 uncommitted file\)\? \[y\/N\]/,
  );
  assert.match(no.output, /not restored: the work tree is unchanged/);
  assert.is(readFileSync(join(dir, 'f.txt'), 'utf8'), 'changed\n');
  const yes = await undoOnTerminal(dir, ['undo'], 'y');
  assert.match(yes.output, /restored the work tree to checkpoint 1/);
  assert.is(readFileSync(join(dir, 'f.txt'), 'utf8'), 'kept\n');
  writeFileSync(join(dir, 'f.txt'), 'again\n');
  const forced = await undoOnTerminal(dir, ['undo', '--yes'], '');
  assert.not.match(forced.output, /\[y\/N\]/);
  assert.is(readFileSync(join(dir, 'f.txt'), 'utf8'), 'kept\n');
});

test('validate: progress goes to stderr while commands run, only on a terminal', async () => {
  const dir = tempRepo();
  const quiet = await forge(['validate', 'm', '--cmd', 'true', '--cmd', 'true #2'], { cwd: dir });
  assert.is(quiet.stderr, '');
  const hasScript = spawnSync('script', ['--version']).status === 0;
  if (!hasScript) return;
  // script(1) gives forge a terminal; its output mixes stdout and stderr as a person would see them.
  const shown = execFileSync('script', ['-qec', `${process.execPath} ${FORGE} validate m --cmd true --cmd 'true #2'`, '/dev/null'], {
    cwd: dir,
    env: forgeEnv(),
    encoding: 'utf8',
  });
  assert.match(shown, /\[1\/2\] true\r?\n[\s\S]*\[2\/2\] true #2\r?\n/);
  rmSync(join(dir, 'typescript'), { force: true });
});

test('forge eval: progress on a terminal — the run, of how many, and the tokens so far — and none when piped', async () => {
  const dir = tempRepo();
  const suite = join(dir, 'suite');
  for (const name of ['first', 'second']) {
    mkdirSync(join(suite, name), { recursive: true });
    writeFileSync(join(suite, name, 'task.json'), JSON.stringify({ prompt: 'Say hello.', verify: 'true' }));
    writeFileSync(join(suite, name, 'setup.sh'), 'echo fixture > README.md\n');
  }
  const answer = () => reply({ text: 'Hello. Nothing to change.', usage: { prompt_tokens: 300, completion_tokens: 5 } });
  const server = await startOpenAIServer({ script: Array.from({ length: 8 }, answer) });
  try {
    const args = ['eval', '--suite', 'suite', '--endpoint', server.url, '--model', 'm'];
    const piped = await forge(args, { cwd: dir });
    assert.not.match(piped.stderr, /tokens so far/);
    const shown = await forgeOnTty(args, { cwd: dir, prompt: 'no question', answers: [] });
    assert.match(shown.output, /\[1\/2\] first #1 with forge… \(0 tokens so far\)/);
    assert.match(shown.output, /\[2\/2\] second #1 with forge… \([1-9]\d* tokens so far\)/);
  } finally {
    await server.close();
  }
});

test('forge agent on a terminal: a spinner while the model is silent, its text once as it streams, reasoning dimmed on stderr, never in the answer', async () => {
  const dir = repoWith({ 'notes.txt': 'one\n' });
  // The model answers once the spinner is on the screen: however slow the machine, it is seen first.
  let answer = () => {};
  const spinnerShown = new Promise<void>((resolve) => (answer = resolve));
  const server = await startOpenAIServer({
    script: [reply({ text: ['<thi', 'nk>the notes', ' say one</think>', 'It says ', 'one.'], after: spinnerShown })],
  });
  try {
    const r = await forgeOnTty(['agent', '--endpoint', server.url, '--model', 'small-model', 'what do the notes say'], {
      cwd: dir,
      prompt: 'never asked',
      answers: [],
      onOutput: (shown) => {
        if (shown.includes('⠋ waiting for small-model')) answer();
      },
    });
    assert.is(r.code, 0, r.output);
    assert.match(r.output, /⠋ waiting for small-model/);
    assert.is(r.output.split('It says one.').length, 2, `the answer once: ${r.output}`);
    assert.match(r.output, /\(thinking\) the notes say one/);
    assert.not.match(r.output, /<think>|<\/think>/);
  } finally {
    await server.close();
  }
});

test('make demo into a log file: no colour codes in it, and its throwaway repository is removed at the end', async () => {
  const tmp = tempDir('forge-demo-tmp-');
  const r = spawnSync('bash', ['examples/demo.sh'], { encoding: 'utf8', env: { ...forgeEnv(), TMPDIR: tmp }, timeout: 110_000 });
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /\n== 7\. All of it is plain git/);
  assert.not.match(r.stdout + r.stderr, /\x1b/, 'plain text off a terminal');
  assert.equal(readdirSync(tmp), [], 'nothing left in TMPDIR');
});

test.run();
