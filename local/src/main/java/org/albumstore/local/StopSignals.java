package org.albumstore.local;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * Ctrl-C (SIGINT) and SIGTERM as an orderly stop, not as JVM shutdown.
 *
 * <p>Why not only a shutdown hook: the JVM runs all hooks at once, in no order, and Qpid Broker-J
 * registers one of its own that closes the embedded broker immediately, while the client is still
 * sending and the consumer still acknowledging. Handling the signal directly lets the launcher stop
 * the parts in its order (client, consumer, server, broker, database) while the JVM is still fully
 * alive, and only then exit; Qpid removes its hook when the broker is closed. The launcher's own
 * shutdown hook stays as the fallback for any other way the JVM is asked to exit.
 *
 * <p>{@code sun.misc.Signal} is in the {@code jdk.unsupported} module, which the JDK keeps exported
 * for exactly this kind of use until a supported replacement exists. Where it cannot be used (a JVM
 * started with {@code -Xrs}, an unknown signal), the shutdown hook alone handles the stop.
 */
final class StopSignals {
  private static final Logger log = LoggerFactory.getLogger(StopSignals.class);

  private StopSignals() {}

  /**
   * Runs {@code stop} on a new thread at the first SIGINT or SIGTERM; later signals only say that
   * the stop is under way.
   */
  static void install(Runnable stop, String stillStopping) {
    AtomicBoolean stopping = new AtomicBoolean();
    for (String name : List.of("INT", "TERM")) {
      try {
        Signal.handle(
            new Signal(name),
            signal -> {
              if (stopping.compareAndSet(false, true)) {
                new Thread(stop, "albumstore-local-stop").start();
              } else {
                System.err.println(stillStopping);
              }
            });
      } catch (IllegalArgumentException e) {
        log.warn(
            "SIG{} cannot be handled here ({}); the shutdown hook will stop the stack",
            name,
            e.getMessage());
      }
    }
  }
}
