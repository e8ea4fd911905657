-- Shared done(): one machine-readable line, "BENCH rps p50_ms p99_ms max_ms non2xx errors".
-- Requests per second count successful (2xx) responses only.
function done(summary, latency, requests)
  local e = summary.errors
  local errors = e.connect + e.read + e.write + e.timeout
  local ok = summary.requests - e.status
  io.write(string.format("BENCH %.1f %.3f %.3f %.3f %d %d\n",
    ok / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
    e.status, errors))
end
