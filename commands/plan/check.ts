// forge plan check: validate plan contracts and module plans — the pre-push hook and the CI gate.
import { defineCommand } from '../../lib/cli/declare';
import { CONFINEMENT_ERRORS } from '../../lib/files/workspace';
import { checkPlans, discoverPlans, MAX_PLAN_BYTES } from '../../lib/plans/check';
import { workTreeRoot } from '../../lib/git/repo';

export default defineCommand({
  name: 'plan check',
  summary: 'Validate plan contracts (docs/plans/*.md) and module plans (.forge/modules/*.json)',
  description: [
    'Checks Markdown plan contracts — an envelope: key in the YAML frontmatter (plan_id, plan_contract_version, parent_rails {allowed_tools, allowed_paths, surface}, parent_blast_radius {path_globs, budget_caps}, requirements) and one ```envelope block under each ### U<N> heading — and JSON module plans ({modules: [{id, title, objective, files, verify, doneWhen, dependsOn?, symbols?}]}). With no --path it finds docs/plans/*.md and .forge/modules/*.json at the top of the repository (and warns, OLD_PLACE, about module plans still in .forge/plans/, the name the state ref gives activated contracts).',
    "Every finding is printed as file:line:col with a stable code: YAML errors (tabs, duplicate keys, unknown anchors, alias bombs, absurd nesting…); missing, unknown or mistyped fields; an allowed_tools entry that is neither a plan word (forge plan preflight lists the tool map), mcp:<server> nor one tool's name (INVALID_TOOL); a unit wider than its parent on any field (TOOLS_WIDER: allowed_tools not a subset; PATHS_WIDER: allowed_paths not within the parent globs; SURFACE_WIDER under artifacts_only < local_branch < remote_branch_pr; BLAST_RADIUS_WIDER); duplicate units; requirements no unit covers; and for module plans: dependency cycles (named), unknown dependsOn, verify commands not on PATH (looked up without a shell), and a FILE_OVERLAP warning for modules that could run in parallel yet change the same files. A plan without envelopes is a legacy plan: it passes unless --strict. Plans over 1 MB and non-UTF-8 plans are refused. Nothing is written.",
  ].join('\n\n'),
  args: {
    path: {
      type: 'array',
      tool: 'Plan files or directories (default: all)',
      placeholder: 'PATH',
      description: 'A plan file or a directory of plans (default: docs/plans and .forge/modules).',
    },
    strict: { type: 'boolean', description: 'Refuse legacy plans (no envelope blocks).' },
  },
  examples: [
    { command: 'forge plan check', description: 'Check every plan of the repository (the pre-push hook and CI run this).' },
    { command: 'forge plan check --path docs/plans --strict --json', description: 'Only contracts, one record per finding.' },
  ],
  errors: {
    PLAN_NOT_FOUND: 'a --path that does not exist, or is a device or FIFO',
    ...CONFINEMENT_ERRORS,
  },
  findings: {
    YAML_ERROR: 'the frontmatter or an envelope block is not valid YAML, or its aliases expand too far',
    MISSING_FIELD: 'a required field is missing',
    UNKNOWN_FIELD: 'a field the format does not have',
    INVALID_TYPE: 'a field of the wrong type (an envelope that is a list…)',
    INVALID_ID: 'a plan_id or module id that is not a plain name',
    UNSUPPORTED_VERSION: 'plan_contract_version is not 1',
    TOOLS_WIDER: 'a unit allows tools its parent does not',
    INVALID_TOOL: 'an allowed_tools entry that is no plan word, mcp:<server> or tool name',
    PATHS_WIDER: 'a unit allows paths outside its parent',
    SURFACE_WIDER: 'a unit has a wider surface than its parent',
    BLAST_RADIUS_WIDER: "a unit's paths leave the blast radius",
    DUPLICATE_UNIT: 'a unit id appears twice',
    MISSING_ENVELOPE: 'a unit heading without an envelope block',
    ORPHAN_ENVELOPE: 'an envelope block outside any unit',
    NO_UNITS: 'an envelope but no units',
    UNCOVERED_REQUIREMENT: 'a requirement no unit covers',
    UNKNOWN_REQUIREMENT: 'a unit requirement the plan does not list',
    LEGACY_PLAN: 'a plan without envelopes, with --strict',
    DEPENDENCY_CYCLE: 'modules depend on each other in a cycle',
    UNKNOWN_DEPENDENCY: 'dependsOn names no module',
    DUPLICATE_MODULE: 'a module id appears twice',
    COMMAND_NOT_FOUND: 'a verify command is not on PATH',
    FILE_OVERLAP: 'warning: parallel modules change the same file',
    TEMPLATE_TEXT: "warning: a requirement or unit still holds forge plan new's placeholder text",
    UNKNOWN_CATEGORY: 'warning: a module category that is not deep, standard, quick or search (forge agent runs it as standard)',
    PLAN_TOO_LARGE: `a plan over ${MAX_PLAN_BYTES / 1048576} MB`,
    INVALID_ENCODING: 'a plan that is not UTF-8',
  },
  exits: {
    0: 'every plan is valid (warnings allowed)',
    1: "a plan has errors, or a --path is in git's own files",
    2: 'invocation error: bad flags or a --path that is not a plan file or directory',
  },
  mutates: false,
  mcp: { title: 'Check plan contracts', toolset: 'plans', effect: 'read' },
  async run(args, ctx) {
    const root = (await workTreeRoot({ cwd: ctx.cwd }))?.root ?? ctx.cwd;
    const files = await discoverPlans({ cwd: ctx.cwd, root, paths: args.path });
    const r = await checkPlans({ cwd: ctx.cwd, files, strict: args.strict, path: ctx.env.PATH ?? '' });
    for (const f of r.findings)
      await ctx.emit({ type: f.severity, ...f }, `${f.file}:${f.line}:${f.col}: ${f.severity} ${f.code}: ${f.message}`);
    const errors = r.findings.filter((f) => f.severity === 'error');
    const warnings = r.findings.length - errors.length;
    const first = errors[0];
    const counts = `${errors.length} error${errors.length === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`;
    const kinds = [
      r.contracts.length ? `${r.contracts.length} contract${r.contracts.length === 1 ? '' : 's'}` : '',
      r.legacy.length ? `${r.legacy.length} legacy` : '',
      r.modulePlans.length ? `${r.modulePlans.length} module plan${r.modulePlans.length === 1 ? '' : 's'}` : '',
    ]
      .filter(Boolean)
      .join(', ');
    return {
      data: {
        plans: r.files.length,
        errors: errors.length,
        warnings,
        contracts: r.contracts.map((c) => c.file),
        legacy: r.legacy,
        modulePlans: r.modulePlans,
      },
      text: r.files.length
        ? `${r.files.length} plan${r.files.length === 1 ? '' : 's'} checked${kinds ? ` (${kinds})` : ''}: ${counts}`
        : 'no plans found (docs/plans/*.md, .forge/modules/*.json)',
      exitCode: errors.length ? 1 : 0,
      next: first
        ? ctx.cmd('read', first.file, '--start', Math.max(1, first.line - 2))
        : r.files.length
          ? null
          : ctx.cmd('plan', 'new', 'first-plan'),
    };
  },
});
