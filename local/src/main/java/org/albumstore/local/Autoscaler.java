package org.albumstore.local;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.albumstore.common.amqp.WriteBacklog;
import org.albumstore.common.log.FailureStreak;
import org.albumstore.embedded.cluster.HaProxy;
import org.albumstore.local.TargetTracking.Decision;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code --autoscale}: the two Auto Scaling groups of deploy/aws in miniature. Every evaluation
 * period it reads the write backlog ({@link WriteBacklog}, the code behind the published metric)
 * and the requests each server answered (HAProxy's stats, as the ALB's request count per target),
 * applies {@link TargetTracking} to the consumer JVMs and to the server JVMs separately, and starts
 * or stops {@link ChildJvm}s.
 *
 * <ul>
 *   <li>A server joins on a spare slot of the balancer ({@link HaProxy}): it enters the rotation
 *       once its health check passes, without a reload, as an instance registers in a target group.
 *   <li>A server leaves by SIGTERM: its drain answers 503 on {@code /health}, so HAProxy takes it
 *       out within two checks, and finishes its requests in flight (the ALB's deregistration
 *       delay). Its slot is reused only once it has exited.
 *   <li>A consumer leaves by SIGTERM: it stops consuming, commits and acknowledges its batches in
 *       hand, and closing its channels returns the rest to the queue (the lifecycle hook's drain).
 *   <li>Only instances it started are stopped, newest first; the {@code --servers} and {@code
 *       --consumers} started before are the groups' minimum.
 * </ul>
 *
 * Every period is a row of the timeline CSV, every change a log line. Threads: one scaler (owns
 * every field but the stops), one stopper per instance leaving; {@link #close} ends both and stops
 * what it started.
 */
final class Autoscaler implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Autoscaler.class);

  /** The AWS evaluation period that the miniature compresses. */
  static final Duration AWS_PERIOD = Duration.ofSeconds(60);

  /** The template's {@code EstimatedInstanceWarmup} (300 s), in evaluation periods. */
  static final int WARMUP_PERIODS = 5;

  static final String CSV_HEADER =
      "epoch_ms,time_s,servers,consumers,servers_up,backlog,backlog_per_consumer,"
          + "requests_per_server_per_s,decision";

  /** Starts a server JVM numbered {@code n} on {@code port}. */
  interface ServerLauncher {
    ChildJvm start(int n, int port) throws IOException;
  }

  /** Starts a consumer JVM numbered {@code n}. */
  interface ConsumerLauncher {
    ChildJvm start(int n) throws IOException;
  }

  /** The options, as given. */
  record Options(
      Duration period,
      int minServers,
      int maxServers,
      int minConsumers,
      int maxConsumers,
      double serverRequestsPerSecond,
      double consumerTargetLatencySeconds,
      double consumerMessageMillis,
      Path timeline) {

    /** AWS's minute over this period: how much faster the miniature runs. */
    double compression() {
      return (double) AWS_PERIOD.toMillis() / period.toMillis();
    }

    TargetTracking.Policy serverPolicy() {
      double perPeriod = serverRequestsPerSecond * period.toMillis() / 1000.0;
      return new TargetTracking.Policy(
          "servers", perPeriod, minServers, maxServers, WARMUP_PERIODS);
    }

    /** AWS's backlog per instance target: acceptable latency over the time per message. */
    TargetTracking.Policy consumerPolicy() {
      double backlog = consumerTargetLatencySeconds * 1000.0 / consumerMessageMillis;
      return new TargetTracking.Policy(
          "consumers", backlog, minConsumers, maxConsumers, WARMUP_PERIODS);
    }
  }

  /** A server this scaler started, on spare slot {@code slot}. */
  private record AddedServer(ChildJvm jvm, int slot) {}

  private final Options options;
  private final WriteBacklog backlog;
  private final HaProxy balancer;
  private final List<Integer> sparePorts;
  private final ServerLauncher servers;
  private final ConsumerLauncher consumers;
  private final TargetTracking serverRule;
  private final TargetTracking consumerRule;
  private final Deque<AddedServer> addedServers = new ArrayDeque<>();
  private final Deque<ChildJvm> addedConsumers = new ArrayDeque<>();
  private final List<CompletableFuture<Void>> slotFree = new ArrayList<>();
  private final List<CompletableFuture<Void>> stops = new ArrayList<>();
  private final FailureStreak backlogFailures = new FailureStreak();
  private final FailureStreak statsFailures = new FailureStreak();
  private final BufferedWriter csv;
  private final long t0 = System.nanoTime();
  private final ScheduledExecutorService timer;
  private final ExecutorService stopper;
  private Map<String, Long> lastResponses;
  private int serverSerial;
  private int consumerSerial;

  private Autoscaler(
      Options options,
      WriteBacklog backlog,
      HaProxy balancer,
      List<Integer> sparePorts,
      ServerLauncher servers,
      ConsumerLauncher consumers)
      throws IOException {
    this.options = options;
    this.backlog = backlog;
    this.balancer = balancer;
    this.sparePorts = List.copyOf(sparePorts);
    this.servers = servers;
    this.consumers = consumers;
    this.serverRule = new TargetTracking(options.serverPolicy());
    this.consumerRule = new TargetTracking(options.consumerPolicy());
    for (int i = 0; i < sparePorts.size(); i++) {
      slotFree.add(CompletableFuture.completedFuture(null));
    }
    this.serverSerial = options.minServers();
    this.consumerSerial = options.minConsumers();
    Path parent = options.timeline().toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    this.csv = Files.newBufferedWriter(options.timeline(), StandardCharsets.UTF_8);
    csv.write(CSV_HEADER + "\n");
    csv.flush();
    this.timer =
        Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "albumstore-scaler"));
    this.stopper = Executors.newCachedThreadPool(r -> new Thread(r, "albumstore-scaler-stop"));
  }

  /** Starts the scaler; its first evaluation is one period from now. */
  static Autoscaler start(
      Options options,
      WriteBacklog backlog,
      HaProxy balancer,
      List<Integer> sparePorts,
      ServerLauncher servers,
      ConsumerLauncher consumers)
      throws IOException {
    Autoscaler a = new Autoscaler(options, backlog, balancer, sparePorts, servers, consumers);
    long millis = options.period().toMillis();
    a.timer.scheduleAtFixedRate(a::tickSafely, millis, millis, TimeUnit.MILLISECONDS);
    log.info(
        "autoscaling every {} ms ({}x AWS's minute): {}; {}",
        millis,
        String.format(Locale.ROOT, "%.0f", options.compression()),
        options.serverPolicy(),
        options.consumerPolicy());
    return a;
  }

  /** The instances in each group now, the minimum included. */
  int servers() {
    return options.minServers() + addedServers.size();
  }

  int consumers() {
    return options.minConsumers() + addedConsumers.size();
  }

  private void tickSafely() {
    try {
      tick();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException | IOException e) {
      log.error("autoscaler period failed; going on", e);
    }
  }

  /** One evaluation period: read both metrics, apply both rules, write the row. */
  private void tick() throws IOException, InterruptedException {
    double waiting = readBacklog();
    Requests requests = readRequests();
    Decision s = serverRule.evaluate(servers(), requests.total());
    Decision c = consumerRule.evaluate(consumers(), waiting);
    List<String> changes = new ArrayList<>();
    double seconds = options.period().toMillis() / 1000.0;
    if (s.changes()) {
      changes.add(describe("servers", s, s.perInstance() / seconds, "requests/s per server"));
      resizeServers(s.desired());
    }
    if (c.changes()) {
      changes.add(describe("consumers", c, c.perInstance(), "messages per consumer"));
      resizeConsumers(c.desired());
    }
    csv.write(
        String.format(
            Locale.ROOT,
            "%d,%.1f,%d,%d,%d,%.0f,%.1f,%.1f,\"%s\"%n",
            System.currentTimeMillis(),
            (System.nanoTime() - t0) / 1e9,
            servers(),
            consumers(),
            requests.up(),
            waiting,
            c.perInstance(),
            s.perInstance() / seconds,
            String.join("; ", changes)));
    csv.flush();
  }

  private static String describe(String group, Decision d, double metric, String unit) {
    String line =
        String.format(
            Locale.ROOT,
            "%s %d -> %d (%.1f %s; %s)",
            group,
            d.current(),
            d.desired(),
            metric,
            unit,
            d.why());
    log.info("autoscale: {}", line);
    return line;
  }

  /** The backlog now, NaN when the management API cannot tell (no decision then). */
  private double readBacklog() {
    try {
      long b = backlog.read();
      if (backlogFailures.succeeded().isPresent()) {
        log.info("autoscale: the backlog reads again");
      }
      return b;
    } catch (IOException e) {
      if (backlogFailures.failed()) {
        log.warn("autoscale: cannot read the backlog: {}", e.getMessage());
      }
      return Double.NaN;
    }
  }

  /** The requests the servers answered in the period, and how many servers HAProxy has UP. */
  private record Requests(double total, int up) {}

  private Requests readRequests() throws InterruptedException {
    try {
      Map<String, Long> now = balancer.serverResponses();
      int up = (int) balancer.serverStates().values().stream().filter("UP"::equals).count();
      Map<String, Long> before = lastResponses;
      lastResponses = now;
      if (before == null) {
        return new Requests(Double.NaN, up);
      }
      long total = 0;
      for (Map.Entry<String, Long> e : now.entrySet()) {
        total += Math.max(0, e.getValue() - before.getOrDefault(e.getKey(), 0L));
      }
      statsFailures.succeeded();
      return new Requests(total, up);
    } catch (IOException e) {
      if (statsFailures.failed()) {
        log.warn("autoscale: cannot read HAProxy's stats: {}", e.getMessage());
      }
      lastResponses = null;
      return new Requests(Double.NaN, 0);
    }
  }

  private void resizeServers(int desired) {
    while (servers() < desired) {
      int slot = freeSlot();
      if (slot < 0) {
        log.warn("autoscale: no free spare slot for another server");
        return;
      }
      int n = ++serverSerial;
      try {
        ChildJvm jvm = servers.start(n, sparePorts.get(slot));
        addedServers.push(new AddedServer(jvm, slot));
        slotFree.set(slot, new CompletableFuture<>());
      } catch (IOException e) {
        log.error("autoscale: server {} did not start", n, e);
        return;
      }
    }
    while (servers() > desired && !addedServers.isEmpty()) {
      AddedServer leaving = addedServers.pop();
      CompletableFuture<Void> free = slotFree.get(leaving.slot());
      stops.add(stopInBackground(leaving.jvm()).whenComplete((v, e) -> free.complete(null)));
    }
  }

  /** A spare slot whose last server has exited, or -1. */
  private int freeSlot() {
    for (int i = 0; i < slotFree.size(); i++) {
      final int slot = i;
      boolean taken = addedServers.stream().anyMatch(a -> a.slot() == slot);
      if (!taken && slotFree.get(i).isDone()) {
        return i;
      }
    }
    return -1;
  }

  private void resizeConsumers(int desired) {
    while (consumers() < desired) {
      int n = ++consumerSerial;
      try {
        addedConsumers.push(consumers.start(n));
      } catch (IOException e) {
        log.error("autoscale: consumer {} did not start", n, e);
        return;
      }
    }
    while (consumers() > desired && !addedConsumers.isEmpty()) {
      stops.add(stopInBackground(addedConsumers.pop()));
    }
  }

  /** SIGTERM, its drain, its exit (SIGKILL after its stop limit), off the scaler's thread. */
  private CompletableFuture<Void> stopInBackground(ChildJvm jvm) {
    log.info("autoscale: stopping {} (pid {}) with SIGTERM", jvm.name(), jvm.pid());
    return CompletableFuture.runAsync(
        () -> {
          try {
            jvm.close();
            log.info("autoscale: {} stopped", jvm.name());
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        },
        stopper);
  }

  /**
   * Ends the scaler (a period under way finishes first), then stops every instance it started, in
   * parallel, each bounded by its stop limit, and closes the timeline.
   */
  @Override
  public void close() throws IOException, InterruptedException {
    timer.shutdown();
    if (!timer.awaitTermination(ClusterRun.INSTANCE_STOP_LIMIT.toMillis(), TimeUnit.MILLISECONDS)) {
      timer.shutdownNow();
    }
    while (!addedServers.isEmpty()) {
      stops.add(stopInBackground(addedServers.pop().jvm()));
    }
    while (!addedConsumers.isEmpty()) {
      stops.add(stopInBackground(addedConsumers.pop()));
    }
    CompletableFuture.allOf(stops.toArray(CompletableFuture[]::new)).join();
    stopper.shutdown();
    csv.close();
  }
}
