// Loaded into the server process by the soak bench (node --import): every SOAK_PROBE_MS (5 s) it appends the
// process's memory and event-loop delay (since the last line) to SOAK_PROBE_FILE as one JSON line.
import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.SOAK_PROBE_FILE;
if (file) {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  const write = () => {
    const m = process.memoryUsage();
    const line = {
      at: Date.now(),
      rss: m.rss,
      heapUsed: m.heapUsed,
      p50: h.percentile(50) / 1e6,
      p99: h.percentile(99) / 1e6,
      max: h.max / 1e6,
    };
    h.reset();
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
  };
  setInterval(write, Number(process.env.SOAK_PROBE_MS || 5000)).unref();
}
