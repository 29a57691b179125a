// Whitespace drift inferred, never guessed: the one indentation transform that maps every line the
// model said was there onto the file's own line, applied to the lines the model adds.
import detectIndent from 'detect-indent';

/** A line the model wrote next to the file's line it matched (same text but for whitespace). */
export interface IndentPair {
  model: string;
  file: string;
}

export type InferResult = { kind: 'ok'; map: (indent: string) => string | null; describe: string } | { kind: 'refused'; reason: string };

const TAB_WIDTHS = [2, 4, 8] as const;
/** File columns per model column: the same unit, or one of 2, 4 and 8 spaces written as another. */
const RATIOS = [1, 2, 0.5, 4, 0.25];

export function indentOf(line: string): string {
  let i = 0;
  while (i < line.length && (line[i] === ' ' || line[i] === '\t')) i++;
  return line.slice(0, i);
}

/** Display columns of an indentation, a tab advancing to the next multiple of `tab`. */
export function columns(indent: string, tab: number): number {
  let col = 0;
  for (const c of indent) col = c === '\t' ? (Math.floor(col / tab) + 1) * tab : col + 1;
  return col;
}

/** `cols` columns written with tabs of width `tab` then spaces, or spaces only (tab null). */
function render(cols: number, tab: number | null): string {
  return tab ? '\t'.repeat(Math.floor(cols / tab)) + ' '.repeat(cols % tab) : ' '.repeat(cols);
}

interface Candidate {
  describe: string;
  map: (indent: string) => string | null;
  /** Unit facts of the texts it agrees with (tens), then its simplicity: breaks ties between transforms that disagree on added lines. */
  evidence: number;
}

/** What a text says about its indentation: its unit in spaces, or that it indents with tabs. */
function unitOf(text: string): { spaces: number | null; tabs: boolean | null } {
  const d = detectIndent(text);
  // One space is alignment (a doc comment's ` * ` under `/**`), not a level.
  return { spaces: d.type === 'space' && d.amount > 1 ? d.amount : null, tabs: d.type === undefined ? null : d.type === 'tab' };
}

/**
 * Every transform that maps each model indentation onto its file indentation exactly: columns
 * (the model's tabs read at width 2, 4 or 8), scaled from one unit to another (4 spaces as 2),
 * shifted by one constant and written the file's way (tabs of width 2, 4 or 8, or spaces) —
 * tabs↔spaces, re-scaled levels, dedent and over-indent, and combinations;
 * or one literal prefix added or removed, for indentation no column rule describes.
 */
