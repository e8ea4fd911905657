-- The load client's request mix, for wrk, against the do-nothing endpoint (URL: .../bench/noop):
-- per iteration one multipart POST .../albums with a 3,471-byte image part and a JSON profile part,
-- then two POST .../review/like/noop and one POST .../review/dislike/noop (empty bodies).
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
local album_headers = { ["Content-Type"] = "multipart/form-data; boundary=" .. boundary }
local empty_headers = { ["Content-Length"] = "0" }
local n = 0
function request()
  n = n + 1
  local step = n % 4
  if step == 1 then
    return wrk.format("POST", wrk.path .. "/albums", album_headers, album_body)
  elseif step == 0 then
    return wrk.format("POST", wrk.path .. "/review/dislike/noop", empty_headers, "")
  end
  return wrk.format("POST", wrk.path .. "/review/like/noop", empty_headers, "")
end
