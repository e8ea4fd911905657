package org.albumstore.server.internal.web;

/**
 * Messages for errors the container raises itself (unknown path, malformed request, a failure no
 * servlet caught), so that those are JSON too and never reveal internals.
 */
public final class ErrorMessages {
  public static final String API =
      "the API is POST /albums, GET /albums/{albumID}, POST /review/{like|dislike}/{albumID},"
          + " GET /review/{albumID} and GET /health";

  public static final String UNKNOWN_PATH = "unknown path; " + API;

  private ErrorMessages() {}

  public static String forStatus(int status) {
    return switch (status) {
      case 400 -> "the request is malformed";
      case 404 -> UNKNOWN_PATH;
      case 405 -> "method not allowed for this path; " + API;
      case 408 -> "the request took too long to arrive";
      case 413 -> "the request is too large";
      case 414 -> "the request path is too long";
      case 415 -> "unsupported content type";
      // Tomcat answers these two before the application sees the request; they are the client's
      // to fix, so the message must say how rather than invite a retry.
      case 501 ->
          "this Transfer-Encoding is not supported; send the body with Content-Length or chunked";
      case 503 -> "the service is unavailable; retry in a second";
      case 505 -> "this HTTP version is not supported; use HTTP/1.1 or HTTP/1.0";
      default ->
          status >= 500
              ? "internal error; retry later"
              : "the request cannot be served (HTTP " + status + ")";
    };
  }
}
