// Comparing strings by UTF-16 code unit, not localeCompare: its first call loads ICU's collator (about 6 ms of a short command).

/** a before b by code unit, as Array.prototype.sort orders strings by default; ISO 8601 timestamps this way sort in time order. */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
