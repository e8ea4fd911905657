package org.albumstore.consumer.internal.metrics;

import java.util.function.BooleanSupplier;

/**
 * Liveness and readiness, in the server's vocabulary (its {@code /health} and {@code
 * /health/live}), served on the metrics port for a process supervisor, an Auto Scaling group's
 * health check or a balancer's:
 *
 * <ul>
 *   <li>{@code GET /health/live}: 200 {@code {"status":"UP"}} while the process answers at all. An
 *       outage of the broker or the database does not fail it: the consumer waits those out by
 *       itself (retries, automatic recovery), and a restart would not bring them back sooner.
 *   <li>{@code GET /health}: 200 {@code {"status":"UP","broker":"UP","database":"UP","consuming":
 *       "UP"}} when every broker connection is open, the database answers, and every channel has
 *       its consumer registered; else 503 with the same fields saying which is {@code DOWN}. Once a
 *       stop began it is 503 {@code "status":"DRAINING"}, whatever the rest, so that whatever
 *       watches the consumer sees it leaving before its port closes.
 * </ul>
 */
public final class ConsumerHealth {
  /** One answer: the HTTP status and the JSON body. */
  public record Report(int status, String json) {}

  private final BooleanSupplier broker;
  private final BooleanSupplier database;
  private final BooleanSupplier consuming;
  private volatile boolean draining;

  /**
   * @param broker whether every broker connection is open
   * @param database whether the database answers (the probe's last answer: never waits)
   * @param consuming whether every channel is open with its consumer registered
   */
  public ConsumerHealth(
      BooleanSupplier broker, BooleanSupplier database, BooleanSupplier consuming) {
    this.broker = broker;
    this.database = database;
    this.consuming = consuming;
  }

  /** From now on, readiness is 503 DRAINING; called first when the consumer is told to stop. */
  public void drain() {
    draining = true;
  }

  public Report live() {
    return new Report(200, "{\"status\":\"UP\"}");
  }

  public Report ready() {
    boolean b = broker.getAsBoolean();
    boolean d = database.getAsBoolean();
    boolean c = consuming.getAsBoolean();
    boolean up = b && d && c && !draining;
    String status = draining ? "DRAINING" : state(up);
    return new Report(
        up ? 200 : 503,
        "{\"status\":\""
            + status
            + "\",\"broker\":\""
            + state(b)
            + "\",\"database\":\""
            + state(d)
            + "\",\"consuming\":\""
            + state(c)
            + "\"}");
  }

  private static String state(boolean up) {
    return up ? "UP" : "DOWN";
  }
}
