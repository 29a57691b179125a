// The ways open models write tool calls as text instead of the API's tool_calls: one table, each dialect with where it is defined, read into calls of the tools offered.
import { jsonrepair } from 'jsonrepair';
import { closesOnly } from './replies';

export interface TextToolCall {
  name: string;
  arguments: string;
}

/** What one dialect found in a reply: the calls it read, the text it took them from, and marked calls it could not read. */
interface Found {
  calls: TextToolCall[];
  unreadable: string[];
}

interface Dialect {
  name: string;
  /** Where the format is defined or was seen sent by a server. */
  source: string;
  /** Its marked spans (global): each is replaced by '' once read, or kept and reported when it cannot be. */
  pattern: RegExp;
  /** The calls in one match; null when the span is the dialect's but cannot be read into a known tool's call. */
  read(match: RegExpExecArray, known: ReadonlySet<string>): TextToolCall[] | null;
  /** A match that reads as no call is prose (a JSON example), not an unreadable call. */
  quietWhenUnread?: boolean;
}

/**
 * The dialects, most specific first: a span one reads is gone before the next looks. A marked span
 * (a tag, a special token) that cannot be read is reported, never taken as the answer; a fence or
 * bare JSON that names no offered tool is prose.
 */
export const DIALECTS: readonly Dialect[] = [
  {
    name: 'qwen3-coder xml',
    source: 'https://huggingface.co/Qwen/Qwen3-Coder-30B-A3B-Instruct/blob/main/chat_template.jinja',
    pattern: /(?:<tool_call>\s*)?<function=([^>\s]+)>\s*((?:<parameter=[\s\S]*?<\/parameter>\s*)*)<\/function>(?:\s*<\/tool_call>)?/g,
    read: (m, known) => one(m[1]!, parametersXml(m[2]!), known),
  },
  {
    name: 'llama 3.1 function tag',
    source: 'https://www.llama.com/docs/model-cards-and-prompt-formats/llama3_1/',
    pattern: /<function=([^>\s]+)>\s*(\{[\s\S]*?\})\s*<\/function>/g,
    read: (m, known) => one(m[1]!, m[2]!, known),
  },
  {
    name: 'hermes tool_call tag',
    source: 'https://github.com/NousResearch/Hermes-Function-Calling',
    pattern: /<tool_call>\s*([\s\S]*?)\s*(?:<\/tool_call>|$)/g,
    read: (m, known) => jsonCalls(m[1]!, known),
  },
  {
    name: 'llama 3.1 python_tag',
    source: 'https://www.llama.com/docs/model-cards-and-prompt-formats/llama3_1/#json-based-tool-calling',
    pattern: /<\|python_tag\|>\s*([\s\S]*?)\s*(?:<\|eom_id\|>|<\|eot_id\|>|$)/g,
    // JSON calls separated by ';', or (Llama 3.3) a bare pythonic call.
    read: (m, known) =>
      jsonCalls(m[1]!.split(/;\s*(?=\{)/).join(','), known, true) ?? pythonicCalls(m[1]!.replace(/^\[([\s\S]*)\]$/, '$1'), known),
  },
  {
    name: 'mistral [TOOL_CALLS] (v11: name[ARGS]{…})',
    source: 'https://github.com/vllm-project/vllm/blob/main/vllm/entrypoints/openai/tool_parsers/mistral_tool_parser.py',
    pattern: /\[TOOL_CALLS\]\s*([^[{\s]+)\s*\[ARGS\]\s*(\{[\s\S]*)/g,
    read: (m, known) => {
      // Each call's arguments are the JSON object that opens there; what follows is the next call or prose.
      const calls: TextToolCall[] = [];
      for (const part of `[TOOL_CALLS]${m[1]}[ARGS]${m[2]}`.split('[TOOL_CALLS]').slice(1)) {
        const at = part.indexOf('[ARGS]');
        const json = at < 0 ? null : leadingJson(part.slice(at + 6).trimStart());
        const call = json === null ? null : one(part.slice(0, at), json, known);
        if (!call) return null;
        calls.push(...call);
      }
      return calls;
    },
  },
  {
    name: 'mistral [TOOL_CALLS] json',
    source: 'https://docs.mistral.ai/capabilities/function_calling/',
    pattern: /\[TOOL_CALLS\]\s*([\s\S]*?)\s*(?:<\/s>|$)/g,
    read: (m, known) => jsonCalls(leadingJson(m[1]!) ?? m[1]!, known),
  },
  {
    name: 'gpt-oss harmony',
    source: 'https://cookbook.openai.com/articles/openai-harmony#receiving-tool-calls',
    pattern: /to=functions\.([\w.-]+)[^\n<]*?(?:<\|constrain\|>\s*\w+\s*)?<\|message\|>\s*([\s\S]*?)\s*(?:<\|call\|>|<\|end\|>|$)/g,
    read: (m, known) => one(m[1]!, m[2]!, known),
  },
  {
    name: 'gpt-oss harmony, its tokens stripped',
    source: 'https://github.com/ollama/ollama/issues/11704',
    pattern: /(?:^|\s)(?:commentary\s+)?to=functions\.([\w.-]+)\s*(?:code|json)?\s*(\{[\s\S]*)/g,
    read: (m, known) => one(m[1]!, leadingJson(m[2]!) ?? m[2]!, known),
  },
  {
    name: 'functiongemma call',
    source: 'https://ai.google.dev/gemma/docs/functiongemma/formatting-and-best-practices',
    pattern: /(?:<start_function_call>|<\|tool_call>)\s*call:([\w.-]+)\s*(\{[\s\S]*?\})\s*(?:<end_function_call>|<tool_call\|>|$)/g,
    // Strings are delimited by <escape> (FunctionGemma) or <|"|> (Gemma 4); keys are bare.
    read: (m, known) => one(m[1]!, m[2]!.replace(/<escape>|<\|"\|>/g, '"'), known),
  },
  {
    name: 'deepseek tool call tokens',
    source: 'https://huggingface.co/deepseek-ai/DeepSeek-V3.1/blob/main/tokenizer_config.json',
    pattern:
      /<｜tool▁call▁begin｜>\s*(?:function\s*<｜tool▁sep｜>\s*([\w.-]+)|([\w.-]+)\s*<｜tool▁sep｜>)\s*(?:```(?:json)?\s*)?([\s\S]*?)\s*(?:```\s*)?<｜tool▁call▁end｜>/g,
    read: (m, known) => one(m[1] ?? m[2]!, m[3]!, known),
  },
  {
    name: 'tag around json (<tool>, <function_call>, <tools>, <|tool_call|>, <tool_calls>)',
    source: 'https://github.com/ollama/ollama/issues/6061',
    pattern: /<(tool|tools|tool_calls|function_call|functioncall|\|tool_call\|)>\s*([\s\S]*?)\s*(?:<\/\1>|<\|\/tool_call\|>|$)/g,
    read: (m, known) => jsonCalls(leadingJson(m[2]!) ?? m[2]!, known),
  },
  {
    name: 'gemma tool_code',
    source: 'https://ai.google.dev/gemma/docs/capabilities/function-calling',
    pattern: /```tool_code\s*\n([\s\S]*?)\n?```/g,
    read: (m, known) => pythonicCalls(m[1]!.replace(/^\s*print\(([\s\S]*)\)\s*$/, '$1'), known),
  },
  {
    name: 'fenced json',
    source: 'https://github.com/ollama/ollama/issues/8517',
    pattern: /```(?:json|tool_call|tool|javascript)?\s*\n([\s\S]*?)\n?```/g,
    read: (m, known) => jsonCalls(m[1]!, known),
    quietWhenUnread: true,
  },
  {
    name: 'llama 3.2 pythonic list',
    source: 'https://www.llama.com/docs/model-cards-and-prompt-formats/llama3_2/#-tool-calling-(1b/3b)-',
    pattern: /^\s*(\[\s*[A-Za-z_][\w.]*\([\s\S]*\)\s*\])\s*$/g,
    read: (m, known) => pythonicCalls(m[1]!.trim().slice(1, -1), known),
    quietWhenUnread: true,
  },
  {
    name: 'bare json (an object or an array of calls)',
    source: 'https://github.com/vllm-project/vllm/issues/9693',
    pattern: /^\s*([[{][\s\S]*[\]}])\s*$/g,
    read: (m, known) => jsonCalls(m[1]!, known),
    quietWhenUnread: true,
  },
  {
    name: 'tool name then its arguments (edit {…}, edit({…}), Action: edit …)',
    source: 'https://github.com/continuedev/continue/issues/2193',
    pattern:
      /^[ \t>*-]*(?:action:|calling|call)?[ \t`*]*([A-Za-z_][\w.-]*)`?[ \t]*(?:\(\s*(\{[\s\S]*?\})\s*\)|:?[ \t]*(\{[^\n]*\}))[ \t]*$/gim,
    read: (m, known) => (known.has(toolName(m[1]!)) ? one(m[1]!, m[2] ?? m[3]!, known) : []),
    quietWhenUnread: true,
  },
];

/** A name as the tool it means: `functions.edit`, `default_api.edit`, a control token after it (`edit<|channel|>commentary`), quotes around it. */
export function toolName(raw: string): string {
  return raw
    .replace(/<\|[\s\S]*$/, '')
    .replace(/^[\s"'`]+|[\s"'`:]+$/g, '')
    .replace(/^(?:functions|function|default_api|tools|tool)\./, '');
}

/** One call of `name` with `args` (JSON text or an object), or null when the name is no offered tool or the arguments are no object. */
function one(name: string, args: string | Record<string, unknown>, known: ReadonlySet<string>): TextToolCall[] | null {
  const tool = toolName(name);
  if (!known.has(tool)) return null;
  const value = typeof args === 'string' ? objectOf(args) : args;
  return value ? [{ name: tool, arguments: JSON.stringify(value) }] : null;
}

/** JSON text repaired by jsonrepair, never a text cut short (closesOnly). */
function repaired(text: string): string {
  const out = jsonrepair(text);
  if (closesOnly(text, out)) throw new Error('cut short');
  return out;
}

/** JSON text as an object, repaired when it is not quite JSON; a string holding JSON is read again (double encoding). */
function objectOf(text: string): Record<string, unknown> | null {
  for (const attempt of [text, () => repaired(text)]) {
    try {
      let v: unknown = JSON.parse(typeof attempt === 'string' ? attempt : attempt());
      if (typeof v === 'string') v = JSON.parse(v);
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
      return null;
    } catch {
      // the next attempt, or none
    }
  }
  return null;
}

/** The JSON object or array that opens `text` (strings in either quote skipped), or null when it never closes. */
function leadingJson(text: string): string | null {
  const open = text[0];
  if (open !== '{' && open !== '[') return null;
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) return text.slice(0, i + 1);
  }
  return null;
}

/** Calls in JSON: one object or an array of them, each `{name, arguments|parameters|args|input}` or OpenAI's `{function: {name, arguments}}`. */
function jsonCalls(text: string, known: ReadonlySet<string>, list = false): TextToolCall[] | null {
  let parsed: unknown;
  const body = list ? `[${text}]` : text;
  try {
    parsed = JSON.parse(body);
  } catch {
    try {
      parsed = JSON.parse(repaired(body));
    } catch {
      return null;
    }
  }
  const items = Array.isArray(parsed) ? parsed : [parsed];
  if (!items.length) return null;
  const calls: TextToolCall[] = [];
  for (const item of items) {
    if (typeof item !== 'object' || item === null) return null;
    const o = item as Record<string, unknown>;
    const fn = (typeof o.function === 'object' && o.function !== null ? o.function : o) as Record<string, unknown>;
    const name = typeof fn.name === 'string' ? fn.name : typeof o.tool === 'string' ? o.tool : null;
    const args = fn.arguments ?? fn.parameters ?? o.args ?? o.input ?? o.params ?? {};
    const call = name === null ? null : one(name, typeof args === 'string' ? args : (args as Record<string, unknown>), known);
    if (!call) return null;
    calls.push(...call);
  }
  return calls;
}

/** Qwen3-Coder's `<parameter=name>value</parameter>` list as an object: a value that is JSON (a number, a list) is read as such. */
function parametersXml(body: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of body.matchAll(/<parameter=([^>\s]+)>\n?([\s\S]*?)\n?<\/parameter>/g)) {
    const raw = p[2]!;
    let value: unknown = raw;
    if (/^\s*(-?\d+(\.\d+)?|true|false|null|\[[\s\S]*\]|\{[\s\S]*\})\s*$/.test(raw)) {
      try {
        value = JSON.parse(raw);
      } catch {
        value = raw;
      }
    }
    out[p[1]!] = value;
  }
  return out;
}

/** Python-style calls `edit(path="a", old='b', n=2), read(path="c")`: keyword arguments of literals only. */
function pythonicCalls(text: string, known: ReadonlySet<string>): TextToolCall[] | null {
  const calls: TextToolCall[] = [];
  let rest = text.trim();
  while (rest) {
    const head = /^([A-Za-z_][\w.]*)\s*\(/.exec(rest);
    if (!head) return null;
    const args: Record<string, unknown> = {};
    let i = head[0].length;
    for (;;) {
      const space = /^\s*,?\s*/.exec(rest.slice(i))!;
      i += space[0].length;
      if (rest[i] === ')') {
        i++;
        break;
      }
      const key = /^([A-Za-z_]\w*)\s*=\s*/.exec(rest.slice(i));
      if (!key) return null;
      i += key[0].length;
      const literal = pythonLiteral(rest, i);
      if (!literal) return null;
      args[key[1]!] = literal.value;
      i = literal.end;
    }
    const call = one(head[1]!, args, known);
    if (!call) return null;
    calls.push(...call);
    rest = rest.slice(i).replace(/^\s*,?\s*/, '');
  }
  return calls.length ? calls : null;
}

/** A Python literal at `at`: a string ('…', "…", triple-quoted), a number, True/False/None, or a JSON-like list or dict. */
function pythonLiteral(text: string, at: number): { value: unknown; end: number } | null {
  const rest = text.slice(at);
  const triple = /^("""|''')([\s\S]*?)\1/.exec(rest);
  if (triple) return { value: triple[2], end: at + triple[0].length };
  const quoted = /^(["'])((?:\\.|(?!\1)[^\\])*)\1/.exec(rest);
  if (quoted) return { value: unescapePython(quoted[2]!), end: at + quoted[0].length };
  const word = /^(-?\d+(?:\.\d+)?|True|False|None)\b/.exec(rest);
  if (word) {
    const w = word[1]!;
    return { value: w === 'True' ? true : w === 'False' ? false : w === 'None' ? null : Number(w), end: at + w.length };
  }
  if (rest[0] === '[' || rest[0] === '{') {
    // The shortest bracketed prefix that reads as JSON once Python's words and quotes are made JSON's.
    for (let end = 1; end <= rest.length; end++) {
      if (rest[end - 1] !== ']' && rest[end - 1] !== '}') continue;
      try {
        const json = repaired(
          rest
            .slice(0, end)
            .replace(/\bTrue\b/g, 'true')
            .replace(/\bFalse\b/g, 'false')
            .replace(/\bNone\b/g, 'null'),
        );
        return { value: JSON.parse(json), end: at + end };
      } catch {
        // a longer prefix
      }
    }
  }
  return null;
}

function unescapePython(s: string): string {
  return s.replace(/\\(n|t|r|\\|'|")/g, (_, c: string) => ({ n: '\n', t: '\t', r: '\r' })[c] ?? c);
}

/**
 * Every call written as text in `text`, in any dialect of the table: the calls of offered tools, the
 * text left around them, and the marked spans that could not be read into a call (reported, never
 * taken as the answer).
 */
export function callsInText(text: string, known: ReadonlySet<string>): Found & { rest: string; dialects: string[] } {
  const calls: TextToolCall[] = [];
  const unreadable: string[] = [];
  const dialects: string[] = [];
  let rest = text;
  let marked = false;
  for (const d of DIALECTS) {
    // Prose-like dialects speak only when no marked call was found: a reply that used tags used them.
    if (d.quietWhenUnread && (calls.length || unreadable.length)) continue;
    rest = rest.replace(d.pattern, (...groups) => {
      const m = groups.slice(0, -2) as unknown as RegExpExecArray;
      const read = d.read(m, known);
      if (read?.length) {
        if (!d.quietWhenUnread) marked = true;
        calls.push(...read);
        if (!dialects.includes(d.name)) dialects.push(d.name);
        return '';
      }
      // What could not be read: the span's body (its last group), as the model is shown it.
      const body =
        [...m]
          .slice(1)
          .filter((g) => typeof g === 'string')
          .at(-1) ?? m[0];
      if (!d.quietWhenUnread && read === null) unreadable.push(String(body).slice(0, 200));
      return String(groups[0]);
    });
  }
  // Unmarked JSON amid an explanation is an example shown, not a call made: a call without a tag
  // counts only when the reply is little besides it.
  if (!marked && calls.length && rest.trim().length > EXAMPLE_PROSE) return { calls: [], unreadable, rest: text.trim(), dialects: [] };
  return { calls, unreadable, rest: rest.trim(), dialects };
}

/** Characters of prose around an untagged call past which the reply is an explanation with an example in it. */
const EXAMPLE_PROSE = 200;
