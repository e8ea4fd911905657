package org.albumstore.server.internal.web;

/**
 * A request the server refuses, with the status and the message the client gets. Thrown by parsing
 * and validation, caught in one place per servlet and written by {@link Responses#problem}.
 */
final class HttpProblem extends Exception {
  private final int status;
  private final String allow;

  public HttpProblem(int status, String userMessage) {
    this(status, userMessage, null);
  }

  /** A 405 names the methods the path does allow. */
  public HttpProblem(int status, String userMessage, String allow) {
    // A client mistake, not a server fault: no stack trace to fill in.
    super(userMessage, null, false, false);
    this.status = status;
    this.allow = allow;
  }

  public static HttpProblem badRequest(String userMessage) {
    return new HttpProblem(400, userMessage);
  }

  public int status() {
    return status;
  }

  /** The {@code Allow} header of a 405, else null. */
  public String allow() {
    return allow;
  }
}
