// Random ids for event ids and temp names: 64 bits from Math.random, so no command loads node:crypto to start.

/** 16 hex digits; unique enough for ids and file names that are also scoped by time or pid. */
export function randomHex(): string {
  const word = () =>
    Math.floor(Math.random() * 0x100000000)
      .toString(16)
      .padStart(8, '0');
  return word() + word();
}
