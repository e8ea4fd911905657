package org.albumstore.server.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.function.BooleanSupplier;

/**
 * {@code GET /health}: {@code {"status","broker","database"}}, each UP or DOWN; 200 when both are
 * up, else 503, so that a load balancer takes a server that cannot write or read out of rotation.
 * The database check borrows a pooled connection, so it also reports an exhausted pool.
 */
public final class HealthServlet extends ApiServlet {
  private final BooleanSupplier brokerUp;
  private final BooleanSupplier databaseUp;

  public HealthServlet(BooleanSupplier brokerUp, BooleanSupplier databaseUp) {
    this.brokerUp = brokerUp;
    this.databaseUp = databaseUp;
  }

  @Override
  protected void handle(Route route, HttpServletRequest req, HttpServletResponse resp)
      throws IOException {
    boolean broker = brokerUp.getAsBoolean();
    boolean database = databaseUp.getAsBoolean();
    boolean up = broker && database;
    Responses.json(
        resp,
        up ? 200 : 503,
        Json.object(
            "status", state(up),
            "broker", state(broker),
            "database", state(database)));
  }

  private static String state(boolean up) {
    return up ? "UP" : "DOWN";
  }
}
