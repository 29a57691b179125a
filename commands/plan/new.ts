// forge plan new: start a plan contract from a template whose envelopes already pass forge plan check.
import { defineCommand } from '../../lib/cli/declare';
import { InvalidInputError } from '../../lib/errors';
import { detectConventions } from '../../lib/init/conventions';
import { planTemplate } from '../../lib/plans/template';
import { writeWhole } from '../../lib/files/write';
import { CONFINEMENT_ERRORS, openWorkspace } from '../../lib/files/workspace';
import { relative, join } from 'node:path';

export default defineCommand({
  name: 'plan new',
  summary: 'Write docs/plans/<date>-<slug>-plan.md from a template with envelope stubs',
  tool: 'Start a plan from a template',
  description:
    'Creates a Markdown plan contract at the top of the repository: frontmatter with an envelope (parent rails, blast radius, budget caps, requirements) and two units with ```envelope blocks, ready to edit. The template passes forge plan check as written. An existing file is never replaced.',
  args: {
    slug: {
      type: 'string',
      positional: true,
      required: true,
      placeholder: 'SLUG',
      tool: 'Lowercase words joined by dashes',
      description: 'Lowercase words joined by dashes, e.g. add-oauth-login.',
    },
    date: {
      type: 'string',
      placeholder: 'YYYY-MM-DD',
      tool: 'YYYY-MM-DD',
      description: "The plan's date, which starts its file name and plan_id (default: today, UTC).",
    },
  },
  examples: [
    { command: 'forge plan new add-oauth-login', description: 'Start a plan, then edit its envelopes and run forge plan check.' },
    {
      command: 'forge plan new login --date 2026-11-22',
      description: 'A plan dated the day the work starts: docs/plans/2026-11-22-login-plan.md.',
    },
  ],
  errors: {
    ...CONFINEMENT_ERRORS,
    INVALID_ARGUMENT: 'a slug that is not lowercase words joined by dashes, or a --date that is not a real YYYY-MM-DD date',
    FILE_EXISTS: 'a plan with that name exists already',
    IS_A_DIRECTORY: 'the plan path is a directory',
    NOT_A_DIRECTORY: 'a file is where docs/plans must be a directory',
    NOT_A_REGULAR_FILE: 'the plan path is a FIFO, socket or device',
  },
  exits: {
    0: 'written',
    1: "the file exists, or is not a regular file, or is in git's own files",
    2: 'invalid slug or date, or a path that leaves the repository',
  },
  mutates: true,
  mcp: { title: 'Write a new plan', toolset: 'plans', effect: 'additive' },
  async run(args, ctx) {
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(args.slug) || args.slug.length > 80) {
      // The slug the words would make (`add subtract` → add-subtract): the Fix runs it, nothing is guessed silently.
      const slug = args.slug
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 80)
        .replace(/-+$/, '');
      throw new InvalidInputError('INVALID_ARGUMENT', `slug '${args.slug}' must be lowercase letters and digits joined by dashes`, {
        fix: slug ? ctx.cmd('plan', 'new', slug, ...(args.date ? ['--date', args.date] : [])) : 'forge plan new --help',
      });
    }
    const date = args.date ?? ctx.now().toISOString().slice(0, 10);
    // A real calendar day: 2026-02-30 does not survive the round trip through Date.
    if (
      !/^\d{4}-\d\d-\d\d$/.test(date) ||
      Number.isNaN(Date.parse(`${date}T00:00:00Z`)) ||
      new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) !== date
    ) {
      throw new InvalidInputError('INVALID_ARGUMENT', `date '${date}' is not a day written YYYY-MM-DD`, {
        fix: ctx.cmd('plan', 'new', args.slug, '--date', ctx.now().toISOString().slice(0, 10)),
      });
    }
    const ws = await openWorkspace({ cwd: ctx.cwd, warn: ctx.warn });
    const path = relative(ctx.cwd, join(ws.root, 'docs', 'plans', `${date}-${args.slug}-plan.md`));
    // U2 is proved by the repository's own test command, found as forge init finds it.
    const testCommand = (await detectConventions({ ws })).commands.find((c) => c.what === 'test')?.command ?? null;
    const r = await writeWhole({ ws, path, content: planTemplate({ slug: args.slug, date, testCommand }), overwrite: false });
    return { data: { ...r }, text: `wrote ${r.path}: edit its envelopes, then check it`, next: ctx.cmd('plan', 'check', '--path', r.path) };
  },
});
