// forge eval --report: one self-contained HTML file (inline CSS and SVG, no script, nothing fetched) charting success and tokens per task, one bar per agent and model.
import type { EvalRecord, TaskSummary } from './results';
import { summarize } from './results';

const COLOURS = ['#2f6fde', '#e0692b', '#2a9d5c', '#9b51c9', '#c9a227', '#d1495b', '#4d9de0', '#7a7a7a'];

const htmlText = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const tokens = (r: TaskSummary) => r.promptTokens + r.completionTokens;
const k = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n));

/** One horizontal bar chart: a group of bars per task, one bar per series, scaled to `max`. */
function barChart({
  title,
  tasks,
  series,
  value,
  label,
  max,
  target,
}: {
  title: string;
  tasks: string[];
  series: string[];
  value: (task: string, series: string) => number | null;
  label: (v: number) => string;
  max: number;
  /** A task's target on this scale, drawn as a tick. */
  target?: (task: string) => number | undefined;
}): string {
  const bar = 14;
  const gap = 10;
  const left = 190;
  const width = 420;
  const group = series.length * bar + gap;
  const height = tasks.length * group + 30;
  const scale = (v: number) => (max > 0 ? Math.max(1, Math.round((v / max) * width)) : 1);
  const rows: string[] = [];
  tasks.forEach((task, t) => {
    const y0 = 20 + t * group;
    rows.push(`<text class="task" x="${left - 8}" y="${y0 + (series.length * bar) / 2 + 4}" text-anchor="end">${htmlText(task)}</text>`);
    series.forEach((s, i) => {
      const v = value(task, s);
      if (v === null) return;
      const y = y0 + i * bar;
      rows.push(
        `<rect class="bar" data-task="${htmlText(task)}" data-series="${htmlText(s)}" data-value="${v}" x="${left}" y="${y}" width="${scale(v)}" height="${bar - 2}" fill="${COLOURS[i % COLOURS.length]}"><title>${htmlText(`${task} — ${s}: ${label(v)}`)}</title></rect>`,
        `<text class="value" x="${left + scale(v) + 4}" y="${y + bar - 4}">${htmlText(label(v))}</text>`,
      );
    });
    const goal = target?.(task);
    if (goal !== undefined && max > 0) {
      const x = left + scale(Math.min(goal, max));
      rows.push(
        `<line class="target" x1="${x}" x2="${x}" y1="${y0 - 2}" y2="${y0 + series.length * bar}"><title>${htmlText(`target: ${label(goal)}`)}</title></line>`,
      );
    }
  });
  return `<figure><figcaption>${htmlText(title)}</figcaption><svg role="img" aria-label="${htmlText(title)}" viewBox="0 0 ${left + width + 90} ${height}" width="${left + width + 90}" height="${height}">${rows.join('')}</svg></figure>`;
}

/** The report of one or more evals: a legend, the two charts, and the table they are drawn from. */
export function evalReport({ records, generatedAt }: { records: EvalRecord[]; generatedAt: string }): string {
  const rows = records.flatMap((r) => summarize(r));
  const seriesOf = (r: TaskSummary) => `${r.agent} / ${r.model}${records.length > 1 ? ` (${r.eval})` : ''}`;
  const series = [...new Set(rows.map(seriesOf))];
  const tasks = [...new Set(rows.map((r) => r.task))].sort();
  const find = (task: string, s: string) => rows.find((r) => r.task === task && seriesOf(r) === s);
  const targets = Object.assign({}, ...records.map((r) => r.targets ?? {})) as NonNullable<EvalRecord['targets']>;
  const success = barChart({
    title: 'Success rate per task (runs whose verify commands passed)',
    tasks,
    series,
    value: (t, s) => {
      const r = find(t, s);
      return r ? Math.round(r.successRate * 100) : null;
    },
    label: (v) => `${v}%`,
    max: 100,
  });
  const spent = barChart({
    title: 'Tokens per run (prompt + completion, mean), with the task’s target',
    tasks,
    series,
    value: (t, s) => {
      const r = find(t, s);
      return r ? tokens(r) : null;
    },
    label: k,
    max: Math.max(0, ...rows.map(tokens), ...tasks.map((t) => targets[t]?.tokens ?? 0)),
    target: (t) => targets[t]?.tokens,
  });
  const legend = series
    .map((s, i) => `<li><span class="swatch" style="background:${COLOURS[i % COLOURS.length]}"></span>${htmlText(s)}</li>`)
    .join('');
  const header = [
    'task',
    'agent / model',
    'success',
    'tool calls',
    're-reads',
    'requests',
    'prompt',
    'completion',
    'uncached',
    'largest',
    'wall',
    'looped',
  ];
  const table = rows
    .sort((a, b) => (a.task < b.task ? -1 : a.task > b.task ? 1 : 0))
    .map(
      (r) =>
        `<tr><td>${htmlText(r.task)}</td><td>${htmlText(seriesOf(r))}</td><td>${r.passed}/${r.runs} (${Math.round(r.successRate * 100)}%)</td><td>${r.toolCalls}</td><td>${r.reReads}</td><td>${r.requests}</td><td>${r.promptTokens}</td><td>${r.completionTokens}</td><td>${r.uncachedTokens}</td><td>${r.largestRequest}</td><td>${(r.wallMs / 1000).toFixed(1)} s</td><td>${r.looped}</td></tr>`,
    )
    .join('');
  const evals = records
    .map(
      (r) =>
        `<li>${htmlText(r.id)}: ${htmlText(r.endpoint)}, model ${htmlText(r.model)}, ${r.runs.length} runs, started ${htmlText(r.startedAt)}</li>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>forge eval report</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.4em; }
figure { margin: 1.5em 0; }
figcaption { font-weight: 600; margin-bottom: .4em; }
svg text { font: 12px system-ui, sans-serif; fill: #222; }
svg .target { stroke: #222; stroke-width: 2; stroke-dasharray: 3 2; }
.legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 1em; }
.swatch { display: inline-block; width: .9em; height: .9em; margin-right: .4em; vertical-align: -.1em; }
table { border-collapse: collapse; }
th, td { border: 1px solid #ccc; padding: .25em .6em; text-align: right; }
th:nth-child(-n+2), td:nth-child(-n+2) { text-align: left; }
</style>
</head>
<body>
<h1>forge eval</h1>
<p>Each task ran in a fresh repository; success was decided by the task's verify commands, tokens counted by forge's recording proxy between the agent and the model. Generated ${htmlText(generatedAt)}.</p>
<ul class="evals">${evals}</ul>
<ul class="legend">${legend}</ul>
${success}
${spent}
<table><thead><tr>${header.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${table}</tbody></table>
</body>
</html>
`;
}
