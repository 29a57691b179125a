// Markdown plan contracts: an `envelope:` in the frontmatter (parent rails) and an ```envelope block
// under each `### U<N>` heading (the unit's narrowing), checked to be narrower on every field.
import { NO_TEST_COMMAND, PLACEHOLDERS } from './template';
import type { FindingCode } from '../error-codes';
import { ID_PATTERN } from '../errors';
import { SURFACES, type Surface } from './surface';
import { ALLOWED_TOOL_PATTERN } from './tools';
import { checkShape, parseLocated, type Finding, type Located, type Shape } from './yaml';

/** Still read from here by the plan's readers (the gate, preflight, the state schemas). */
export { SURFACES, type Surface };

const STRINGS: Shape = 'string[]';

export const ENVELOPE_SHAPE: Shape = {
  fields: {
    plan_id: 'string',
    plan_contract_version: 'integer',
    parent_rails: {
      fields: { allowed_tools: STRINGS, allowed_paths: STRINGS, surface: { enum: SURFACES } },
      required: ['allowed_tools', 'allowed_paths', 'surface'],
    },
    parent_blast_radius: {
      fields: {
        path_globs: STRINGS,
        budget_caps: { fields: { files_changed: 'integer', runs: 'integer', wall_time: 'duration', tokens: 'integer' } },
      },
      required: ['path_globs'],
    },
    requirements: STRINGS,
  },
  required: ['plan_id', 'plan_contract_version', 'parent_rails', 'parent_blast_radius'],
};

export const UNIT_SHAPE: Shape = {
  fields: {
    allowed_tools: STRINGS,
    allowed_paths: STRINGS,
    surface: { enum: SURFACES },
    context_tokens_expected: 'integer',
    verification: { fields: { kind: { enum: ['command'] }, command: 'string' }, required: ['kind', 'command'] },
    requirements: STRINGS,
    advance_evidence_required: { fields: { verification_pass: 'boolean' } },
  },
  required: ['allowed_tools', 'allowed_paths'],
};

export interface Envelope {
  plan_id: string;
  plan_contract_version: number;
  parent_rails: { allowed_tools: string[]; allowed_paths: string[]; surface: Surface };
  parent_blast_radius: {
    path_globs: string[];
    budget_caps?: { files_changed?: number; runs?: number; wall_time?: number | string; tokens?: number };
  };
  requirements?: string[];
}

export interface Unit {
  id: string;
  title: string;
  line: number;
  allowed_tools: string[];
  allowed_paths: string[];
  surface?: Surface;
  context_tokens_expected?: number;
  verification?: { kind: 'command'; command: string };
  requirements?: string[];
  advance_evidence_required?: { verification_pass?: boolean };
}

export interface MarkdownPlan {
  file: string;
  legacy: boolean;
  envelope: Envelope | null;
  units: Unit[];
}

