package org.albumstore.server;

import java.time.Duration;
import org.albumstore.common.config.Env;
import org.albumstore.common.config.Setting;

/**
 * How long the embedded server, told to stop (SIGTERM, Ctrl-C), keeps serving while {@code /health}
 * already answers 503, so that its load balancer stops routing to it before it closes.
 *
 * <p>Why 5 s: HAProxy's and an ALB target group's checks take a server out after a few failed
 * checks; with the stack's check (every second, out after two) 5 s is twice what it needs. An ALB
 * with its default check (30 s, out after 2) needs a minute here, or its deregistration delay with
 * a lifecycle hook, which is the better tool on AWS. 0 stops at once.
 */
final class DrainDelay {
  public static final Setting<Integer> DELAY_MS =
      Setting.integer("ALBUMSTORE_DRAIN_DELAY_MS", 5000, 0, 600_000)
          .withFlag("--drain-delay-ms", "MS")
          .withHelp(
              "On SIGTERM, how long /health answers 503 while requests are still served, so that"
                  + " the load balancer stops routing here; then requests in flight are awaited");

  private DrainDelay() {}

  public static Duration from(Env env) {
    return Duration.ofMillis(DELAY_MS.read(env));
  }
}
