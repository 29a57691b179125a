// The starting point of a plan contract: every envelope field present, narrower units under wider rails.

/** The template's words a plan's author replaces: forge plan check warns of each one still there (TEMPLATE_TEXT). */
export const PLACEHOLDERS = [
  'the change itself — say what must be true when the plan is done.',
  'its tests — say which tests prove it.',
  'What this unit does, and what it leaves alone.',
  'Tests for the change; the unit ends when they pass.',
] as const;

/**
 * U2's verification when the repository names no test command: it fails, saying what to write, so a
 * plan never advances on a check that tests nothing (`make test` with no Makefile passes by a
 * directory named test).
 */
export const NO_TEST_COMMAND = "echo 'no test command found: write the one that proves U2 here' >&2; exit 1";

/** A plan contract to start from; `testCommand` is the repository's own (forge init finds it the same way). */
export function planTemplate({ slug, date, testCommand = null }: { slug: string; date: string; testCommand?: string | null }): string {
  const title = slug.replace(/-/g, ' ');
  return `---
title: "${title}"
status: draft
envelope:
  plan_id: ${date}-${slug}
  plan_contract_version: 1
  parent_rails:
    allowed_tools: [read, edit, patch, write, search, ls, bash]
    allowed_paths: ["src/**", "test/**", "docs/**"]
    surface: local_branch
  parent_blast_radius:
    path_globs: ["src/**", "test/**", "docs/plans/**"]
    budget_caps:
      files_changed: 20
      runs: 10
      wall_time: 2h
      tokens: 200000
  requirements: [R1, R2]
---

# ${title}

## Requirements

- R1: ${PLACEHOLDERS[0]}
- R2: ${PLACEHOLDERS[1]}

## Units

### U1 — make the change

${PLACEHOLDERS[2]}

\`\`\`envelope
allowed_tools: [read, edit, patch, search, ls]
allowed_paths: ["src/**"]
surface: local_branch
context_tokens_expected: 8000
requirements: [R1]
\`\`\`

### U2 — prove it

${PLACEHOLDERS[3]}

\`\`\`envelope
allowed_tools: [read, edit, write, search, ls, bash]
allowed_paths: ["src/**", "test/**"]
surface: local_branch
context_tokens_expected: 8000
verification:
  kind: command
  command: ${JSON.stringify(testCommand ?? NO_TEST_COMMAND)}
requirements: [R2]
advance_evidence_required:
  verification_pass: true
\`\`\`
`;
}
