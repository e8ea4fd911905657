-- The load client's request mix, for wrk, against the do-nothing endpoint (URL: .../bench/noop):
-- per iteration one multipart POST .../albums with a 3,471-byte image part and a JSON profile part,
-- then two POST .../review/like/ID and one POST .../review/dislike/ID (empty bodies), ID the
-- albumID the endpoint answers (BENCH_ALBUM_ID, see noop_album_id in bench/lib.sh), as the client
-- sends them.
package.path = package.path .. ";" .. (os.getenv("BENCH_WRK_DIR") or "bench/wrk") .. "/?.lua"
require "report"
local boundary = "benchboundary7d3f"
local image = string.rep("x", 3471)
local album_body = "--" .. boundary .. "\r\n" ..
  'Content-Disposition: form-data; name="image"; filename="image.png"\r\n' ..
  "Content-Type: image/png\r\n\r\n" .. image .. "\r\n" ..
  "--" .. boundary .. "\r\n" ..
  'Content-Disposition: form-data; name="profile"\r\n' ..
  "Content-Type: application/json\r\n\r\n" ..
  '{"artist":"Sex Pistols","title":"Never Mind The Bollocks!","year":"1977"}\r\n' ..
  "--" .. boundary .. "--\r\n"
-- BENCH_HEADERS adds headers beside the request's own (for an A/B of what they cost the server):
-- "key" = an Idempotency-Key on every write, as the client sends it; "client" = that, Accept and
-- User-Agent (what the client sent until 2026-11-24); "client-start" = those and X-Request-Start (a
-- fixed plausible send time in µs: the server parses it the same). Default "none": wrk's request
-- as it always was.
local extra = os.getenv("BENCH_HEADERS") or "none"
local start = string.format("t=%d", os.time() * 1000000)
local n = 0
local function headers(base)
  local h = {}
  for k, v in pairs(base) do h[k] = v end
  if extra == "client" or extra == "client-start" then
    h["Accept"] = "application/json"
    h["User-Agent"] = "albumstore-client"
  end
  if extra ~= "none" then
    h["Idempotency-Key"] = string.format("20261124-121511-d8fb6888-t%d-%d-l1", n % 256, n)
  end
  if extra == "client-start" then
    h["X-Request-Start"] = start
  end
  return h
end
local album_id = os.getenv("BENCH_ALBUM_ID") or error("BENCH_ALBUM_ID is not set (bench/lib.sh noop_album_id)")
local album_headers = { ["Content-Type"] = "multipart/form-data; boundary=" .. boundary }
local empty_headers = { ["Content-Length"] = "0" }
function request()
  n = n + 1
  local step = n % 4
  if step == 1 then
    return wrk.format("POST", wrk.path .. "/albums", headers(album_headers), album_body)
  elseif step == 0 then
    return wrk.format("POST", wrk.path .. "/review/dislike/" .. album_id, headers(empty_headers), "")
  end
  return wrk.format("POST", wrk.path .. "/review/like/" .. album_id, headers(empty_headers), "")
end
