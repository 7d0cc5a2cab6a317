// Test helper for cli/replay.cli.test.ts: preloaded with `node --require`, it writes the
// process's peak resident set size in KiB (process.resourceUsage().maxRSS, which covers
// worker threads too) to the file named by RSS_PROBE_OUT when the process exits. This keeps
// the memory test independent of /usr/bin/time (Debian package `time`).
const fs = require('node:fs');

process.on('exit', () => {
  const out = process.env.RSS_PROBE_OUT;
  if (out) fs.writeFileSync(out, String(process.resourceUsage().maxRSS));
});
