package org.albumstore.server.internal.web;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The default servlet ({@code /}: every path no resource claims, answered 404) and the context's
 * error page ({@link #ERROR_PATH}: errors the container raises itself). Both answer JSON, so that
 * Tomcat never shows its HTML error page or its version.
 */
public final class FallbackServlet extends HttpServlet {
  /** Where the context's default error page points (web.xml and the embedded launcher). */
  public static final String ERROR_PATH = "/error";

  @Override
  protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
    if (req.getDispatcherType() == DispatcherType.ERROR) {
      if (resp.isCommitted()) {
        return;
      }
      Object code = req.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
      int status = code instanceof Integer i ? i : 500;
      // The exception, if any, was logged by the container; the client gets no internals.
      Responses.error(resp, status, ErrorMessages.forStatus(status));
    } else {
      Responses.error(resp, 404, ErrorMessages.UNKNOWN_PATH);
    }
  }
}
