// How a run is shown as it goes: a spinner and the streamed text on a terminal, each event as its record or line.
import type { RunContext } from '../../lib/cli/declare';
import type { AgentEvent } from '../../lib/agent/agent';
import { describeEvent } from '../../lib/agent/events';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** How a run is shown as it goes: on a terminal a spinner while the model thinks and its text as it streams in; each event as its record or line. */
export function liveView(ctx: RunContext) {
  let spinner: NodeJS.Timeout | null = null;
  let shown = Promise.resolve();
  let streamedText = false;
  const quiet = async () => {
    if (!spinner) return;
    clearInterval(spinner);
    spinner = null;
    await ctx.status(null);
  };
  const onDelta = (piece: string) => {
    shown = shown.then(async () => {
      await quiet();
      if (await ctx.live(piece)) streamedText = true;
    });
  };
  const onEvent = async (e: AgentEvent) => {
    if (e.type === 'request') {
      let frame = 0;
      spinner ??= setInterval(() => void ctx.status(`${SPINNER[frame++ % SPINNER.length]} waiting for ${e.model}`), 120);
      spinner.unref();
      return;
    }
    await shown;
    await quiet();
    if (e.type === 'text' && streamedText) {
      // Already on the screen as it streamed: end its line; the record still goes out with --json.
      streamedText = false;
      await ctx.live('\n');
      await ctx.emit({ type: 'text', text: e.text }, '');
      return;
    }
    const told = describeEvent(e);
    if (told) await ctx.emit(told.record, told.text);
    // Reasoning is for a person watching (dimmed on a terminal's stderr); with --json, a record.
    if (e.type === 'thinking')
      await ctx.progress(`(thinking) ${e.text.replace(/\s+/g, ' ').slice(0, 300)}${e.text.length > 300 ? '…' : ''}`);
  };
  return { onEvent, onDelta, quiet };
}

export type LiveView = ReturnType<typeof liveView>;
