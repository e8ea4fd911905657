-- GET the URL given to wrk (e.g. the do-nothing /albumstore/bench/noop).
package.path = package.path .. ";" .. (os.getenv("BENCH_WRK_DIR") or "bench/wrk") .. "/?.lua"
require "report"
