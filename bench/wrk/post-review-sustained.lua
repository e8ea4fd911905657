-- POST /review/{like|dislike}/{1..5000} without an Idempotency-Key: the issue-17 sustained load
-- (the URL given to wrk is the context root, e.g. http://127.0.0.1:PORT/albumstore).
-- The 5000 requests are formatted once per wrk thread, in init, and sent in turn: request n is a
-- dislike of album n % 5000 + 1 when n is odd, a like when even: the same sequence as formatting
-- each request anew (wrk.format per request, before 2026-11-26).
-- Why: wrk.format per request cost wrk 0.6-0.8 µs more per review (bench/sustained.sh's noop-paths
-- runs: 6.3 against 5.5-5.7 µs of wrk CPU per request; the fixed request, which runs no Lua,
-- 5.0-5.1), wrk's own cost charged to the review in the ratio to the do-nothing request
-- (results/archive/sustained-wrk-table/).
package.path = package.path .. ";" .. (os.getenv("BENCH_WRK_DIR") or "bench/wrk") .. "/?.lua"
require "report"
local albums = 5000
local requests = {}
local counter = 0
function init(args)
  local votes = { "like", "dislike" }
  local headers = { ["Content-Length"] = "0" }
  for n = 1, albums do
    local path = wrk.path .. "/review/" .. votes[n % 2 + 1] .. "/" .. (n % albums + 1)
    requests[n] = wrk.format("POST", path, headers, "")
  end
end
function request()
  counter = counter % albums + 1
  return requests[counter]
end
