package org.albumstore.embedded.cluster;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HAProxy from the machine's packages, run as this program's own child process with a generated
 * configuration (never the system service): the stand-ins for an ALB in front of the servers and
 * for Amazon MQ's one cluster endpoint in front of the broker nodes.
 *
 * <ul>
 *   <li>HTTP ({@code mode http}): {@code balance leastconn}, the ALB's "least outstanding
 *       requests"; each server checked every second on {@code /albumstore/health}, out after two
 *       failures, so that a draining server (503) leaves the rotation within about two seconds;
 *       {@code retries} with {@code option redispatch} send a request whose connection could not be
 *       made to another server (a killed server refuses connections; nothing was sent yet). When
 *       every server fails its check at once (a broker node restarting under both servers' broker
 *       connections), it fails open as the ALB does: each server is listed a second time as an
 *       unchecked {@code backup}, used only while no checked one is up ({@code option allbackups}),
 *       so requests still reach the servers and get their own answer (a 503 with {@code
 *       Retry-After} while the broker is away) instead of the balancer's bare 503.
 *   <li>AMQP ({@code mode tcp}): each node checked by a TCP connect every second; the sessions of a
 *       node marked down are cut ({@code on-marked-down shutdown-sessions}) so that clients
 *       reconnect through the proxy to a live node instead of waiting for a heartbeat timeout.
 *   <li>Spare slots ({@link #SPARE}, optional): checked servers on ports nothing listens on yet; a
 *       server started on one joins the rotation once its checks pass.
 *   <li>PostgreSQL ({@code mode tcp}, {@link #startDatabase}, a balancer of its own): one address
 *       for a primary and its standby, as RDS Multi-AZ's endpoint, which RDS switches to the
 *       standby once it has promoted it. One server is in service, the others in maintenance, until
 *       {@link #switchDatabaseTo} (HAProxy's runtime API on an admin socket); each is checked every
 *       500 ms with {@code option pgsql-check}, and the sessions of a server marked down or
 *       switched away from are cut.
 *   <li>Stats ({@code mode http}, loopback only): HAProxy's own view of every server, read by
 *       {@link #awaitServersUp} so that a caller waits for the rotation itself, not a fixed time,
 *       and by {@link #serverResponses} (the requests per server a scaler tracks).
 * </ul>
 */
public final class HaProxy implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(HaProxy.class);

  /** Where Debian installs it, besides the {@code PATH} (often without /usr/sbin). */
  private static final List<Path> KNOWN = List.of(Path.of("/usr/sbin/haproxy"));

  private static final Duration START_LIMIT = Duration.ofSeconds(10);

  /** Starts of a balancer whose port was taken between its choice and HAProxy's bind. */
  private static final int PORT_ATTEMPTS = 3;

  /** The process on HAProxy's stats page: {@code <b>pid = </b> 1234 (process #1, ...}. */
  private static final Pattern STATS_PID = Pattern.compile("pid = (?:</b>)?\\s*(\\d+)");

  /** What HAProxy logs when it cannot bind a frontend's port. */
  private static final String PORT_TAKEN = "Address already in use";

  /** The HTTP backend's name in the configuration and in the stats. */
  static final String SERVERS_BACKEND = "albumstore_servers";

  /** The servers' backend's balancing: the ALB's "least outstanding requests". */
  public static final String LEAST_CONN = "leastconn";

  /** The servers' backend's balancing: each request to the next server in turn. */
  public static final String ROUND_ROBIN = "roundrobin";

  /** The suffix of each server's unchecked twin (the fail-open backup). */
  static final String FAIL_OPEN = "-fail-open";

  /**
   * The name of a spare slot ({@code spare-1}, ...): a checked server on a port where nothing
   * listens yet, so DOWN, until a server started there passes its check (a scale-out without
   * reloading the balancer). No fail-open twin: a slot that may be empty must never be sent
   * requests unchecked.
   */
  static final String SPARE = "spare-";

  /** The PostgreSQL backend's name in the configuration and in the stats. */
  static final String DATABASE_BACKEND = "albumstore_database";

  /** The prefix of the PostgreSQL backend's server names: {@code postgres-1}, ... */
  private static final String POSTGRES = "postgres-";

  private final Process process;
  private final int httpPort;
  private final int amqpPort;
  private final int databasePort;
  private final int statsPort;
  private final Path adminSocket;
  private final HttpClient http = HttpClient.newHttpClient();

  /** Ports are 0 for the frontends this balancer does not have; no admin socket: null. */
  private HaProxy(
      Process process,
      int httpPort,
      int amqpPort,
      int databasePort,
      int statsPort,
      Path adminSocket) {
    this.process = process;
    this.httpPort = httpPort;
    this.amqpPort = amqpPort;
    this.databasePort = databasePort;
    this.statsPort = statsPort;
    this.adminSocket = adminSocket;
  }

  /** The {@code haproxy} executable, or empty when it is not installed. */
  public static Optional<Path> executable() {
    List<Path> candidates = new ArrayList<>();
    for (String p : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!p.isBlank()) {
        candidates.add(Path.of(p, "haproxy"));
      }
    }
    candidates.addAll(KNOWN);
    return candidates.stream().filter(Files::isExecutable).findFirst();
  }

  /**
   * Writes {@code dir/haproxy.cfg} and starts HAProxy in the foreground with it; returns once both
   * frontends accept connections.
   *
   * @param serverPorts the HTTP ports of the server instances
   * @param brokerPorts the AMQP ports of the broker nodes
   */
  public static HaProxy start(Path dir, List<Integer> serverPorts, List<Integer> brokerPorts)
      throws IOException, InterruptedException {
    return start(dir, serverPorts, List.of(), brokerPorts);
  }

  /**
   * As {@link #start(Path, List, List)}, with spare slots for servers started later on {@code
   * sparePorts} ({@link #awaitSpareUp}).
   */
  public static HaProxy start(
      Path dir, List<Integer> serverPorts, List<Integer> sparePorts, List<Integer> brokerPorts)
      throws IOException, InterruptedException {
    return start(dir, serverPorts, sparePorts, brokerPorts, LEAST_CONN);
  }

  /**
   * As {@link #start(Path, List, List, List)}, with the servers' backend balanced by {@code
   * balance}: {@link #LEAST_CONN} (the ALB's way), or {@link #ROUND_ROBIN}, which sends each
   * request to the next server in turn, so that one client's requests alternate between servers
   * (what a test of consistency across servers wants).
   */
  public static HaProxy start(
      Path dir,
      List<Integer> serverPorts,
      List<Integer> sparePorts,
      List<Integer> brokerPorts,
      String balance)
      throws IOException, InterruptedException {
    return start(
        dir,
        () -> new Ports(LoopbackPorts.free(), LoopbackPorts.free(), 0, LoopbackPorts.free()),
        serverPorts,
        sparePorts,
        brokerPorts,
        balance);
  }

  /** As {@link #start(Path, List, List, List, String)}, on the ports {@code choice} makes. */
  static HaProxy start(
      Path dir,
      PortChoice choice,
      List<Integer> serverPorts,
      List<Integer> sparePorts,
      List<Integer> brokerPorts,
      String balance)
      throws IOException, InterruptedException {
    if (!balance.equals(LEAST_CONN) && !balance.equals(ROUND_ROBIN)) {
      throw new IllegalArgumentException("balance " + balance);
    }
    HaProxy proxy =
        launch(
            dir,
            choice,
            ports ->
                config(
                    ports.http(),
                    ports.amqp(),
                    ports.stats(),
                    serverPorts,
                    sparePorts,
                    brokerPorts,
                    balance),
            null);
    log.info(
        "HAProxy (pid {}) on http {} and amqp {}", proxy.pid(), proxy.httpPort, proxy.amqpPort);
    return proxy;
  }

  /**
   * A balancer for PostgreSQL alone: {@link #databasePort} reaches the server on the first of
   * {@code ports}, and another one after {@link #switchDatabaseTo}.
   */
  public static HaProxy startDatabase(Path dir, List<Integer> ports)
      throws IOException, InterruptedException {
    Path socket = dir.toAbsolutePath().resolve("admin.sock");
    HaProxy proxy =
        launch(
            dir,
            () -> new Ports(0, 0, LoopbackPorts.free(), LoopbackPorts.free()),
            chosen -> databaseConfig(chosen.database(), chosen.stats(), socket, ports),
            socket);
    log.info("HAProxy (pid {}) for PostgreSQL on {}", proxy.pid(), proxy.databasePort);
    return proxy;
  }

  /** The frontends' ports of one start; 0 for a frontend this balancer does not have. */
  record Ports(int http, int amqp, int database, int stats) {}

  /** Chooses the ports of one start. */
  @FunctionalInterface
  interface PortChoice {
    Ports choose() throws IOException;
  }

  /**
   * Writes {@code dir/haproxy.cfg} for ports {@code choice} makes, starts HAProxy on it and returns
   * once it listens. A port is free when chosen and bound by HAProxy a moment later, so another
   * process may take it in between (seen on CI, where two test JVMs start balancers at once): such
   * a start is tried again on fresh ports, at most {@link #PORT_ATTEMPTS} times. The configuration
   * says {@code noreuseport}, so that the bind fails instead of sharing the port with that process.
   */
  private static HaProxy launch(
      Path dir, PortChoice choice, Function<Ports, String> configOf, Path adminSocket)
      throws IOException, InterruptedException {
    for (int attempt = 1; ; attempt++) {
      Ports ports = choice.choose();
      try {
        return launch(dir, ports, configOf.apply(ports), adminSocket);
      } catch (IllegalStateException e) {
        if (attempt == PORT_ATTEMPTS || !String.valueOf(e.getMessage()).contains(PORT_TAKEN)) {
          throw e;
        }
        log.warn("HAProxy in {}: a port was taken before it bound; again on fresh ports", dir);
      }
    }
  }

  /** One start on {@code ports}. */
  private static HaProxy launch(Path dir, Ports ports, String config, Path adminSocket)
      throws IOException, InterruptedException {
    Path haproxy =
        executable()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "HAProxy is not installed; install it (Debian/Ubuntu: apt-get install"
                            + " haproxy; macOS: brew install haproxy)"));
    Files.createDirectories(dir);
    Path cfg = dir.resolve("haproxy.cfg");
    Files.writeString(cfg, config);
    Process p =
        new ProcessBuilder(haproxy.toString(), "-db", "-f", cfg.toString())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("haproxy.log").toFile())
            .start();
    HaProxy proxy =
        new HaProxy(p, ports.http(), ports.amqp(), ports.database(), ports.stats(), adminSocket);
    try {
      proxy.awaitListening(dir);
    } catch (IOException | RuntimeException | InterruptedException e) {
      proxy.close();
      throw e;
    }
    return proxy;
  }

  static String config(
      int httpPort,
      int amqpPort,
      int statsPort,
      List<Integer> serverPorts,
      List<Integer> sparePorts,
      List<Integer> brokerPorts,
      String balance) {
    StringBuilder c = new StringBuilder();
    c.append("global\n  maxconn 8192\n  noreuseport\n\n");
    c.append("defaults\n  timeout connect 2s\n  timeout check 2s\n  retries 3\n\n");
    c.append("frontend albumstore_http\n  mode http\n  bind 127.0.0.1:")
        .append(httpPort)
        .append("\n  timeout client 60s\n  default_backend " + SERVERS_BACKEND + "\n\n");
    c.append("backend " + SERVERS_BACKEND + "\n  mode http\n  balance " + balance + "\n")
        .append("  option redispatch\n  option allbackups\n  timeout server 60s\n")
        .append("  option httpchk GET /albumstore/health\n  http-check expect status 200\n");
    for (int i = 0; i < serverPorts.size(); i++) {
      String address = " 127.0.0.1:" + serverPorts.get(i);
      c.append("  server server-").append(i + 1).append(address);
      c.append(" check inter 1s fall 2 rise 2\n");
      c.append("  server server-").append(i + 1).append(FAIL_OPEN).append(address);
      c.append(" backup\n");
    }
    for (int i = 0; i < sparePorts.size(); i++) {
      c.append("  server " + SPARE).append(i + 1).append(" 127.0.0.1:").append(sparePorts.get(i));
      c.append(" check inter 1s fall 2 rise 2\n");
    }
    // AMQP connections live for hours and carry their own heartbeats (30 s): no idle timeout.
    c.append("\nfrontend albumstore_amqp\n  mode tcp\n  bind 127.0.0.1:")
        .append(amqpPort)
        .append("\n  timeout client 3h\n  default_backend albumstore_brokers\n\n");
    c.append("backend albumstore_brokers\n  mode tcp\n  balance leastconn\n  timeout server 3h\n");
    for (int i = 0; i < brokerPorts.size(); i++) {
      c.append("  server broker-")
          .append(i + 1)
          .append(" 127.0.0.1:")
          .append(brokerPorts.get(i))
          .append(" check inter 1s fall 2 rise 2 on-marked-down shutdown-sessions\n");
    }
    c.append(stats(statsPort));
    return c.toString();
  }

  static String databaseConfig(
      int databasePort, int statsPort, Path adminSocket, List<Integer> ports) {
    String check = " check inter 500ms fall 2 rise 2 on-marked-down shutdown-sessions";
    // Pooled database connections idle for minutes between bursts: no idle timeout here either.
    List<String> servers = new ArrayList<>();
    for (int i = 0; i < ports.size(); i++) {
      servers.add(
          "  server "
              + databaseServer(i)
              + " 127.0.0.1:"
              + ports.get(i)
              + check
              + (i == 0 ? "" : " disabled"));
    }
    return String.join(
            "\n",
            "global",
            "  maxconn 4096",
            "  noreuseport",
            "  stats socket " + adminSocket + " mode 600 level admin",
            "",
            "defaults",
            "  timeout connect 2s",
            "  timeout check 2s",
            "",
            "frontend albumstore_database",
            "  mode tcp",
            "  bind 127.0.0.1:" + databasePort,
            "  timeout client 3h",
            "  default_backend " + DATABASE_BACKEND,
            "",
            "backend " + DATABASE_BACKEND,
            "  mode tcp",
            "  timeout server 3h",
            "  option pgsql-check user postgres",
            String.join("\n", servers),
            "")
        + stats(statsPort);
  }

  /**
   * The name of the PostgreSQL server on the {@code slot}-th port (from 0) of {@link
   * #startDatabase}.
   */
  public static String databaseServer(int slot) {
    return POSTGRES + (slot + 1);
  }

  /**
   * What RDS does once it has promoted the standby: the endpoint leads to {@code slot}. Every other
   * server goes to maintenance and its sessions are cut, {@code slot} comes into service; this
   * returns once HAProxy has it {@code UP} (its checks passed).
   */
  public void switchDatabaseTo(int slot, Duration limit) throws IOException, InterruptedException {
    List<String> commands = new ArrayList<>();
    for (String server : databaseStates().keySet()) {
      if (!server.equals(databaseServer(slot))) {
        String name = DATABASE_BACKEND + "/" + server;
        commands.add("set server " + name + " state maint");
        commands.add("shutdown sessions server " + name);
      }
    }
    commands.add("set server " + DATABASE_BACKEND + "/" + databaseServer(slot) + " state ready");
    adminCommand(String.join("; ", commands));
    awaitDatabaseState(databaseServer(slot), "UP", limit);
  }

  /** One command line to HAProxy's runtime API; fails on an answer that is not empty. */
  private void adminCommand(String line) throws IOException {
    if (adminSocket == null) {
      throw new IllegalStateException("this balancer has no admin socket");
    }
    try (SocketChannel ch = SocketChannel.open(UnixDomainSocketAddress.of(adminSocket))) {
      ch.write(ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8)));
      ch.shutdownOutput();
      String answer =
          new String(Channels.newInputStream(ch).readAllBytes(), StandardCharsets.UTF_8).strip();
      if (!answer.isEmpty()) {
        throw new IOException("HAProxy answered '" + answer + "' to: " + line);
      }
    }
  }

  private static String stats(int statsPort) {
    return "\nfrontend stats\n  mode http\n  bind 127.0.0.1:"
        + statsPort
        + "\n  timeout client 10s\n  stats enable\n  stats uri /stats\n";
  }

  private void awaitListening(Path dir) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + START_LIMIT.toNanos();
    while (!(accepts(httpPort) && accepts(amqpPort) && accepts(databasePort) && servesStats())) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "HAProxy did not start: "
                + Files.readString(dir.resolve("haproxy.log"), StandardCharsets.UTF_8).strip());
      }
      Thread.sleep(50);
    }
  }

  /**
   * True once this process serves its stats page. A port that accepts proves little: HAProxy binds
   * its frontends one after another before it serves any, and exits when one of them is taken, so
   * for a moment its other ports accept and the taken one accepts for the process holding it (seen
   * on CI: a start on a port another balancer held passed for a success). The page names the
   * process that serves it, which does so only once every bind has succeeded.
   */
  private boolean servesStats() throws InterruptedException {
    if (!accepts(statsPort)) {
      return false;
    }
    HttpRequest get =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + statsPort + "/stats"))
            .timeout(Duration.ofSeconds(2))
            .build();
    try {
      Matcher pid = STATS_PID.matcher(http.send(get, HttpResponse.BodyHandlers.ofString()).body());
      return pid.find() && isOurs(Long.parseLong(pid.group(1)));
    } catch (IOException e) {
      return false;
    }
  }

  /** HAProxy's own process, or one it runs under (a wrapper on the PATH that did not exec it). */
  private boolean isOurs(long pid) {
    return pid == process.pid() || process.descendants().anyMatch(d -> d.pid() == pid);
  }

  /** True for an absent frontend (port 0). */
  private static boolean accepts(int port) {
    if (port == 0) {
      return true;
    }
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  public int httpPort() {
    return httpPort;
  }

  public int amqpPort() {
    return amqpPort;
  }

  /** The PostgreSQL frontend of a {@link #startDatabase} balancer. */
  public int databasePort() {
    if (databasePort == 0) {
      throw new IllegalStateException("this balancer has no PostgreSQL frontend");
    }
    return databasePort;
  }

  public long pid() {
    return process.pid();
  }

  /**
   * HAProxy's status of every server of the HTTP backend, by name ({@code server-1}: {@code UP},
   * {@code DOWN}, {@code UP 1/2} while rising, ...; spare slots too), from its CSV stats.
   */
  public Map<String, String> serverStates() throws IOException, InterruptedException {
    Map<String, String> states = new LinkedHashMap<>();
    states(SERVERS_BACKEND)
        .forEach(
            (name, status) -> {
              if (name.startsWith("server-") || name.startsWith(SPARE)) {
                states.put(name, status);
              }
            });
    return states;
  }

  /** HAProxy's status of every server of a {@link #startDatabase}, by {@link #databaseServer}. */
  public Map<String, String> databaseStates() throws IOException, InterruptedException {
    Map<String, String> states = states(DATABASE_BACKEND);
    states.keySet().removeIf(name -> !name.startsWith(POSTGRES));
    return states;
  }

  /**
   * Returns once HAProxy reports {@code server} of the PostgreSQL backend in {@code state}.
   *
   * @throws IllegalStateException with the states seen, when that takes longer than {@code limit}
   */
  public void awaitDatabaseState(String server, String state, Duration limit)
      throws IOException, InterruptedException {
    awaitState(this::databaseStates, server, state, limit);
  }

  /** The status of every row of {@code backend} in HAProxy's CSV stats, by server name. */
  private Map<String, String> states(String backend) throws IOException, InterruptedException {
    Map<String, String> states = new LinkedHashMap<>();
    stats(backend).forEach((name, row) -> states.put(name, row.get("status")));
    return states;
  }

  /**
   * The HTTP responses each server of the HTTP backend has sent since HAProxy started (the sum of
   * its {@code hrsp_*} counters), by name, spare slots and fail-open twins included: what an ALB's
   * {@code RequestCount} per target counts. A server's count restarts at 0 when a new server takes
   * its slot only if HAProxy restarts, so callers take differences.
   */
  public Map<String, Long> serverResponses() throws IOException, InterruptedException {
    Map<String, Long> responses = new LinkedHashMap<>();
    for (Map.Entry<String, Map<String, String>> e : stats(SERVERS_BACKEND).entrySet()) {
      if (e.getKey().startsWith("server-") || e.getKey().startsWith(SPARE)) {
        long sum = 0;
        for (String field : List.of("hrsp_1xx", "hrsp_2xx", "hrsp_3xx", "hrsp_4xx", "hrsp_5xx")) {
          String v = e.getValue().getOrDefault(field, "");
          sum += v.isEmpty() ? 0 : Long.parseLong(v);
        }
        String other = e.getValue().getOrDefault("hrsp_other", "");
        responses.put(e.getKey(), sum + (other.isEmpty() ? 0 : Long.parseLong(other)));
      }
    }
    return responses;
  }

  /** Every row of {@code backend} in HAProxy's CSV stats, by server name: field to value. */
  private Map<String, Map<String, String>> stats(String backend)
      throws IOException, InterruptedException {
    HttpRequest get =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + statsPort + "/stats;csv"))
            .timeout(Duration.ofSeconds(5))
            .build();
    List<String> lines =
        http.send(get, HttpResponse.BodyHandlers.ofString()).body().lines().toList();
    List<String> header = List.of(lines.get(0).replaceFirst("^# ", "").split(",", -1));
    int proxy = header.indexOf("pxname");
    int server = header.indexOf("svname");
    Map<String, Map<String, String>> rows = new LinkedHashMap<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",", -1);
      if (f.length > Math.max(proxy, server) && f[proxy].equals(backend)) {
        Map<String, String> row = new LinkedHashMap<>();
        for (int i = 0; i < Math.min(header.size(), f.length); i++) {
          row.put(header.get(i), f[i]);
        }
        rows.put(f[server], row);
      }
    }
    return rows;
  }

  /**
   * Returns once HAProxy has every checked server of the HTTP backend in its rotation ({@code UP}:
   * its health check passed {@code rise} times), not just once they answer: what a request sent to
   * the balancer meets.
   *
   * @throws IllegalStateException with the states seen, when that takes longer than {@code limit}
   */
  public void awaitServersUp(Duration limit) throws IOException, InterruptedException {
    await(this::serverStates, HaProxy::allCheckedUp, "servers not all UP", limit);
  }

  /**
   * Returns once HAProxy has spare slot {@code i} (from 0) in its rotation: a server started on its
   * port passed its checks.
   *
   * @throws IllegalStateException with the states seen, when that takes longer than {@code limit}
   */
  public void awaitSpareUp(int i, Duration limit) throws IOException, InterruptedException {
    awaitState(SPARE + (i + 1), "UP", limit);
  }

  /**
   * Returns once HAProxy reports {@code server} (a name of {@link #serverStates}) in {@code state}.
   *
   * @throws IllegalStateException with the states seen, when that takes longer than {@code limit}
   */
  public void awaitState(String server, String state, Duration limit)
      throws IOException, InterruptedException {
    awaitState(this::serverStates, server, state, limit);
  }

  private static void awaitState(StatesView view, String server, String state, Duration limit)
      throws IOException, InterruptedException {
    await(view, states -> state.equals(states.get(server)), server + " not " + state, limit);
  }

  /** What {@link #await} polls: a view of the stats. */
  @FunctionalInterface
  private interface StatesView {
    Map<String, String> read() throws IOException, InterruptedException;
  }

  /** Polls {@code view} every 100 ms until {@code done} holds for it. */
  private static void await(
      StatesView view, Predicate<Map<String, String>> done, String what, Duration limit)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    Map<String, String> states = view.read();
    while (!done.test(states)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("HAProxy: " + what + " within " + limit + ": " + states);
      }
      Thread.sleep(100);
      states = view.read();
    }
  }

  /** The servers of the rotation all UP; the spare slots do not count. */
  private static boolean allCheckedUp(Map<String, String> states) {
    List<String> checked =
        states.entrySet().stream()
            .filter(e -> !e.getKey().endsWith(FAIL_OPEN) && !e.getKey().startsWith(SPARE))
            .map(Map.Entry::getValue)
            .toList();
    return !checked.isEmpty() && checked.stream().allMatch("UP"::equals);
  }

  /** Stops HAProxy by its PID (SIGTERM, then SIGKILL after 5 s). */
  @Override
  public void close() throws InterruptedException {
    // HAProxy itself, or under a wrapper that did not exec it (isOurs): stop both.
    List<ProcessHandle> started = new ArrayList<>(process.descendants().toList());
    started.add(process.toHandle());
    started.forEach(ProcessHandle::destroy);
    for (ProcessHandle p : started) {
      if (!exited(p)) {
        p.destroyForcibly();
        exited(p);
      }
    }
  }

  /** Waits up to 5 s for {@code p} to exit. */
  private static boolean exited(ProcessHandle p) throws InterruptedException {
    try {
      p.onExit().get(5, TimeUnit.SECONDS);
      return true;
    } catch (ExecutionException | TimeoutException e) {
      return false;
    }
  }
}
