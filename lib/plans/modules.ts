// JSON module plans (.forge/modules/*.json): required fields, dependencies (unknown, cycles), verify
// commands on PATH, and modules that could run in parallel yet touch the same files.
import { access, constants } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';
import { ID_PATTERN } from '../errors';
import { checkShape, parseLocated, type Finding, type Located, type Shape } from './yaml';

export interface Module {
  id: string;
  title: string;
  objective: string;
  files: string[];
  verify: string[] | string;
  doneWhen: string | string[];
  dependsOn?: string[];
  /** Symbols the module works on (forge agent --plan gives the step their definitions). */
  symbols?: string[];
  /** How hard the module is, for forge agent's model routes (STEP_CATEGORIES; anything else is standard). */
  category?: string;
}

/** The categories a module may declare: forge agent --plan runs it with the profile's model route of that name. */
export const STEP_CATEGORIES = ['deep', 'standard', 'quick', 'search'] as const;
export type StepCategory = (typeof STEP_CATEGORIES)[number];

const MODULE_SHAPE: { fields: Record<string, Shape>; required: string[] } = {
  fields: {
    id: 'string',
    title: 'string',
    objective: 'string',
    files: 'string[]',
    verify: 'string[]',
    doneWhen: 'string',
    dependsOn: 'string[]',
    symbols: 'string[]',
    category: 'string',
  },
  required: ['id', 'title', 'objective', 'files', 'verify', 'doneWhen'],
};

/** A module's verify commands as a list (a plan may give one string). */
export function verifyCommands(m: Module): string[] {
  return typeof m.verify === 'string' ? [m.verify] : m.verify;
}

