// Text for a terminal with the control characters it holds made visible: a file, a model or a tool can put bytes in forge's output, never commands to the terminal (a window title, a cleared screen, a clipboard write).

/** C0 controls but tab and newline, a carriage return not ending a line, DEL, and the C1 controls. */
const CONTROL = /[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f\x80-\x9f]|\r(?!\n)/g;

/** forge's own colour (chalk's SGR sequences), let through when the stream is coloured. */
const COLOUR = /\x1b\[[0-9;]*m/y;

/** One control as it is shown: caret notation for C0 and DEL (^[, ^G, ^M, ^?), the code point for C1 (<U+009B>). */
function shown(c: string): string {
  const code = c.charCodeAt(0);
  if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
  if (code === 0x7f) return '^?';
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/**
 * `text` with every control character shown as text, so the terminal prints it instead of obeying
 * it (`ESC]0;title BEL` becomes `^[]0;title^G`). With `colour`, SGR colour sequences stay: they
 * are how forge paints its own output, and a colour is all one can do.
 */
export function visible(text: string, { colour }: { colour: boolean }): string {
  if (!/[\x00-\x08\x0b-\x1f\x7f-\x9f]/.test(text)) return text;
  return text.replace(CONTROL, (c, at: number) => {
    if (colour && c === '\x1b') {
      COLOUR.lastIndex = at;
      if (COLOUR.test(text)) return c;
    }
    return shown(c);
  });
}
