// Plans for the tests: a one-unit contract for the gate (src/** in scope, docs/** allowed by the parent, the tools each test needs), and the template filled in.
import { PLACEHOLDERS, planTemplate } from '../../lib/plans/template';

/** The plan the agent-gate tests activate: one unit (U1) that may change src/** with `unitTools`. */
export function oneUnitPlan({
  id,
  title,
  parentTools,
  unitTools,
  surface = 'artifacts_only',
}: {
  id: string;
  title: string;
  parentTools: string[];
  unitTools: string[];
  surface?: string;
}): string {
  return `---
envelope:
  plan_id: ${id}
  plan_contract_version: 1
  parent_rails:
    allowed_tools: [${parentTools.join(', ')}]
    allowed_paths: ["src/**", "docs/**"]
    surface: ${surface}
  parent_blast_radius:
    path_globs: ["src/**"]
  requirements: [R1]
---

# ${title}

### U1 — change src

\`\`\`envelope
allowed_tools: [${unitTools.join(', ')}]
allowed_paths: ["src/**"]
surface: artifacts_only
requirements: [R1]
\`\`\`
`;
}

/** forge plan new's template with its placeholders written over, as an author leaves it (U2 runs `make test`): a plan check finds nothing in it. */
export function filledTemplate({ slug, date }: { slug: string; date: string }): string {
  const words = ['the login form signs a user in.', 'test/login.test.ts passes.', 'Adds the form to src/login.ts.', 'Runs the tests.'];
  return PLACEHOLDERS.reduce(
    (text, placeholder, i) => text.replace(placeholder, words[i]!),
    planTemplate({ slug, date, testCommand: 'make test' }),
  );
}