/** The program a verify command runs: its first word after any VAR=value assignments. */
export function programOf(command: string): string | null {
  const words = command.trim().split(/\s+/);
  const w = words.find((x) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(x));
  return w ? w.replace(/^['"]|['"]$/g, '') : null;
}

/** Whether `program` is executable: a path as given, else found on PATH — no shell involved. */
export async function onPath({ program, cwd, path }: { program: string; cwd: string; path: string }): Promise<boolean> {
  const executable = (p: string) =>
    access(p, constants.X_OK).then(
      () => true,
      () => false,
    );
  if (program.includes('/')) return executable(isAbsolute(program) ? program : join(cwd, program));
  for (const dir of path.split(delimiter).filter(Boolean)) if (await executable(join(dir, program))) return true;
  return false;
}

/** The shape one module must have: verify and doneWhen may be one string or a list. */
function moduleShape(raw: unknown): Shape {
  const r = raw as Partial<Module> | null;
  return {
    ...MODULE_SHAPE,
    fields: {
      ...MODULE_SHAPE.fields,
      verify: typeof r?.verify === 'string' ? 'string' : 'string[]',
      doneWhen: Array.isArray(r?.doneWhen) ? 'string[]' : 'string',
    },
  };
}

/**
 * The modules whose shape holds, in order; a bad or repeated id, and (given a PATH) a verify
 * program that is not on it, are findings.
 */
async function readModules({
  located,
  list,
  cwd,
  path,
  findings,
}: {
  located: Located;
  list: unknown[];
  cwd: string;
  path?: string;
  findings: Finding[];
}): Promise<Module[]> {
  const modules: Module[] = [];
  const seen = new Set<string>();
  for (const [i, raw] of list.entries()) {
    const before = findings.length;
    checkShape({ located, value: raw, shape: moduleShape(raw), path: ['modules', i], findings });
    if (findings.length > before) continue;
    const m = raw as Module;
    if (!ID_PATTERN.test(m.id))
      findings.push(
        located.finding(['modules', i, 'id'], 'INVALID_ID', `module id '${m.id}' must be 1-128 letters, digits, '_', '.' or '-'`),
      );
    if (seen.has(m.id)) findings.push(located.finding(['modules', i, 'id'], 'DUPLICATE_MODULE', `module id '${m.id}' appears twice`));
    seen.add(m.id);
    if (m.category !== undefined && !(STEP_CATEGORIES as readonly string[]).includes(m.category))
      findings.push(
        located.finding(
          ['modules', i, 'category'],
          'UNKNOWN_CATEGORY',
          `${m.id}: category '${m.category}' is none of ${STEP_CATEGORIES.join(', ')}; the module runs as standard`,
          'warning',
        ),
      );
    modules.push(m);
    if (path === undefined) continue;
    for (const [k, command] of verifyCommands(m).entries()) {
      const program = programOf(command);
      if (program && !(await onPath({ program, cwd, path }))) {
        findings.push(
          located.finding(
            ['modules', i, 'verify', ...(typeof m.verify === 'string' ? [] : [k])],
            'COMMAND_NOT_FOUND',
            `${m.id}: verify command '${program}' is not on PATH`,
          ),
        );
      }
    }
  }
  return modules;
}

/** What each check of the plan as a whole reads (the located document, its modules) and where it adds findings. */
interface PlanChecks {
  located: Located;
  list: unknown[];
  modules: Module[];
  findings: Finding[];
}

/** A dependsOn naming no module of the plan. */
function checkDependencies({ located, list, modules, findings }: PlanChecks): void {
  const ids = new Set(modules.map((m) => m.id));
  for (const m of modules) {
    const i = list.indexOf(m);
    (m.dependsOn ?? []).forEach((d, k) => {
      if (!ids.has(d))
        findings.push(
          located.finding(
            ['modules', i, 'dependsOn', k],
            'UNKNOWN_DEPENDENCY',
            `${m.id} depends on '${d}', which is not a module of this plan`,
          ),
        );
    });
  }
}

/** Dependency cycles, each once, by depth-first search so the cycle can be named in order. */
function checkCycles({ located, list, modules, findings }: PlanChecks): void {
  const state = new Map<string, 'open' | 'done'>();
  const byId = new Map(modules.map((m) => [m.id, m]));
  const stack: string[] = [];
  const reported = new Set<string>();
  const visit = (id: string) => {
    state.set(id, 'open');
    stack.push(id);
    for (const d of byId.get(id)?.dependsOn ?? []) {
      if (!byId.has(d)) continue;
      if (state.get(d) === 'open') {
        const cycle = [...stack.slice(stack.indexOf(d)), d];
        const key = [...cycle.slice(0, -1)].sort().join(',');
        if (!reported.has(key)) {
          reported.add(key);
          const i = list.indexOf(byId.get(id)!);
          findings.push(located.finding(['modules', i, 'dependsOn'], 'DEPENDENCY_CYCLE', `dependency cycle: ${cycle.join(' → ')}`));
        }
      } else if (!state.has(d)) visit(d);
    }
    stack.pop();
    state.set(id, 'done');
  };
  for (const m of modules) if (!state.has(m.id)) visit(m.id);
}

/** Modules with no dependency path between them may run in parallel: files both change will collide (a warning). */
function checkOverlaps({ located, list, modules, findings }: PlanChecks): void {
  const byId = new Map(modules.map((m) => [m.id, m]));
  const reaches = (from: string, to: string, seenIds = new Set<string>()): boolean =>
    (byId.get(from)?.dependsOn ?? []).some((d) => d === to || (!seenIds.has(d) && (seenIds.add(d), reaches(d, to, seenIds))));
  for (let a = 0; a < modules.length; a++) {
    for (let b = a + 1; b < modules.length; b++) {
      const [ma, mb] = [modules[a]!, modules[b]!];
      const shared = ma.files.filter((f) => mb.files.includes(f));
      if (shared.length && !reaches(ma.id, mb.id) && !reaches(mb.id, ma.id)) {
        findings.push(
          located.finding(
            ['modules', list.indexOf(mb), 'files'],
            'FILE_OVERLAP',
            `modules ${ma.id} and ${mb.id} both change ${shared.join(', ')} but could run in parallel; add a dependsOn edge`,
            'warning',
          ),
        );
      }
    }
  }
}

/**
 * The modules of a JSON module plan and what is wrong with it. Without `path` (a PATH value) verify
 * commands are not looked up: forge validate runs them and reports what fails.
 */
export async function checkModulePlan({
  file,
  text,
  cwd,
  path,
}: {
  file: string;
  text: string;
  cwd: string;
  path?: string;
}): Promise<{ modules: Module[]; findings: Finding[] }> {
  const parsed = await parseLocated({ file, text, baseLine: 1 });
  const findings = [...parsed.findings];
  const located = parsed.located;
  if (!located) return { modules: [], findings };
  const value = located.value() as { modules?: unknown } | null;
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Array.isArray(value.modules)) {
    findings.push(
      located.finding(
        ['modules'],
        value && typeof value === 'object' && 'modules' in value ? 'INVALID_TYPE' : 'MISSING_FIELD',
        "a module plan is an object with a 'modules' list",
      ),
    );
    return { modules: [], findings };
  }
  const list = value.modules as unknown[];
  // A plan with nothing to do would pass every check and then do nothing.
  if (!list.length) findings.push(located.finding(['modules'], 'EMPTY_PLAN', 'the plan has no modules'));
  const modules = await readModules({ located, list, cwd, path, findings });
  checkDependencies({ located, list, modules, findings });
  checkCycles({ located, list, modules, findings });
  checkOverlaps({ located, list, modules, findings });
  return { modules, findings };
}
