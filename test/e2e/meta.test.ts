// Every registered command: hint markers on success and error, docs and completions current, SYNOPSIS = --help.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { entries } from '../../commands/index';
import { isGroup, type ArgsSpec } from '../../lib/cli/declare';
import { binMap, generatedFiles, manList, withGeneratedSections } from '../../lib/cli/docs';
import { unroff } from '../../lib/cli/man';
import { leaves } from '../../lib/cli/registry';
import { toolSchema } from '../../lib/cli/schema';
import { synopsis } from '../../lib/cli/usage';
import { FORGE, forgeEnv } from '../helpers/forge';
import { placeholderIn, walk } from '../helpers/walker';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));

test('every command answers its examples and an error with a hint marker, and every hint works when followed', async () => {
  const failures = (await walk()).filter((c) => !c.ok);
  assert.equal(
    failures.map((f) => `${f.command} — ${f.case}\n${f.detail}`),
    [],
  );
});

test("every example is written for the reader's own project: none names the test suite's fixture", () => {
  const found = leaves(entries).flatMap((c) =>
    c.examples
      .filter((ex) => /fixture/i.test(`${ex.command} ${ex.description}`))
      .map((ex) => `forge ${c.name}: ${ex.command} — ${ex.description}`),
  );
  assert.equal(found, []);
});

test('no hint written in the source is a placeholder: every fix, next, or and ctx.cmd literal of lib/ and commands/', () => {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'lib', 'commands'], { encoding: 'utf8' })
    .split('\n')
    .filter((f) => f.endsWith('.ts'));
  // A template literal's ${…} is a real value at run time; what is around it must be a command.
  const literal = (text: string) => text.replace(/\$\{[^}]*\}/g, 'x');
  const found: string[] = [];
  let seen = 0;
  for (const file of files) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        for (const m of line.matchAll(
          /\b(?:fix|next|or)\s*:\s*(?:[^'"`,}]*\?\s*)?(['"`])((?:forge|git|export|curl|unset|ollama) (?:(?!\1).)*)\1/g,
        )) {
          seen++;
          const slot = placeholderIn(literal(m[2]!));
          if (slot) found.push(`${file}:${i + 1}: ${m[2]} (${slot})`);
        }
        for (const m of line.matchAll(/ctx\.cmd\(((?:[^()]|\([^()]*\))*)\)/g)) {
          seen++;
          for (const q of m[1]!.matchAll(/(['"`])((?:(?!\1).)*)\1/g)) {
            const slot = placeholderIn(literal(q[2]!));
            if (slot) found.push(`${file}:${i + 1}: ctx.cmd(${m[1]}) (${slot})`);
          }
        }
      });
  }
  assert.ok(seen > 150, `the scan found only ${seen} hints: its patterns no longer match the source`);
  assert.equal(found, []);
});

test('the placeholder check sees the slots hints once had: <id>, an ellipsis, a flag with its metavariable', () => {
  for (const hint of [
    'forge iter get <module>',
    'export OPENAI_API_KEY=…',
    'forge agent --model NAME',
    'forge agent --endpoint URL',
    "forge agent --plan --planner-model NAME 'add greet'",
  ])
    assert.ok(placeholderIn(hint), hint);
  for (const hint of [
    'forge agent --model llava:7b',
    'FORGE_PAGER=cat forge diff',
    'forge read README.md',
    'curl -sS http://127.0.0.1:9/v1/models',
  ])
    assert.is(placeholderIn(hint), null, hint);
});

test('man pages and completions are current (run `make docs` when this fails)', () => {
  const current = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : undefined);
  for (const [path, content] of generatedFiles(entries, pkg.version, current)) {
    assert.is(readFileSync(path, 'utf8'), content, `${path} is stale: run make docs`);
  }
  assert.equal(pkg.bin, binMap(entries), 'package.json bin is stale: run make docs');
  assert.equal(pkg.man, manList(entries), 'package.json man is stale: run make docs');
  for (const [file, text] of withGeneratedSections(entries, (f) => readFileSync(f, 'utf8')))
    assert.is(readFileSync(file, 'utf8'), text, `${file}'s generated tables are stale: run make docs`);
});

test("each man page's SYNOPSIS is exactly the first line of each command's --help", () => {
  for (const e of entries) {
    const page = readFileSync(`man/forge-${e.name}.1`, 'utf8');
    const block = /\.SH SYNOPSIS\n\.nf\n([\s\S]*?)\n\.fi/.exec(page)![1]!;
    const fromHelp = (isGroup(e) ? e.commands : [e]).map((c) => {
      const r = spawnSync(process.execPath, [FORGE, ...c.name.split(' '), '--help'], { env: forgeEnv(), encoding: 'utf8' });
      assert.is(r.status, 0);
      const first = r.stdout.split('\n')[0]!;
      assert.is(first, synopsis(c));
      return first;
    });
    assert.equal(unroff(block).split('\n'), fromHelp, `man/forge-${e.name}.1`);
  }
});

test('the bash completion completes commands, subcommands, options and choices', () => {
  const complete = (...words: string[]) =>
    spawnSync(
      'bash',
      [
        '-c',
        'source completions/forge.bash; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _forge; printf "%s\\n" "${COMPREPLY[@]}"',
        'bash',
        ...words,
      ],
      { encoding: 'utf8' },
    )
      .stdout.trim()
      .split('\n');
  assert.equal(complete('forge', 'me'), ['memory']);
  assert.equal(complete('forge', 'memory', 's'), ['save']);
  assert.equal(complete('forge-memory', 're'), ['recall']);
  assert.equal(complete('forge', 'state', 'sync', '--r'), ['--remote', '--run-id']);
  assert.equal(complete('forge', 'logs', '--severity', 'e'), ['error']);
});

test('tool schemas are lean and mirror the declared arguments, but those for a person only', () => {
  for (const c of leaves(entries)) {
    const schema = toolSchema(c);
    assert.equal(
      Object.keys(schema.parameters.properties),
      Object.entries(c.args as ArgsSpec)
        .filter(([, a]) => !a.personOnly)
        .map(([n]) => n),
    );
    assert.ok(JSON.stringify(schema).length < 1200, `${c.name} schema is ${JSON.stringify(schema).length} chars`);
    assert.match(schema.name, /^[a-z_]+$/);
  }
});

test('the catalog the executable loads commands from names every command of the registry, and only those', async () => {
  const { catalog } = await import('../../commands/catalog');
  const listed: string[] = [];
  const nameAt = async (path: string) => ((await import(`../../commands/${path}.ts`)) as { default: { name: string } }).default.name;
  for (const [word, hit] of Object.entries(catalog)) {
    if (typeof hit === 'string') listed.push(await nameAt(hit));
    else for (const path of Object.values(hit)) listed.push(await nameAt(path));
    // The executable finds a command by its words: the catalog's keys are the command's name.
    const names = typeof hit === 'string' ? [word] : Object.keys(hit).map((sub) => `${word} ${sub}`);
    assert.equal(listed.slice(-names.length), names);
  }
  assert.equal(
    listed,
    leaves(entries).map((c) => c.name),
  );
});

test.run();
