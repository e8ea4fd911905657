-- POST with an empty body to the URL given to wrk: the do-nothing baseline of POST /review.
package.path = package.path .. ";" .. (os.getenv("BENCH_WRK_DIR") or "bench/wrk") .. "/?.lua"
require "report"
wrk.method = "POST"
wrk.headers["Content-Length"] = "0"
