-- POST /review/{like|dislike}/{1..5000} without an Idempotency-Key: the issue-17 sustained load
-- (the URL given to wrk is the context root, e.g. http://127.0.0.1:PORT/albumstore).
package.path = package.path .. ";" .. (os.getenv("BENCH_WRK_DIR") or "bench/wrk") .. "/?.lua"
require "report"
local votes = { "like", "dislike" }
local headers = { ["Content-Length"] = "0" }
local counter = 0
function request()
  counter = counter + 1
  local path = wrk.path .. "/review/" .. votes[counter % 2 + 1] .. "/" .. (counter % 5000 + 1)
  return wrk.format("POST", path, headers, "")
end
