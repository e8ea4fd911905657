package org.albumstore.server.internal.web;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.albumstore.server.internal.read.ReadFailedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every response body the API sends goes through here, so every one is JSON with the same content
 * type and an explicit length (no chunking for bodies this small).
 */
public final class Responses {
  public static final String CONTENT_TYPE = "application/json; charset=UTF-8";

  /** Seconds a client should wait before retrying a 503. */
  public static final String RETRY_AFTER_SECONDS = "1";

  private static final Logger log = LoggerFactory.getLogger(Responses.class);
  private static final ThrottledLog readFailures = new ThrottledLog(log, 10_000);

  private Responses() {}

  public static void json(HttpServletResponse resp, int status, String json) throws IOException {
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    resp.setStatus(status);
    resp.setContentType(CONTENT_TYPE);
    resp.setContentLength(body.length);
    resp.getOutputStream().write(body);
  }

  /** 200 with no body, the answer to an accepted review. */
  public static void emptyOk(HttpServletResponse resp) {
    resp.setStatus(HttpServletResponse.SC_OK);
    resp.setContentLength(0);
  }

  /** {@code {"msg":..}} with the given status. */
  public static void error(HttpServletResponse resp, int status, String msg) throws IOException {
    json(resp, status, Json.object("msg", msg));
  }

  public static void problem(HttpServletResponse resp, HttpProblem p) throws IOException {
    if (p.allow() != null) {
      resp.setHeader("Allow", p.allow());
    }
    error(resp, p.status(), p.getMessage());
  }

  /** 503 with {@code Retry-After}: the request was fine, the server cannot take it right now. */
  public static void unavailable(HttpServletResponse resp, String msg) throws IOException {
    resp.setHeader("Retry-After", RETRY_AFTER_SECONDS);
    error(resp, HttpServletResponse.SC_SERVICE_UNAVAILABLE, msg);
  }

  /** The answer to a failed query (logged, throttled): 503 with Retry-After. */
  static void databaseUnavailable(HttpServletResponse resp, ReadFailedException e)
      throws IOException {
    readFailures.warn("Database read failed; answering 503", e.getCause());
    unavailable(resp, "the database is unavailable; retry in a second");
  }
}
