// forge init: write .forge/conventions.md from what the repository's own files say — no model call.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { defineCommand } from '../lib/cli/declare';
import { RefusedError } from '../lib/errors';
import { CONFINEMENT_ERRORS, openWorkspace, resolveInside, statTarget } from '../lib/files/workspace';
import { writeWhole } from '../lib/files/write';
import { workTreeRoot } from '../lib/git/repo';
import { AGENTS_MD, mergeAgentsSection } from '../lib/init/agents-md';
import { CONVENTIONS_PATH, detectConventions, renderConventions } from '../lib/init/conventions';

export default defineCommand({
  name: 'init',
  summary: 'Write .forge/conventions.md from the README, manifests, lint configs and test layout',
  description:
    "Reads the repository (the top of the work tree holding the working directory) and writes a short conventions file that agents get in their prompt: a summary from the README's first paragraph; languages and package manager (package.json and its lockfile, go.mod, Cargo.toml, pyproject.toml / requirements.txt); the build, test, lint, format and typecheck commands (Makefile targets first, then package scripts, then each language's own); test files, how they are named, where they live and the framework; lint and format tooling by its config file (eslint, prettier, biome, ruff, mypy, golangci-lint, rustfmt, pre-commit); strict TypeScript, ES modules, the Node engine, .editorconfig indentation; the top-level layout. No model is called: every line comes from a file. An existing file is kept unless --force; --print shows the file without writing it.",
  args: {
    force: { type: 'boolean', tool: 'Replace an existing file', description: 'Replace an existing .forge/conventions.md.' },
    print: { type: 'boolean', tool: 'Print, do not write', description: 'Print the file instead of writing it.' },
    'agents-md': {
      type: 'boolean',
      tool: 'Write AGENTS.md instead',
      description:
        "Write the same facts into forge's marked section of AGENTS.md (read natively by Codex, Gemini CLI, OpenCode…) instead: created, or updated in place between its markers, the rest of the file left as it is.",
    },
  },
  examples: [
    { command: 'forge init --print', description: 'See what forge would write.' },
    { command: 'forge init --json', description: 'Write it (once); the facts as one record.' },
    { command: 'forge init --agents-md', description: "Put the same facts in forge's section of AGENTS.md." },
  ],
  errors: {
    ...CONFINEMENT_ERRORS,
    CONVENTIONS_EXIST: '.forge/conventions.md exists (use --force)',
    AGENTS_MD_MARKERS: "with --agents-md: AGENTS.md has forge's start or end marker without the other, or twice (nothing is written)",
    NOT_A_REGULAR_FILE: 'with --agents-md: AGENTS.md is a directory, a FIFO, a socket or a device (nothing is written)',
    IS_A_DIRECTORY: '.forge/conventions.md or AGENTS.md is a directory',
    NOT_A_DIRECTORY: 'a file is where .forge must be a directory',
  },
  exits: {
    0: 'written (or printed)',
    1: 'refused: the file exists, or AGENTS.md is not a file forge can merge into',
    2: 'invalid input, or a path that leaves the repository or is a directory',
  },
  mutates: true,
  mcp: { title: 'Write the conventions file', toolset: 'install', effect: 'destructive', idempotent: true },
  async run(args, ctx) {
    const root = (await workTreeRoot({ cwd: ctx.cwd }))?.root ?? ctx.cwd;
    const ws = await openWorkspace({ cwd: root, warn: ctx.warn });
    const facts = await detectConventions({ ws });
    const content = renderConventions(facts);
    if (args['agents-md']) {
      // forge's own marked section: updated in place on every run, so no --force is needed.
      const target = await resolveInside({ ws, path: AGENTS_MD });
      const abs = target.abs;
      // A FIFO there would hang the read, a directory fail it: refused before it is opened.
      const info = await statTarget(target);
      if (info?.isDirectory())
        throw new RefusedError('NOT_A_REGULAR_FILE', `'${AGENTS_MD}' is a directory, not a file forge can merge its section into`, {
          fix: ctx.cmd('ls', AGENTS_MD),
          data: { path: AGENTS_MD },
        });
      const existing = info ? await readFile(abs, 'utf8') : null;
      // The conventions file invites edits; this section is regenerated, so its own marker says where edits go.
      const merged = mergeAgentsSection(existing, content.replace(/^<!-- Written by forge init.*-->\n\n?/m, ''));
      if (merged === null)
        throw new RefusedError(
          'AGENTS_MD_MARKERS',
          `${AGENTS_MD}'s forge init markers are not one start line then one end line: forge will not guess which text is its own`,
          { fix: ctx.cmd('read', abs) },
        );
      if (args.print)
        return {
          data: { path: AGENTS_MD, written: false, content: merged, ...facts },
          text: merged.trimEnd(),
          next: ctx.cmd('init', '--agents-md'),
        };
      const r = await writeWhole({ ws, path: AGENTS_MD, content: merged, overwrite: true });
      return {
        data: { path: abs, written: true, lines: r.lines, updated: existing !== null, ...facts },
        text: `${existing === null ? 'wrote' : "updated forge's section of"} ${abs} (${r.lines} lines)`,
        next: ctx.cmd('read', abs),
      };
    }
    if (args.print)
      return { data: { path: CONVENTIONS_PATH, written: false, content, ...facts }, text: content.trimEnd(), next: ctx.cmd('init') };
    const exists = await stat(join(root, CONVENTIONS_PATH)).then(
      () => true,
      () => false,
    );
    if (exists && !args.force)
      throw new RefusedError('CONVENTIONS_EXIST', `${CONVENTIONS_PATH} exists; it may hold your own edits`, {
        fix: ctx.cmd('init', '--force'),
      });
    const r = await writeWhole({ ws, path: CONVENTIONS_PATH, content, overwrite: true });
    return {
      data: { path: join(root, CONVENTIONS_PATH), written: true, lines: r.lines, ...facts },
      text: `wrote ${join(root, CONVENTIONS_PATH)} (${r.lines} lines): ${[facts.languages.join(', '), facts.commands.map((c) => c.what).join('/'), facts.tests.files ? `${facts.tests.files} test files` : ''].filter(Boolean).join('; ')}`,
      next: ctx.cmd('read', join(root, CONVENTIONS_PATH)),
    };
  },
});