/** The literal part of a glob before its first wildcard. */
function staticPrefix(glob: string): string {
  const i = glob.search(/[*?[{]/);
  return i < 0 ? glob : glob.slice(0, i);
}

/**
 * Whether every path `inner` matches is matched by `outer` — decided for the shapes plans use:
 * equal globs, a literal path `outer` matches, or `outer` is `<dir>/**` and `inner` lies under dir.
 */
export async function globCovers(outer: string, inner: string): Promise<boolean> {
  if (outer === inner || outer === '**') return true;
  const { default: picomatch } = await import('picomatch');
  if (!/[*?[{]/.test(inner)) return picomatch(outer, { dot: true })(inner);
  const m = /^(.*?)\/?\*\*(\/\*)?$/.exec(outer);
  if (m && !/[*?[{]/.test(m[1]!)) {
    const dir = m[1] ? `${m[1]}/` : '';
    return staticPrefix(inner).startsWith(dir);
  }
  return false;
}

async function globsCovered(outer: string[], inner: string[]): Promise<string[]> {
  const uncovered: string[] = [];
  for (const g of inner) if (!(await someCovers(outer, g))) uncovered.push(g);
  return uncovered;
}

/** Whether some glob of `outer` covers every path `g` matches. */
export async function someCovers(outer: string[], g: string): Promise<boolean> {
  for (const o of outer) if (await globCovers(o, g)) return true;
  return false;
}

/** allowed_tools entries are plan words, mcp:<server>, or one tool's exact name: anything else allows nothing. */
function checkToolEntries(tools: string[], report: (index: number, message: string) => void): void {
  tools.forEach((t, i) => {
    if (!ALLOWED_TOOL_PATTERN.test(t))
      report(
        i,
        `allowed_tools entry '${t}' is not a plan word (read, edit, search, web, agent…), mcp:<server>, or a tool's name (WebFetch, mcp__github__create_pr)`,
      );
  });
}

interface Block {
  text: string;
  /** File line of the block's first content line. */
  line: number;
  unit: { id: string; title: string; line: number } | null;
}

/** Splits a Markdown plan into its frontmatter and its ```envelope blocks with their units. */
function scan(text: string): {
  front: { text: string; line: number } | null;
  blocks: Block[];
  headings: Array<{ id: string; title: string; line: number }>;
} {
  const lines = text.split('\n');
  let front: { text: string; line: number } | null = null;
  let i = 0;
  if (lines[0]?.trim() === '---') {
    const end = lines.findIndex((l, k) => k > 0 && (l.trim() === '---' || l.trim() === '...'));
    if (end > 0) {
      front = { text: lines.slice(1, end).join('\n'), line: 2 };
      i = end + 1;
    }
  }
  const blocks: Block[] = [];
  const headings: Array<{ id: string; title: string; line: number }> = [];
  let unit: Block['unit'] = null;
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    const h = /^###\s+(U\d+)\b\s*[—–:-]?\s*(.*)$/.exec(line);
    if (h) {
      unit = { id: h[1]!, title: h[2]!.trim(), line: i + 1 };
      headings.push(unit);
      continue;
    }
    if (/^#{1,2}\s/.test(line)) unit = null;
    const fence = /^(`{3,}|~{3,})\s*envelope\s*$/.exec(line);
    if (fence) {
      const close = lines.findIndex((l, k) => k > i && l.trim() === fence[1]);
      const end = close < 0 ? lines.length : close;
      blocks.push({ text: lines.slice(i + 1, end).join('\n'), line: i + 2, unit });
      i = end;
    }
  }
  return { front, blocks, headings };
}

const ORDER: Record<Surface, number> = { artifacts_only: 0, local_branch: 1, remote_branch_pr: 2 };

/** An error finding at the start of a line of the plan (the whole plan's, a heading's, a fence's). */
function lineFinding({ file, line, code, message }: { file: string; line: number; code: FindingCode; message: string }): Finding {
  return { file, line, col: 1, severity: 'error', code, message };
}

/** The frontmatter parsed with positions, and its fields when it is a map; YAML errors and a non-map go to `findings`. */
async function readFrontmatter({
  file,
  front,
  findings,
}: {
  file: string;
  front: { text: string; line: number } | null;
  findings: Finding[];
}): Promise<{ frontDoc: Located | null; frontValue: Record<string, unknown> }> {
  if (!front) return { frontDoc: null, frontValue: {} };
  const r = await parseLocated({ file, text: front.text, baseLine: front.line });
  findings.push(...r.findings);
  const frontDoc = r.located;
  const v = frontDoc?.value();
  if (v !== undefined && v !== null && (typeof v !== 'object' || Array.isArray(v))) {
    findings.push(frontDoc!.finding([], 'INVALID_TYPE', 'the frontmatter must be a map of fields'));
    return { frontDoc, frontValue: {} };
  }
  return { frontDoc, frontValue: (v as Record<string, unknown> | null | undefined) ?? {} };
}

/** The frontmatter's envelope when its shape holds (null otherwise); a bad plan_id, tool entry or version is a finding. */
function checkEnvelope({ frontDoc, value, findings }: { frontDoc: Located; value: unknown; findings: Finding[] }): Envelope | null {
  checkShape({ located: frontDoc, value, shape: ENVELOPE_SHAPE, path: ['envelope'], findings });
  if (findings.length) return null;
  const envelope = value as Envelope;
  if (!ID_PATTERN.test(envelope.plan_id) || envelope.plan_id === '.' || envelope.plan_id === '..') {
    findings.push(
      frontDoc.finding(
        ['envelope', 'plan_id'],
        'INVALID_ID',
        `plan_id '${envelope.plan_id}' must be 1-128 letters, digits, '_', '.' or '-' (it names state paths)`,
      ),
    );
  }
  checkToolEntries(envelope.parent_rails.allowed_tools, (i, message) =>
    findings.push(frontDoc.finding(['envelope', 'parent_rails', 'allowed_tools', i], 'INVALID_TOOL', message)),
  );
  if (envelope.plan_contract_version !== 1)
    findings.push(
      frontDoc.finding(
        ['envelope', 'plan_contract_version'],
        'UNSUPPORTED_VERSION',
        `plan_contract_version ${envelope.plan_contract_version} is not supported (this forge reads version 1)`,
      ),
    );
  return envelope;
}

/**
 * One ```envelope block read as its unit: 'unreadable' when its YAML or shape is wrong (the
 * findings say why), null when it names no unit or a unit declared before.
 */
async function readUnit({
  file,
  block,
  seen,
  findings,
}: {
  file: string;
  block: Block;
  seen: Map<string, number>;
  findings: Finding[];
}): Promise<{ unit: Unit; located: Located } | 'unreadable' | null> {
  if (!block.unit) {
    findings.push(
      lineFinding({
        file,
        line: block.line - 1,
        code: 'ORPHAN_ENVELOPE',
        message: 'an ```envelope block outside any ### U<N> unit heading',
      }),
    );
    return null;
  }
  const heading = block.unit;
  const r = await parseLocated({ file, text: block.text, baseLine: block.line });
  findings.push(...r.findings);
  const located = r.located;
  if (!located) return 'unreadable';
  const value = located.value();
  const before = findings.length;
  checkShape({ located, value, shape: UNIT_SHAPE, path: [], findings });
  if (findings.length > before) return 'unreadable';
  checkToolEntries((value as Unit).allowed_tools, (i, message) =>
    findings.push(located.finding(['allowed_tools', i], 'INVALID_TOOL', `${heading.id}: ${message}`)),
  );
  if (seen.has(heading.id)) {
    findings.push(
      lineFinding({
        file,
        line: heading.line,
        code: 'DUPLICATE_UNIT',
        message: `unit ${heading.id} is declared twice (first at line ${seen.get(heading.id)})`,
      }),
    );
    return null;
  }
  seen.set(heading.id, heading.line);
  const unit = { ...(value as Omit<Unit, 'id' | 'title' | 'line'>), id: heading.id, title: heading.title, line: heading.line } as Unit;
  return { unit, located };
}

/** Findings for every way a unit is wider than its parent — rails, blast radius — or names what the plan lacks. */
async function checkNarrower({
  unit,
  located,
  envelope,
  findings,
}: {
  unit: Unit;
  located: Located;
  envelope: Envelope;
  findings: Finding[];
}): Promise<void> {
  const rails = envelope.parent_rails;
  const wider = (field: string, message: string) =>
    findings.push(
      located.finding(
        [field],
        field === 'surface' ? 'SURFACE_WIDER' : field === 'allowed_tools' ? 'TOOLS_WIDER' : 'PATHS_WIDER',
        `${unit.id}: ${message}`,
      ),
    );
  const extraTools = unit.allowed_tools.filter((t) => !rails.allowed_tools.includes(t));
  if (extraTools.length)
    wider('allowed_tools', `allowed_tools ${extraTools.join(', ')} not in the parent rails (${rails.allowed_tools.join(', ')})`);
  const outside = await globsCovered(rails.allowed_paths, unit.allowed_paths);
  if (outside.length)
    wider('allowed_paths', `allowed_paths ${outside.join(', ')} not within the parent rails (${rails.allowed_paths.join(', ')})`);
  if (unit.surface && ORDER[unit.surface] > ORDER[rails.surface])
    wider('surface', `surface ${unit.surface} is wider than the parent's ${rails.surface}`);
  const radius = envelope.parent_blast_radius.path_globs;
  const blast = await globsCovered(radius, unit.allowed_paths);
  if (blast.length)
    findings.push(
      located.finding(
        ['allowed_paths'],
        'BLAST_RADIUS_WIDER',
        `${unit.id}: allowed_paths ${blast.join(', ')} outside the blast radius (${radius.join(', ')})`,
      ),
    );
  if (unit.advance_evidence_required?.verification_pass && !unit.verification)
    findings.push(
      located.finding(
        ['advance_evidence_required', 'verification_pass'],
        'MISSING_FIELD',
        `${unit.id}: verification_pass is required to advance but the unit has no verification command`,
      ),
    );
  for (const req of unit.requirements ?? []) {
    if (envelope.requirements && !envelope.requirements.includes(req))
      findings.push(
        located.finding(
          ['requirements'],
          'UNKNOWN_REQUIREMENT',
          `${unit.id}: requirement ${req} is not among the plan's (${envelope.requirements.join(', ')})`,
        ),
      );
  }
}

/** Findings for a heading without its block, a requirement no unit covers, and a plan with no units at all. */
function checkCompleteness({
  file,
  blocks,
  headings,
  units,
  unreadable,
  envelope,
  frontDoc,
  findings,
}: {
  file: string;
  blocks: Block[];
  headings: Array<{ id: string; line: number }>;
  units: Unit[];
  /** A unit that failed to parse cannot vouch for its requirements: the coverage check is skipped then. */
  unreadable: boolean;
  envelope: Envelope;
  frontDoc: Located;
  findings: Finding[];
}): void {
  for (const h of headings) {
    if (!blocks.some((b) => b.unit?.id === h.id && b.unit.line === h.line))
      findings.push(lineFinding({ file, line: h.line, code: 'MISSING_ENVELOPE', message: `unit ${h.id} has no \`\`\`envelope block` }));
  }
  for (const req of unreadable ? [] : (envelope.requirements ?? [])) {
    if (!units.some((u) => u.requirements?.includes(req)))
      findings.push(frontDoc.finding(['envelope', 'requirements'], 'UNCOVERED_REQUIREMENT', `requirement ${req} is covered by no unit`));
  }
  if (!headings.length && !findings.length)
    findings.push(lineFinding({ file, line: 1, code: 'NO_UNITS', message: 'the plan has an envelope but no ### U<N> units' }));
}

/** A warning for each line that still holds the template's placeholder text: a plan that passes while it says nothing. */
function placeholderFindings(file: string, text: string): Finding[] {
  return text.split('\n').flatMap((line, i) => {
    // The placeholder verification appears JSON-quoted in the envelope.
    const placeholder = [...PLACEHOLDERS, NO_TEST_COMMAND].find((p) => line.includes(p) || line.includes(JSON.stringify(p).slice(1, -1)));
    if (!placeholder) return [];
    const col = Math.max(line.indexOf(placeholder), line.indexOf(JSON.stringify(placeholder).slice(1, -1))) + 1;
    return [
      {
        file,
        line: i + 1,
        col,
        severity: 'warning' as const,
        code: 'TEMPLATE_TEXT' as const,
        message: `still the template's placeholder: "${placeholder}" — say what this plan needs`,
      },
    ];
  });
}

/** Parses and checks one Markdown plan; findings carry file:line:col. */
export async function checkMarkdownPlan({
  file,
  text,
  strict,
}: {
  file: string;
  text: string;
  strict: boolean;
}): Promise<{ plan: MarkdownPlan | null; findings: Finding[] }> {
  const findings: Finding[] = [];
  const { front, blocks, headings } = scan(text);
  const { frontDoc, frontValue } = await readFrontmatter({ file, front, findings });
  if (findings.length) return { plan: null, findings };
  const hasEnvelope = frontValue.envelope !== undefined;
  if (!hasEnvelope && !blocks.length) {
    if (strict)
      findings.push(
        lineFinding({
          file,
          line: 1,
          code: 'LEGACY_PLAN',
          message: 'a legacy plan: no envelope in the frontmatter and no ```envelope blocks (--strict refuses these)',
        }),
      );
    return { plan: { file, legacy: true, envelope: null, units: [] }, findings };
  }
  if (!hasEnvelope || !frontDoc) {
    findings.push(
      lineFinding({
        file,
        line: 1,
        code: 'MISSING_FIELD',
        message: "the plan has ```envelope blocks but no 'envelope:' in its frontmatter",
      }),
    );
    return { plan: null, findings };
  }
  const envelope = checkEnvelope({ frontDoc, value: frontValue.envelope, findings });
  if (!envelope) return { plan: null, findings };
  const units: Unit[] = [];
  const seen = new Map<string, number>();
  let unreadable = false;
  for (const block of blocks) {
    const read = await readUnit({ file, block, seen, findings });
    if (read === 'unreadable') unreadable = true;
    if (read === null || read === 'unreadable') continue;
    units.push(read.unit);
    await checkNarrower({ unit: read.unit, located: read.located, envelope, findings });
  }
  checkCompleteness({ file, blocks, headings, units, unreadable, envelope, frontDoc, findings });
  findings.push(...placeholderFindings(file, text));
  return { plan: { file, legacy: false, envelope, units }, findings };
}
