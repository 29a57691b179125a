// Preloaded into a benchmarked process (node --require): reports its peak RSS on stderr as it exits.
process.on('exit', () => require('node:fs').writeSync(2, `\nforge-bench-maxrss ${process.resourceUsage().maxRSS}\n`));
