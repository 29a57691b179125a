// Preloaded into a benchmarked process (node --require): reports its peak RSS and its CPU time (user+system, its own, children not included) on stderr as it exits.
process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  require('node:fs').writeSync(2, `\nforge-bench-maxrss ${process.resourceUsage().maxRSS}\nforge-bench-cpu ${user + system}\n`);
});
