// A one-unit plan contract for the gate tests: src/** in scope, docs/** allowed by the parent, the tools each test needs.

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
