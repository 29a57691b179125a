// A module of a JSON module plan as forge validate uses it: its files and verify commands, and what comes next.
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { InvalidInputError, RefusedError } from '../errors';
import type { StateStore } from '../git/state';
import { getIter } from '../iter/iter';
import { MAX_PLAN_BYTES } from '../plans/check';
import { checkModulePlan, type Module } from '../plans/modules';
import { shellJoin } from '../quote';

/** The plan's modules and the one named; a plan that does not check out is refused with its first error. */
export async function planModule({
  cwd,
  plan,
  moduleId,
}: {
  cwd: string;
  plan: string;
  moduleId: string;
}): Promise<{ modules: Module[]; module: Module }> {
  const abs = resolve(cwd, plan);
  const info = await stat(abs).catch(() => null);
  if (!info?.isFile()) throw new InvalidInputError('PLAN_NOT_FOUND', `no module plan at '${plan}'`, { fix: 'forge plan check' });
  if (info.size > MAX_PLAN_BYTES)
    throw new RefusedError('PLAN_INVALID', `'${plan}' is over ${MAX_PLAN_BYTES / 1048576} MB: plans are documents, not data`, {
      fix: shellJoin(['forge', 'plan', 'check', '--path', plan]),
      data: { findings: [], plan },
    });
  const { modules, findings } = await checkModulePlan({ file: plan, text: await readFile(abs, 'utf8'), cwd });
  const error = findings.find((f) => f.severity === 'error');
  if (error) {
    throw new RefusedError('PLAN_INVALID', `${error.file}:${error.line}:${error.col}: ${error.message}`, {
      fix: shellJoin(['forge', 'plan', 'check', '--path', plan]),
      data: { findings: findings.filter((f) => f.severity === 'error'), plan },
    });
  }
  const module = modules.find((m) => m.id === moduleId);
  if (!module) {
    const ids = modules.map((m) => m.id);
    throw new InvalidInputError(
      'MODULE_NOT_FOUND',
      `'${plan}' has no module '${moduleId}'${ids.length ? ` (it has ${ids.join(', ')})` : ''}`,
      {
        fix: ids.length ? shellJoin(['forge', 'validate', ids[0]!, '--plan', plan]) : shellJoin(['forge', 'plan', 'check', '--path', plan]),
      },
    );
  }
  return { modules, module };
}

/** The first module, in plan order, not yet passed whose dependencies have all passed; null when none is ready. */
export function nextReadyModule({ modules, passed }: { modules: Module[]; passed: ReadonlySet<string> }): Module | null {
  return modules.find((m) => !passed.has(m.id) && (m.dependsOn ?? []).every((d) => passed.has(d))) ?? null;
}

/** The plan's modules whose latest attempt in the run passed. */
export async function passedModules({
  store,
  runId,
  modules,
}: {
  store: StateStore;
  runId: string;
  modules: Module[];
}): Promise<Set<string>> {
  const passed = new Set<string>();
  for (const m of modules) if ((await getIter({ store, runId, moduleId: m.id })).lastStatus === 'passed') passed.add(m.id);
  return passed;
}
