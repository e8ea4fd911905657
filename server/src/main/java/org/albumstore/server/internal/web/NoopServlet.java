package org.albumstore.server.internal.web;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * {@code GET/POST /bench/noop} (and any path below it): answers 200 with a fixed JSON body and does
 * nothing else. It exists only to measure the ceiling of this Tomcat (connector, threads, JSON
 * response) beside the real endpoints in the same process and run; it is registered only when
 * {@code ALBUMSTORE_BENCH_ENDPOINTS=true} (off by default, see server/README.md and bench/).
 *
 * <p>The body has the shape of a {@code POST /albums} answer, so that the load client pointed at
 * {@code .../bench/noop} runs its whole workload against it ({@code POST .../bench/noop/albums},
 * {@code POST .../bench/noop/review/like/<ALBUM_ID>}) and its own cost can be compared with wrk's.
 * The ID is a UUID in the form the real server gives, so that the client keeps it the way it keeps
 * every real one (two longs, see the client's LedgerSegment) rather than down its path for foreign
 * IDs; bench/wrk/client-mix.lua and the Gatling simulation send the same paths.
 */
public final class NoopServlet extends HttpServlet {
  public static final String[] PATHS = {"/bench/noop", "/bench/noop/*"};

  /** "noop" in hex, then a version 4 UUID's fixed digits. */
  public static final String ALBUM_ID = "6e6f6f70-0000-4000-8000-000000000000";

  private static final byte[] BODY =
      ("{\"albumID\":\"" + ALBUM_ID + "\",\"imageSize\":\"0\"}").getBytes(StandardCharsets.UTF_8);

  @Override
  protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    // Read the body like a real endpoint would, so a POST costs what an empty servlet costs.
    try (InputStream in = req.getInputStream()) {
      in.transferTo(OutputStream.nullOutputStream());
    }
    resp.setStatus(200);
    resp.setContentType("application/json");
    resp.setContentLength(BODY.length);
    resp.getOutputStream().write(BODY);
  }
}
