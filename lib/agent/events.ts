// How each event of a model run is told: the record NDJSON readers get and the line a person reads.
import type { AgentEvent } from './agent';
import type { RunRecord } from './io';

/**
 * The record and text line of an event; null for what is not told this way (a request starts the
 * spinner; the text of a streamed reply is already on the screen). `thinking` has no line: a person
 * sees it as progress.
 */
export function describeEvent(e: AgentEvent): { record: RunRecord; text: string } | null {
  switch (e.type) {
    case 'tool_call':
      return {
        record: { type: 'tool_call', name: e.name, arguments: e.arguments, cached: e.cached },
        text: `→ ${e.name} ${e.arguments}${e.cached ? ' (repeated: answered from the earlier result)' : ''}`,
      };
    case 'tool_result':
      return {
        record: { type: 'tool_result', name: e.name, ok: e.ok, chars: e.chars },
        text: `  ${e.ok ? 'ok' : 'failed'} (${e.chars} chars)`,
      };
    case 'compressed': {
      const { type, ...counts } = e;
      return { record: { type, ...counts }, text: `  (context ${e.before} → ${e.after} tokens: ${fitted(e)})` };
    }
    case 'text':
      return { record: { type: 'text', text: e.text }, text: e.text.trim() };
    case 'thinking':
      return { record: { type: 'thinking', text: e.text }, text: '' };
    case 'reply_note':
      return { record: { type: 'reply_note', text: e.text }, text: `  (${e.text})` };
    case 'done':
      return { record: { type: 'done', turns: e.turns }, text: '' };
    case 'usage':
      return {
        record: { type: 'usage', input: e.input, output: e.output, ...(e.estimated ? { estimated: true } : {}) },
        text: e.estimated
          ? `  (~${e.input} tokens in, ~${e.output} out: counted here, the server sent no usage)`
          : `  (${e.input} tokens in, ${e.output} out)`,
      };
    default:
      return null;
  }
}

/** What the budget did to a request, each kind named as it is: the latest result cut is not an older one compressed. */
function fitted(e: Extract<AgentEvent, { type: 'compressed' }>): string {
  const n = (count: number, one: string, many: string) => (count ? [`${count} ${count === 1 ? one : many}`] : []);
  return [
    ...n(e.images ?? 0, 'attached image left out', 'attached images left out'),
    ...n(e.compressed, 'older result compressed', 'older results compressed'),
    ...n(e.shortened, 'earlier argument shortened', 'earlier arguments shortened'),
    ...n(e.cut, 'latest result cut', 'latest results cut'),
    ...n(e.dropped, 'oldest turn dropped', 'oldest turns dropped'),
  ].join(', ');
}