function consistentTransforms(pairs: IndentPair[], model: ReturnType<typeof unitOf>, file: ReturnType<typeof unitOf>): Candidate[] {
  const [first] = pairs;
  if (!first) return [];
  const fits = (map: (s: string) => string | null) => pairs.every((p) => map(p.model) === p.file);
  const modelTabs = pairs.some((p) => p.model.includes('\t'));
  const windowTabs = pairs.some((p) => p.file.includes('\t'));
  const windowSpaces = pairs.some((p) => p.file.startsWith(' '));
  // A window with no indentation says nothing of the file's style: the whole file's decides, else
  // the model's own characters (a file with no indentation at all has no style to convert to).
  const tabsInFile = windowTabs || (!windowSpaces && (file.tabs ?? modelTabs));
  const renders: Array<number | null> = tabsInFile ? [...TAB_WIDTHS] : [null];
  const out: Candidate[] = [];
  for (const mt of modelTabs ? TAB_WIDTHS : [8]) {
    // A re-scaling needs old lines at two depths to prove it (at one depth every ratio fits), and is
    // between spaces and spaces: with tabs on either side, the tab width read is the scale.
    const depths = new Set(pairs.map((p) => columns(p.model, mt))).size;
    for (const ft of renders) {
      for (const ratio of depths > 1 && !modelTabs && ft === null ? RATIOS : [1]) {
        const shift = columns(first.file, ft ?? 8) - columns(first.model, mt) * ratio;
        const map = (s: string) => {
          const cols = columns(s, mt) * ratio + shift;
          return cols < 0 || !Number.isInteger(cols) ? null : render(cols, ft);
        };
        if (!fits(map)) continue;
        // One model level becomes one file tab; one model tab one file level; the units' ratio is the ratio.
        const modelUnit = modelTabs ? mt : model.spaces;
        const fileUnit = ft ?? file.spaces;
        const units =
          (ft !== null && model.spaces === ft ? 1 : 0) +
          (modelTabs && file.spaces === mt ? 1 : 0) +
          (modelUnit && fileUnit && ratio !== 1 && ratio === fileUnit / modelUnit ? 1 : 0);
        // Then the simplest explanation: no shift, no re-scaling.
        const evidence = 10 * units + (shift === 0 ? 1 : 0) + (ratio === 1 ? 1 : 0);
        const how = [
          modelTabs ? `tabs read as ${mt} columns` : '',
          ratio !== 1 ? `${ratio > 1 ? ratio : `1/${1 / ratio}`} the columns` : '',
          shift ? `${shift > 0 ? 'indented' : 'dedented'} ${Math.abs(shift)} columns` : '',
          ft ? `written with tabs of ${ft}` : 'written with spaces',
        ];
        out.push({ describe: how.filter(Boolean).join(', '), map, evidence });
      }
    }
  }
  const shown = (p: string) => JSON.stringify(p);
  // A literal prefix reads no tab width and scales nothing: as simple as a transform gets.
  if (first.file.endsWith(first.model)) {
    const prefix = first.file.slice(0, first.file.length - first.model.length);
    const map = (s: string) => prefix + s;
    if (fits(map)) out.push({ describe: `${shown(prefix)} added`, map, evidence: 2 });
  }
  if (first.model.endsWith(first.file)) {
    const prefix = first.model.slice(0, first.model.length - first.file.length);
    const map = (s: string) => (s.startsWith(prefix) ? s.slice(prefix.length) : null);
    if (fits(map)) out.push({ describe: `${shown(prefix)} removed`, map, evidence: 2 });
  }
  return out;
}

/**
 * The indentation transform the model's old lines prove: every non-blank old line's indentation
 * (`pairs`) must map onto its file line's by the same transform. Several transforms that agree on
 * every added line (`added`) are one answer; when they disagree, the units the model's text and
 * the file show (`modelText`, `fileText`) choose, then the simplest (no shift, no re-scaling);
 * still more than one, or none, is a refusal.
 */
export function inferIndent({
  pairs,
  added,
  modelText,
  fileText,
}: {
  pairs: IndentPair[];
  added: string[];
  modelText: string;
  fileText: string;
}): InferResult {
  if (pairs.every((p) => p.model === p.file)) return { kind: 'ok', map: (s) => s, describe: 'indentation as written' };
  const candidates = consistentTransforms(pairs, unitOf(modelText), unitOf(fileText));
  if (!candidates.length) {
    const shown = pairs
      .slice(0, 4)
      .map((p) => `${JSON.stringify(p.model)} → ${JSON.stringify(p.file)}`)
      .join(', ');
    return {
      kind: 'refused',
      reason: `no single indentation change maps the old lines onto the file's (${shown}${pairs.length > 4 ? ', …' : ''})`,
    };
  }
  const outcome = (c: Candidate) => added.map(c.map);
  const placing = candidates.filter((c) => outcome(c).every((s) => s !== null));
  if (!placing.length)
    return { kind: 'refused', reason: `the new lines are indented less than the old lines allow (${candidates[0]!.describe})` };
  const agree = (list: Candidate[]) => new Set(list.map((c) => JSON.stringify(outcome(c)))).size === 1;
  if (agree(placing)) return { kind: 'ok', map: placing[0]!.map, describe: placing[0]!.describe };
  const best = Math.max(...placing.map((c) => c.evidence));
  const preferred = placing.filter((c) => c.evidence === best);
  if (agree(preferred)) return { kind: 'ok', map: preferred[0]!.map, describe: preferred[0]!.describe };
  return {
    kind: 'refused',
    reason: `the old lines fit several indentation changes that place the new lines differently (${preferred.map((c) => c.describe).join('; ')})`,
  };
}
