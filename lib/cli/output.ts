// Writes text and NDJSON records to stdout/stderr: backpressure-aware, EPIPE-safe, coloured only on a terminal.
import { once } from 'node:events';
import { visible } from './visible';
import type { Writable } from 'node:stream';

export type Stream = Writable & { isTTY?: boolean };

export interface Hint {
  next: string | null;
  /** The Next: line's words when the step is the caller's own call (Outcome.nextText); JSON keeps `next`. */
  nextText?: string;
  or?: string;
  wait?: string;
}

type Paint = (s: string) => string;

export interface Palette {
  error: Paint;
  label: Paint;
  dim: Paint;
  /** A file name heading its matches (git grep's and rg's colour for it). */
  path: Paint;
  /** The text a pattern matched. */
  match: Paint;
  /** A check's verdict. */
  ok: Paint;
  fail: Paint;
}

const same: Paint = (s) => s;
export const PLAIN: Palette = { error: same, label: same, dim: same, path: same, match: same, ok: same, fail: same };

/** The hint lines of seed 000: `Next:` (+ `Or:`), or `Wait:`, or `Done.`. */
export function hintLines(h: Hint, p: Palette = PLAIN): string[] {
  const lines: string[] = [];
  if (h.next) lines.push(`${p.label('Next:')} ${h.nextText ?? h.next}`);
  if (h.or) lines.push(`${p.label('Or:')} ${h.or}`);
  if (h.wait) lines.push(`${p.label('Wait:')} ${h.wait}`);
  if (!h.next && !h.wait) lines.push(p.label('Done.'));
  return lines;
}

/** The same hint as JSON fields: `_next_action` always present (null when terminal). */
export function hintFields(h: Hint): Record<string, unknown> {
  const f: Record<string, unknown> = { _next_action: h.next ?? null };
  if (h.or) f._or_action = h.or;
  if (h.wait) f._wait = h.wait;
  return f;
}

export class Output {
  private constructor(
    readonly stdout: Stream,
    readonly stderr: Stream,
    readonly outPalette: Palette,
    readonly errPalette: Palette,
  ) {}

  /**
   * Colour as git and Node's tools decide it: --color=always or never first, then FORCE_COLOR (0 or
   * false: never; anything else: always), then NO_COLOR, then whether the stream is a terminal that
   * is not dumb. Chalk is loaded only when a stream gets colour.
   */
  static async create({
    stdout,
    stderr,
    env,
    color = 'auto',
  }: {
    stdout: Stream;
    stderr: Stream;
    env: NodeJS.ProcessEnv;
    color?: string;
  }): Promise<Output> {
    const forced = env.FORCE_COLOR === undefined ? null : !/^(0|false)$/i.test(env.FORCE_COLOR);
    const wants = (s: Stream) =>
      color === 'always' || (color !== 'never' && (forced ?? (Boolean(s.isTTY) && !env.NO_COLOR && env.TERM !== 'dumb')));
    const palette = async (s: Stream): Promise<Palette> => {
      if (!wants(s)) return PLAIN;
      const { Chalk } = await import('chalk');
      const c = new Chalk({ level: 1 });
      return {
        error: (t) => c.red.bold(t),
        label: (t) => c.bold(t),
        dim: (t) => c.dim(t),
        path: (t) => c.magenta(t),
        match: (t) => c.red.bold(t),
        ok: (t) => c.green(t),
        fail: (t) => c.red.bold(t),
      };
    };
    return new Output(stdout, stderr, await palette(stdout), await palette(stderr));
  }

  /** The same palettes, writing text to `stdout` instead (a pager's stdin). */
  to(stdout: Stream): Output {
    return new Output(stdout, this.stderr, this.outPalette, this.errPalette);
  }

  async write(stream: Stream, text: string | Uint8Array): Promise<void> {
    if (!text.length) return;
    if (!stream.write(text)) await once(stream, 'drain');
  }

  async out(text: string): Promise<void> {
    await this.write(this.stdout, this.forTerminal(this.stdout, text.endsWith('\n') ? text : `${text}\n`));
  }

  async err(text: string): Promise<void> {
    await this.write(this.stderr, this.forTerminal(this.stderr, text.endsWith('\n') ? text : `${text}\n`));
  }

  /**
   * Text as a terminal gets it: its control characters shown, not obeyed, since text mode carries
   * what files, models and tools hold (lib/cli/visible.ts); off a terminal, the bytes as they are.
   */
  forTerminal(stream: Stream, text: string): string {
    if (!stream.isTTY) return text;
    return visible(text, { colour: (stream === this.stdout ? this.outPalette : this.errPalette) !== PLAIN });
  }

  async record(obj: Record<string, unknown>): Promise<void> {
    await this.write(this.stdout, `${JSON.stringify(obj)}\n`);
  }
}
