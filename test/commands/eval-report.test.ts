// forge eval --report: one self-contained HTML file, laid out by a real headless browser (Chromium, when installed) with bars as long as their figures.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/harness';
import * as assert from 'uvu/assert';
import { forge } from '../helpers/forge';
import { tempDir, tempRepo } from '../helpers/repo';
import { plantState } from '../helpers/state';

/** One run's record as forge eval writes it. */
const run = (task: string, agent: string, success: boolean, tokens: number) => ({
  type: 'run',
  task,
  run: 1,
  agent,
  model: 'qwen3:14b',
  success,
  failure: success ? null : 'node --test: exit 1',
  agentExit: 0,
  timedOut: false,
  requests: 3,
  toolCalls: 2,
  promptTokens: tokens - 100,
  completionTokens: 100,
  uncachedTokens: tokens / 2,
  largestRequest: tokens / 2,
  usageReported: true,
  looped: false,
  wallMs: 4000,
});

const EVALS = {
  'eval-a': {
    id: 'eval-a',
    startedAt: '2026-11-29T10:00:00.000Z',
    endpoint: 'http://localhost:11434/v1',
    model: 'qwen3:14b',
    agents: ['forge'],
    suite: 'shipped',
    targets: { 'remove-console-log': { toolCalls: 5, tokens: 5000 }, 'rename-columns': { toolCalls: 3 } },
    runs: [run('remove-console-log', 'forge', true, 4000), run('rename-columns', 'forge', true, 2000)],
  },
  'eval-b': {
    id: 'eval-b',
    startedAt: '2026-11-29T11:00:00.000Z',
    endpoint: 'http://localhost:11434/v1',
    model: 'qwen3:14b',
    agents: ['opencode'],
    suite: 'shipped',
    runs: [
      run('remove-console-log', 'opencode', false, 8000),
      { ...run('remove-console-log', 'opencode', true, 8000), run: 2 },
      run('rename-columns', 'opencode', false, 6000),
    ],
  },
};

/** Chromium's program when it is installed (Debian's chromium, or Chrome), else null. */
function chromium(): string | null {
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    const r = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
    if (r.status === 0) return r.stdout.trim();
  }
  return null;
}

/** What the browser laid out: each bar's box and figures, each target line, the page's text width. */
const MEASURE = `<script>
addEventListener('load', () => {
  const bars = [...document.querySelectorAll('rect.bar')].map((r) => {
    const box = r.getBBox();
    const svg = r.ownerSVGElement.viewBox.baseVal;
    return { task: r.dataset.task, series: r.dataset.series, value: Number(r.dataset.value), width: box.width, right: box.x + box.width, svgWidth: svg.width, chart: r.closest('figure').querySelector('figcaption').textContent };
  });
  const targets = [...document.querySelectorAll('line.target')].map((l) => l.getBBox().x);
  const pre = document.createElement('pre');
  pre.id = 'forge-check';
  pre.textContent = JSON.stringify({ bars, targets, rows: document.querySelectorAll('tbody tr').length });
  document.body.append(pre);
});
</script>`;

test('the report of two evals: one file, nothing fetched, a bar per task and agent in each chart, as long as its figure', async () => {
  const dir = tempRepo();
  plantState(dir, Object.fromEntries(Object.entries(EVALS).map(([id, e]) => [`.forge/eval/${id}.json`, `${JSON.stringify(e)}\n`])));
  const r = await forge(['eval', '--compare', '--report', 'out/report.html', '--json'], { cwd: dir });
  assert.is(r.code, 2, 'a directory that is not there is refused');
  assert.match(r.records.at(-1)!.error.message, /^cannot write the report to 'out\/report\.html': ENOENT/);
  const ok = await forge(['eval', '--compare', '--report', 'report.html'], { cwd: dir });
  assert.is(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /\nreport: report\.html\n/);
  const html = readFileSync(join(dir, 'report.html'), 'utf8');
  assert.not.match(html, /\b(src|href)=|@import|url\(|<script/i, 'self-contained: nothing to fetch, nothing to run');
  assert.match(html, /<title>forge eval report<\/title>/);
  assert.is((html.match(/<rect class="bar"/g) ?? []).length, 8, '2 tasks × 2 agents × 2 charts');
  assert.match(
    html,
    /data-task="remove-console-log" data-series="opencode \/ qwen3:14b \(eval-b\)" data-value="50"/,
    'one of two runs passed',
  );

  const browser = chromium();
  if (!browser) {
    console.log('skipped the layout check: no Chromium on PATH (apt-get install chromium)');
    return;
  }
  const page = join(tempDir('forge-report-'), 'measured.html');
  writeFileSync(page, html.replace('</body>', `${MEASURE}</body>`));
  // Chromium keeps a socket in TMPDIR, whose path must stay short: a directory of its own under /tmp, removed after.
  const short = mkdtempSync('/tmp/forge-chromium-');
  let shot: SpawnSyncReturns<string>;
  try {
    shot = spawnSync(
      browser,
      ['--headless', '--no-sandbox', '--disable-gpu', `--user-data-dir=${join(short, 'profile')}`, '--dump-dom', `file://${page}`],
      {
        encoding: 'utf8',
        env: { ...process.env, HOME: short, TMPDIR: short },
      },
    );
  } finally {
    rmSync(short, { recursive: true, force: true });
  }
  assert.is(shot.status, 0, shot.stderr);
  const measured = JSON.parse(
    /<pre id="forge-check">([^<]*)<\/pre>/
      .exec(shot.stdout)![1]!
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&'),
  );
  assert.is(measured.rows, 4);
  const success = measured.bars.filter((b: any) => b.chart.startsWith('Success'));
  const spent = measured.bars.filter((b: any) => b.chart.startsWith('Tokens'));
  assert.equal([success.length, spent.length], [4, 4]);
  // Every bar inside its chart, and as long as its figure: a full bar for 100%, half for 50%.
  for (const b of measured.bars) assert.ok(b.width >= 1 && b.right <= b.svgWidth, JSON.stringify(b));
  const full = success.find((b: any) => b.value === 100).width;
  for (const b of success) assert.ok(Math.abs(b.width - (full * b.value) / 100) <= 1, JSON.stringify(b));
  const most = Math.max(...spent.map((b: any) => b.value));
  const widest = spent.find((b: any) => b.value === most).width;
  for (const b of spent) assert.ok(Math.abs(b.width - (widest * b.value) / most) <= 1, JSON.stringify(b));
  assert.is(measured.targets.length, 1, 'the one task with a tokens target has its tick');
  assert.ok(existsSync(join(dir, 'report.html')));
});

test.run();
