package org.albumstore.server;

import java.io.IOException;
import java.io.Writer;
import java.util.concurrent.atomic.AtomicBoolean;
import org.albumstore.server.internal.web.ErrorMessages;
import org.albumstore.server.internal.web.Json;
import org.albumstore.server.internal.web.Responses;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded server's host-level error report: what Tomcat answers when no servlet of the
 * application did (a path outside {@code /albumstore}, a request the container rejects before the
 * application sees it). JSON {@code {"msg":..}} instead of the stock HTML page with the server's
 * version. Errors inside the application are answered by its own error page first, so this valve
 * only fills in when nothing was written.
 */
public final class JsonErrorReportValve extends ErrorReportValve {
  private static final Logger log = LoggerFactory.getLogger(JsonErrorReportValve.class);

  @Override
  protected void report(Request request, Response response, Throwable throwable) {
    int status = response.getStatus();
    // The same guards as the stock valve: only errors, only once, only with nothing written yet.
    if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
      return;
    }
    AtomicBoolean ioAllowed = new AtomicBoolean(false);
    response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
    if (!ioAllowed.get()) {
      return;
    }
    try {
      response.setContentType(Responses.CONTENT_TYPE);
      Writer writer = response.getReporter();
      if (writer != null) {
        writer.write(Json.object("msg", ErrorMessages.forStatus(status)));
        response.finishResponse();
      }
    } catch (IOException | IllegalStateException e) {
      log.debug("Could not write the error report for status {}: {}", status, e.toString());
    }
  }
}
