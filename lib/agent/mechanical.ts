// Seed 004's mechanical mode: a task that is a plain replacement ("replace X with Y in src/") read without a model.
/** OLD, NEW and where, as forge replace takes them. */
export interface MechanicalTask {
  old: string;
  replacement: string;
  paths: string[];
  glob?: string;
}

/** A word, or a quoted text ('…', "…", `…`). */
const TEXT = String.raw`"([^"]*)"|'([^']*)'|\x60([^\x60]*)\x60|(\S+)`;
const TASK = new RegExp(
  String.raw`^\s*(?:replace|rename|change|swap)\s+(?:all\s+|every\s+)?(?:${TEXT})\s+(?:with|to|into|by|->|→)\s+(?:${TEXT})(?:\s+(?:in|under|across|within|throughout)\s+(.+?)|\s+everywhere)?\s*\.?\s*$`,
  'is',
);
const EVERYWHERE = /^(?:all files|every file|everywhere|the (?:repo|repository|project)|\.\/?)$/i;

/**
 * The replacement a task asks for, or null when it is not one this grammar reads: `replace|rename|
 * change OLD with|to NEW [in PATH[, PATH | and PATH…]]`, OLD and NEW words or quoted; a place with
 * `*` in it is a glob.
 */
export function parseMechanical(task: string): MechanicalTask | null {
  const m = TASK.exec(task);
  if (!m) return null;
  const old = m[1] ?? m[2] ?? m[3] ?? m[4]!;
  const replacement = m[5] ?? m[6] ?? m[7] ?? m[8]!;
  if (!old) return null;
  const places = (m[9] ?? '').trim();
  const out: MechanicalTask = { old, replacement, paths: [] };
  if (!places || EVERYWHERE.test(places)) return out;
  for (const place of places.split(/\s*(?:,|\band\b)\s*/).filter(Boolean)) {
    if (place.includes('*')) {
      if (out.glob) return null; // forge replace takes one glob
      out.glob = place;
    } else out.paths.push(place);
  }
  return out;
}
