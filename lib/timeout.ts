// A timeout's clock as an argument: the wall clock for users, one a test expires when it chooses (a hang is not a speed).

/** Calls `expire` once `ms` have passed, unless the function it returns cancels it first. */
export type StartTimeout = (ms: number, expire: () => void) => () => void;

/** The wall clock: what every caller but a test passes. */
export const wallClock: StartTimeout = (ms, expire) => {
  const timer = setTimeout(expire, ms);
  return () => clearTimeout(timer);
};
