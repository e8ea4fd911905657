-- POST /review/like/{albumID} with a fresh Idempotency-Key per request, spread over 1,000 album IDs
-- (the URL given to wrk is the context root, e.g. http://127.0.0.1:PORT/albumstore).
package.path = package.path .. ";" .. (os.getenv("BENCH_WRK_DIR") or "bench/wrk") .. "/?.lua"
require "report"
local counter = 0
local thread_id = 0
local run = os.getenv("BENCH_RUN_ID") or tostring(os.time())
function setup(thread)
  thread:set("tid", thread_id)
  thread_id = thread_id + 1
end
function request()
  counter = counter + 1
  local path = wrk.path .. "/review/like/bench-" .. (counter % 1000)
  local headers = { ["Idempotency-Key"] = run .. "-" .. tid .. "-" .. counter, ["Content-Length"] = "0" }
  return wrk.format("POST", path, headers, "")
end
