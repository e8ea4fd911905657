package org.albumstore.server.internal.web;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.albumstore.server.internal.read.ReadFailedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every resource servlet does the same way: route the path, answer a wrong method with 405 and
 * {@code Allow}, turn {@link HttpProblem}s into JSON errors and unexpected failures into a logged
 * 500 without internals. {@code service} is overridden (rather than {@code doGet} and friends) so
 * that every method, HEAD and OPTIONS included, gets the API's JSON answer. An IOException passes
 * through: it means the client's connection failed, there is nobody to answer, Tomcat cleans up.
 */
abstract class ApiServlet extends HttpServlet {
  private static final Logger log = LoggerFactory.getLogger(ApiServlet.class);
  private static final ThrottledLog internalFailures = new ThrottledLog(log, 10_000);

  @Override
  protected final void service(HttpServletRequest req, HttpServletResponse resp)
      throws IOException {
    String path = req.getServletPath() + (req.getPathInfo() == null ? "" : req.getPathInfo());
    Route route = Route.parse(path);
    try {
      if (route.resource() == Route.Resource.UNKNOWN) {
        throw new HttpProblem(404, ErrorMessages.UNKNOWN_PATH);
      }
      String method = req.getMethod();
      if (!route.resource().method().equals(method)) {
        throw new HttpProblem(
            405,
            method + " is not allowed here; use " + route.resource().method() + " for this path",
            route.resource().method());
      }
      handle(route, req, resp);
    } catch (HttpProblem p) {
      Responses.problem(resp, p);
    } catch (ReadFailedException e) {
      Responses.databaseUnavailable(resp, e);
    } catch (RuntimeException e) {
      internalFailures.warn("Request failed: " + req.getMethod() + " " + path, e);
      if (!resp.isCommitted() && !req.isAsyncStarted()) {
        resp.reset();
        Responses.error(resp, 500, ErrorMessages.forStatus(500));
      }
    }
  }

  /** Serves a request whose resource belongs to this servlet and whose method is right. */
  protected abstract void handle(Route route, HttpServletRequest req, HttpServletResponse resp)
      throws HttpProblem, ReadFailedException, IOException;
}
