package org.albumstore.server;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Creates every thread of a pool (HikariCP's {@code threadFactory} setting, the read threads, the
 * readers) or of the broker connections (amqp-client's {@code ConnectionFactory.setThreadFactory})
 * and, after it is closed, waits until those threads have really ended.
 *
 * <p>Why: HikariCP's {@code close()} returns once its executors have terminated (the housekeeper is
 * only asked to stop), and amqp-client's {@code abort()} once it has shut down the connection's
 * consumer work pool, each a moment before their last thread has exited. Tomcat looks for the web
 * application's threads right after {@code contextDestroyed} and, when it catches one in that
 * moment, warns that the application "appears to have started a thread named [...] but has failed
 * to stop it": on some stops of the embedded server, and on some undeploys of the WAR. Joining the
 * threads closes that window; names (the pool's name, a number) stay recognisable in a thread dump.
 */
final class PoolThreads implements ThreadFactory {
  private final String poolName;
  private final AtomicInteger created = new AtomicInteger();
  private final Set<Thread> threads = ConcurrentHashMap.newKeySet();

  PoolThreads(String poolName) {
    this.poolName = poolName;
  }

  @Override
  public Thread newThread(Runnable task) {
    // HikariCP replaces idle threads now and then (5 s keep-alive): forget the ones that ended.
    // TERMINATED rather than !isAlive(): a thread handed out a moment ago has not started yet.
    threads.removeIf(t -> t.getState() == Thread.State.TERMINATED);
    Thread t = new Thread(task, poolName + ":" + created.incrementAndGet());
    t.setDaemon(true); // as HikariCP's own threads: never what keeps a JVM alive
    threads.add(t);
    return t;
  }

  /** How many threads are remembered (for tests: ended ones must not pile up). */
  int tracked() {
    return threads.size();
  }

  /**
   * Waits, up to {@code timeout} in all, for every thread created here to end.
   *
   * @return the names of those still running after that (empty when all ended)
   */
  List<String> awaitExit(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (Thread t : threads) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        break;
      }
      t.join(Math.max(1, left / 1_000_000));
    }
    return threads.stream().filter(Thread::isAlive).map(Thread::getName).toList();
  }
}
