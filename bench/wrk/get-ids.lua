-- GET one of N existing albums at random: the path prefix (wrk's URL path, e.g.
-- /albumstore/review/) followed by READS_ID_PREFIX and a number from 1 to READS_IDS (default 2000),
-- the IDs bench/reads.sh inserts.
package.path = package.path .. ";" .. (os.getenv("BENCH_WRK_DIR") or "bench/wrk") .. "/?.lua"
require "report"

local ids = tonumber(os.getenv("READS_IDS") or "2000")
local idPrefix = os.getenv("READS_ID_PREFIX") or "rd"
local base

function init(args)
  base = wrk.path
  math.randomseed(os.time() + (tonumber(tostring({}):match("0x(%x+)"), 16) or 0) % 100000)
end

function request()
  return wrk.format("GET", base .. idPrefix .. math.random(1, ids))
end
