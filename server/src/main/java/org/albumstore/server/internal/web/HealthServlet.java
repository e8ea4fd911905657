package org.albumstore.server.internal.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.function.BooleanSupplier;

/**
 * Readiness and liveness, kept apart as a load balancer and a process supervisor need them.
 *
 * <p>{@code GET /health} (readiness, the balancer's check): {@code {"status","broker","database"}};
 * 200 with status UP when both are up, else 503, so that a balancer takes a server that cannot
 * write or read out of rotation. While the server drains before a stop ({@link Readiness}) it is
 * 503 with status DRAINING, whatever the broker and the database. The database check borrows a
 * pooled connection, so it also reports an exhausted pool.
 *
 * <p>{@code GET /health/live} (liveness): 200 {@code {"status":"UP"}} as long as the application
 * answers at all; a broker outage or a drain does not make it fail, so nothing restarts a server
 * that only waits for its broker or finishes its requests.
 */
public final class HealthServlet extends ApiServlet {
  private final Readiness readiness;
  private final BooleanSupplier brokerUp;
  private final BooleanSupplier databaseUp;

  public HealthServlet(Readiness readiness, BooleanSupplier brokerUp, BooleanSupplier databaseUp) {
    this.readiness = readiness;
    this.brokerUp = brokerUp;
    this.databaseUp = databaseUp;
  }

  @Override
  protected void handle(Route route, HttpServletRequest req, HttpServletResponse resp)
      throws IOException {
    if (route.resource() == Route.Resource.LIVENESS) {
      Responses.json(resp, 200, Json.object("status", "UP"));
      return;
    }
    boolean broker = brokerUp.getAsBoolean();
    boolean database = databaseUp.getAsBoolean();
    boolean ready = readiness.ready();
    boolean up = broker && database && ready;
    Responses.json(
        resp,
        up ? 200 : 503,
        Json.object(
            "status", ready ? state(up) : "DRAINING",
            "broker", state(broker),
            "database", state(database)));
  }

  private static String state(boolean up) {
    return up ? "UP" : "DOWN";
  }
}
