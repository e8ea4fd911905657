package org.albumstore.embedded.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A RabbitMQ node of the RabbitMQ installed on this machine, started and stopped by a test or by
 * the cluster stack ({@link RabbitCluster}): its own node name, distribution port, configuration
 * file, plugins, Erlang cookie and directories, so it never touches the machine's own node ({@code
 * rabbit@localhost}) nor its files. Several nodes built with the same cookie can be clustered with
 * {@link #ctl}.
 *
 * <p>How it stays apart from the installed node: the node runs the installation's inner scripts
 * ({@code /usr/lib/rabbitmq/bin} on Debian, not the {@code /usr/sbin} wrappers that switch to the
 * {@code rabbitmq} user and log to {@code /var/log/rabbitmq}) as the current user, with {@code
 * HOME} (where Erlang keeps its cookie) and every {@code RABBITMQ_*} path pointing into the node's
 * directory, and {@code RABBITMQ_CONF_ENV_FILE} pointing at an empty file: the installed {@code
 * /etc/rabbitmq/rabbitmq-env.conf} names {@code rabbit@localhost}, and {@code
 * /etc/rabbitmq/rabbitmq.conf} pins the listener to 5672. Distribution and epmd stay on loopback.
 * If no epmd runs yet, the node starts one (as RabbitMQ always does); it outlives the node, as it
 * would for any Erlang program.
 */
public final class RabbitNode implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RabbitNode.class);

  private static final Duration CTL_TIMEOUT = Duration.ofSeconds(60);

  /**
   * How long {@link #close} lets the node stop cleanly before it kills its processes; with the
   * kill's own wait, a close takes at most 10 s more.
   */
  static final Duration STOP_LIMIT = Duration.ofSeconds(25);

  /** Where the node writes its VM's PID (RabbitMQ's own file; this class never reads it). */
  static final String PID_FILE = "node.pid";

  private final String nodeName;
  private final Path dir;
  private final Path installation;
  private final Map<String, String> env;
  private final Process process;
  private final Builder builder;
  private final int distPort;

  /**
   * The node's Erlang VM, a descendant of {@link #process} found while the node starts: kill and
   * close act on it by this handle, never by a PID read back from a file.
   */
  private volatile ProcessHandle vm;

  /** Where each running {@code rabbitmqctl} writes its output. */
  private final Map<Process, Path> outputs = new java.util.concurrent.ConcurrentHashMap<>();

  /** Stops the node if the JVM exits while it runs (a failed or interrupted run). */
  private final Thread stopAtExit = new Thread(this::atExit, "rabbit-node-stop");

  /** Set when a close begins; from then on the JVM's exit kills the node ({@link #atExit}). */
  private volatile boolean closing;

  private RabbitNode(
      String nodeName,
      Path dir,
      Path installation,
      Map<String, String> env,
      Process process,
      Builder builder,
      int distPort) {
    this.builder = builder;
    this.distPort = distPort;
    this.nodeName = nodeName;
    this.dir = dir;
    this.installation = installation;
    this.env = env;
    this.process = process;
  }

  /**
   * The directory holding {@code rabbitmq-server} and {@code rabbitmqctl} that run as the current
   * user: the root's when {@link Engines} chooses a release from it, else {@code
   * $RABBITMQ_HOME/sbin}, else Debian's and Ubuntu's {@code /usr/lib/rabbitmq/bin}, else the first
   * {@code rabbitmq-server} on the {@code PATH} (Homebrew, the generic Unix tarball); empty when
   * RabbitMQ is not installed.
   */
  public static Optional<Path> installation() {
    return installation(Engines.system());
  }

  /** As {@link #installation()}, for the RabbitMQ release {@code engines} chooses. */
  static Optional<Path> installation(Engines engines) {
    if (engines.rabbitmqFromRoot()) {
      return engines.rabbitmqTools();
    }
    List<Path> candidates = new ArrayList<>();
    String home = System.getenv("RABBITMQ_HOME");
    if (home != null && !home.isBlank()) {
      candidates.add(Path.of(home, "sbin"));
    }
    candidates.add(Path.of("/usr/lib/rabbitmq/bin"));
    for (String p : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      if (!p.isBlank()) {
        candidates.add(Path.of(p));
      }
    }
    return candidates.stream()
        .filter(d -> Files.isExecutable(d.resolve("rabbitmq-server")))
        .filter(d -> Files.isExecutable(d.resolve("rabbitmqctl")))
        .findFirst();
  }

  /**
   * A free TCP port on loopback for a process to listen on: below the ephemeral range, so that no
   * outgoing connection takes it before the process binds it, and outside the ports RabbitMQ's
   * command line tools bind ({@link LoopbackPorts}).
   */
  public static int freePort() throws IOException {
    return LoopbackPorts.free();
  }

  /** A node named {@code name@localhost} whose files live under {@code dir}. */
  public static Builder builder(String name, Path dir) {
    return new Builder(name, dir);
  }

  /** How the node is started; everything but the name and directory has a default. */
  public static final class Builder {
    private final String name;
    private final Path dir;
    private final List<String> config = new ArrayList<>();
    private final List<String> plugins = new ArrayList<>();
    private int distPort;
    private String distSourceAddress;
    private String cookie = "albumstore-test-" + UUID.randomUUID();
    private Engines engines; // null: this JVM's choice, read at start
    // A boot takes 5 to 15 s on a quiet machine; over 90 s was seen on a saturated 2-core one.
    private Duration startTimeout = Duration.ofSeconds(180);

    private Builder(String name, Path dir) {
      this.name = name;
      // Absolute: the node runs in this directory, and HOME (its cookie) is resolved from there.
      this.dir = dir.toAbsolutePath();
    }

    /** Lines of {@code rabbitmq.conf} (listeners, TLS options, ...). */
    public Builder config(String... lines) {
      config.addAll(List.of(lines));
      return this;
    }

    /** Plugins to enable, e.g. {@code rabbitmq_management}. */
    public Builder plugins(String... names) {
      plugins.addAll(List.of(names));
      return this;
    }

    /** The Erlang distribution port (default: a free one). */
    public Builder distPort(int port) {
      this.distPort = port;
      return this;
    }

    /**
     * The loopback address this node's outgoing distribution connections leave from (default: the
     * system's choice, 127.0.0.1). A {@link RabbitCluster} gives each node one of its own, so that
     * a {@link Partition} can cut exactly its links and nothing else on the machine.
     */
    public Builder distSourceAddress(String address) {
      this.distSourceAddress = address;
      return this;
    }

    /** The Erlang cookie (default: a random one); nodes of one cluster share it. */
    public Builder cookie(String value) {
      this.cookie = value;
      return this;
    }

    /**
     * The RabbitMQ release this node runs ({@link Engines#INSTALLED} or a version the root offers),
     * instead of the one {@link Engines} chooses for the whole JVM.
     */
    public Builder rabbitmq(String release) {
      this.engines = Engines.system().withRabbitmq(release);
      return this;
    }

    /** The releases this node's start honours. */
    Engines engines() {
      return engines == null ? Engines.system() : engines;
    }

    public Builder startTimeout(Duration timeout) {
      this.startTimeout = timeout;
      return this;
    }

    /**
     * Writes the node's files, starts it and returns once its applications run.
     *
     * @throws IllegalStateException when RabbitMQ is not installed, or the node does not start (the
     *     message carries the end of its log)
     */
    public RabbitNode start() throws IOException, InterruptedException {
      Path installation =
          installation(engines())
              .orElseThrow(() -> new IllegalStateException("RabbitMQ is not installed"));
      String nodeName = name.contains("@") ? name : name + "@localhost";
      Map<String, String> env = writeFiles(nodeName);
      int port = distPort > 0 ? distPort : freePort();
      long t0 = System.nanoTime();
      Process process = processBuilder(installation, env, port).start();
      RabbitNode node =
          new RabbitNode(nodeName, dir, installation, Map.copyOf(env), process, this, port);
      Runtime.getRuntime().addShutdownHook(node.stopAtExit);
      try {
        node.awaitStartup(startTimeout);
      } catch (IOException | RuntimeException | InterruptedException e) {
        node.close();
        throw e;
      }
      log.info(
          "RabbitMQ node {} started in {} ms (files in {})",
          nodeName,
          Duration.ofNanos(System.nanoTime() - t0).toMillis(),
          dir);
      return node;
    }

    /**
     * Writes the node's cookie, configuration, plugins and an empty env file under {@link #dir};
     * returns the variables that point the start script at them.
     */
    private Map<String, String> writeFiles(String nodeName) throws IOException {
      Files.createDirectories(dir);
      Path home = Files.createDirectories(dir.resolve("home"));
      Path cookieFile = home.resolve(".erlang.cookie");
      Files.deleteIfExists(cookieFile);
      Files.writeString(cookieFile, cookie, StandardCharsets.US_ASCII);
      if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
        // Erlang refuses a cookie file that others can read.
        Files.setPosixFilePermissions(cookieFile, PosixFilePermissions.fromString("r--------"));
      }
      Path confFile = dir.resolve("rabbitmq.conf");
      Files.write(confFile, config, StandardCharsets.UTF_8);
      Path pluginsFile = dir.resolve("enabled_plugins");
      Files.writeString(pluginsFile, "[" + String.join(",", plugins) + "].\n");
      // A node killed by SIGKILL leaves its PID file behind, naming a dead process; the new node
      // rewrites it in place, so a reader could see the old PID or a half-written file. Nothing of
      // ours reads it (see awaitStartup), and no stale copy is left for anyone else to read.
      Files.deleteIfExists(dir.resolve(PID_FILE));
      Path envFile = dir.resolve("rabbitmq-env.conf");
      Files.writeString(
          envFile, "# empty: the installed /etc/rabbitmq/rabbitmq-env.conf is not read\n");

      Map<String, String> env = new java.util.LinkedHashMap<>();
      env.put("HOME", home.toString());
      env.put("RABBITMQ_NODENAME", nodeName);
      env.put("RABBITMQ_CONF_ENV_FILE", envFile.toString());
      env.put("RABBITMQ_CONFIG_FILE", confFile.toString());
      env.put("RABBITMQ_ADVANCED_CONFIG_FILE", dir.resolve("advanced.config").toString());
      env.put("RABBITMQ_ENABLED_PLUGINS_FILE", pluginsFile.toString());
      env.put("RABBITMQ_MNESIA_BASE", dir.resolve("mnesia").toString());
      env.put("RABBITMQ_LOG_BASE", dir.resolve("log").toString());
      env.put("RABBITMQ_PID_FILE", dir.resolve(PID_FILE).toString());
      env.put("ERL_EPMD_ADDRESS", "127.0.0.1");
      return env;
    }

    /** The start script with only {@code env} (and the distribution settings) of RabbitMQ's own. */
    private ProcessBuilder processBuilder(Path installation, Map<String, String> env, int port) {
      ProcessBuilder pb =
          new ProcessBuilder(installation.resolve("rabbitmq-server").toString())
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("server.out").toFile());
      clean(pb.environment()).putAll(env);
      pb.environment().put("RABBITMQ_DIST_PORT", Integer.toString(port));
      // The listener stays on 127.0.0.1 (where "localhost" in the node's name resolves, for the
      // other nodes and the command line tools alike); only outgoing links get their own source.
      String erlArgs = "-kernel inet_dist_use_interface {127,0,0,1}";
      if (distSourceAddress != null) {
        erlArgs +=
            " -kernel inet_dist_connect_options [{ip,{"
                + distSourceAddress.replace('.', ',')
                + "}}]";
      }
      // The start script runs with globbing off (set -f): the brackets reach erl as they are.
      pb.environment().put("RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS", erlArgs);
      return pb;
    }
  }

  private static Map<String, String> clean(Map<String, String> env) {
    // A developer's RABBITMQ_* or ERL_* variables must not redirect the node.
    env.keySet().removeIf(k -> k.startsWith("RABBITMQ_") || k.startsWith("ERL_"));
    return env;
  }

  /**
   * Returns once the node's applications run, judged by the node itself: first its Erlang VM must
   * exist (a {@code beam} process under the start script), then {@code rabbitmqctl wait --pid} asks
   * the node by name until RabbitMQ has booted, and gives up if that VM exits. No file is read: a
   * PID file that a restarted node rewrites in place was a race: read mid-write, it failed the
   * start. Abandoned with the log as soon as the start script exits or the deadline passes.
   */
  private void awaitStartup(Duration timeout) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    ProcessHandle found = awaitVm(deadline);
    vm = found;
    long seconds = Math.max(1, TimeUnit.NANOSECONDS.toSeconds(deadline - System.nanoTime()));
    Process wait =
        ctlProcess("wait", "--pid", Long.toString(found.pid()), "--timeout", "" + seconds);
    while (!wait.waitFor(200, TimeUnit.MILLISECONDS)) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        wait.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        output(wait); // deletes its output file
        throw new IllegalStateException(
            "RabbitMQ node " + nodeName + " did not start: " + logTail());
      }
    }
    if (wait.exitValue() != 0) {
      throw new IllegalStateException(
          "RabbitMQ node "
              + nodeName
              + " did not start (rabbitmqctl wait: "
              + output(wait)
              + "): "
              + logTail());
    }
    output(wait);
  }

  /** The node's Erlang VM once the start script has launched it, polled until the deadline. */
  private ProcessHandle awaitVm(long deadline) throws InterruptedException {
    while (true) {
      Optional<ProcessHandle> found = findVm();
      if (found.isPresent()) {
        return found.get();
      }
      if (!process.isAlive() || System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "RabbitMQ node " + nodeName + " did not launch its Erlang VM: " + logTail());
      }
      Thread.sleep(20);
    }
  }

  /** A live {@code beam} (or {@code beam.smp}) process under this node's start script. */
  private Optional<ProcessHandle> findVm() {
    return process
        .toHandle()
        .descendants()
        .filter(ProcessHandle::isAlive)
        .filter(
            h ->
                h.info()
                    .command()
                    .map(c -> Path.of(c).getFileName().toString().startsWith("beam"))
                    .orElse(false))
        .findFirst();
  }

  /**
   * Runs {@code rabbitmqctl -n NODE args} with this node's cookie and returns its output, e.g.
   * {@code ctl("eval", "ssl:clear_pem_cache().")} or {@code ctl("join_cluster", other)}.
   *
   * @throws IOException when it fails; the message carries its output
   */
  public String ctl(String... args) throws IOException, InterruptedException {
    return ctl(CTL_TIMEOUT, args);
  }

  /** As {@link #ctl(String...)}, killed and failed after {@code limit}. */
  String ctl(Duration limit, String... args) throws IOException, InterruptedException {
    Process p = ctlProcess(args);
    if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
      p.destroyForcibly();
      throw new IOException("rabbitmqctl " + String.join(" ", args) + " timed out");
    }
    String out = output(p);
    if (p.exitValue() != 0) {
      throw new IOException(
          "rabbitmqctl " + String.join(" ", args) + " failed (exit " + p.exitValue() + "): " + out);
    }
    return out;
  }

  private Process ctlProcess(String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(installation.resolve("rabbitmqctl").toString());
    cmd.add("-n");
    cmd.add(nodeName);
    cmd.addAll(List.of(args));
    Path out = Files.createTempFile(dir, "rabbitmqctl-", ".out");
    ProcessBuilder pb =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile());
    clean(pb.environment()).putAll(env);
    Process p = pb.start();
    outputs.put(p, out);
    return p;
  }

  private String output(Process p) throws IOException {
    Path out = outputs.remove(p);
    if (out == null) {
      return "";
    }
    String text = Files.readString(out, StandardCharsets.UTF_8).strip();
    Files.deleteIfExists(out);
    return text;
  }

  /**
   * The crash: SIGKILL for the node's Erlang VM and its start script, no clean leave from the
   * cluster; returns once they are gone.
   */
  public void kill() throws InterruptedException {
    try {
      Runtime.getRuntime().removeShutdownHook(stopAtExit);
    } catch (IllegalStateException e) {
      // The JVM is shutting down; the hook finds the node gone.
    }
    Optional<ProcessHandle> beam = liveVm();
    beam.ifPresent(ProcessHandle::destroyForcibly);
    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (beam.isPresent() && beam.get().isAlive() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    log.info("RabbitMQ node {} killed (SIGKILL)", nodeName);
  }

  /** Whether the node's start script or its Erlang VM still runs (paused counts as running). */
  public boolean isRunning() {
    return process.isAlive() || liveVm().isPresent();
  }

  /**
   * SIGSTOP of the node's Erlang VM: it holds its connections and answers nothing, as in a long GC
   * pause or on a starved host, until {@link #resume}. Needs POSIX {@code kill}, as the nodes do.
   */
  public void pause() throws IOException, InterruptedException {
    signal("STOP");
    log.info("RabbitMQ node {} paused (SIGSTOP)", nodeName);
  }

  /** SIGCONT of the node's Erlang VM after {@link #pause}. */
  public void resume() throws IOException, InterruptedException {
    signal("CONT");
    log.info("RabbitMQ node {} resumed (SIGCONT)", nodeName);
  }

  private void signal(String name) throws IOException, InterruptedException {
    ProcessHandle beam =
        liveVm()
            .orElseThrow(() -> new IllegalStateException("RabbitMQ node " + nodeName + " is down"));
    Process kill =
        new ProcessBuilder("kill", "-" + name, Long.toString(beam.pid()))
            .redirectErrorStream(true)
            .start();
    String out = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
      throw new IllegalStateException("kill -" + name + " " + beam.pid() + " failed: " + out);
    }
  }

  /**
   * Starts this node again after {@link #kill} or {@link #close}: same name, files, AMQP port,
   * configuration and cookie, so it rejoins its cluster with its data.
   */
  public RabbitNode restart() throws IOException, InterruptedException {
    if (isRunning()) {
      throw new IllegalStateException(
          "RabbitMQ node " + nodeName + " still runs: kill or close it before a restart");
    }
    return builder.start();
  }

  public String nodeName() {
    return nodeName;
  }

  /** The port this run of the node listens on for distribution (on 127.0.0.1). */
  public int distPort() {
    return distPort;
  }

  public Path dir() {
    return dir;
  }

  /** The node's log file. */
  public Path logFile() {
    return dir.resolve("log").resolve(nodeName + ".log");
  }

  /** The last lines of the node's start script output and of its log, for a failure's message. */
  public String logTail() {
    StringBuilder b = new StringBuilder();
    for (Path f : List.of(dir.resolve("server.out"), logFile())) {
      try {
        if (Files.exists(f)) {
          List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
          b.append("\n--- ").append(f).append(" ---\n");
          b.append(String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size())));
        }
      } catch (IOException | RuntimeException e) {
        b.append("\n(").append(f).append(" unreadable: ").append(e).append(")");
      }
    }
    return b.toString();
  }

  /**
   * Stops the node ({@code rabbitmqctl stop}, within {@link #STOP_LIMIT}), then makes sure its
   * processes are gone: the script and the Erlang VM found at start-up, each only if still alive.
   * Until they are, the JVM's exit hook stays: a close on a thread the exit does not wait for (a
   * launcher that gave up waiting for it) cannot leave the node running.
   */
  @Override
  public void close() throws IOException, InterruptedException {
    closing = true;
    long deadline = System.nanoTime() + STOP_LIMIT.toNanos();
    if (process.isAlive()) {
      try {
        ctl(STOP_LIMIT, "stop");
      } catch (IOException e) {
        log.warn("rabbitmqctl stop of {} failed: {}", nodeName, e.getMessage());
      }
    }
    if (!process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
      log.warn(
          "RabbitMQ node {} still runs {} s after stop; killing it",
          nodeName,
          STOP_LIMIT.toSeconds());
      killAndWait(liveVm());
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    killAndWait(liveVm());
    if (Thread.currentThread() != stopAtExit) {
      try {
        Runtime.getRuntime().removeShutdownHook(stopAtExit);
      } catch (IllegalStateException e) {
        // The JVM is already shutting down: the hook runs (or ran) and finds the node gone.
      }
    }
  }

  /**
   * SIGKILL of the node's Erlang VM, and its exit awaited (bounded): a kill is only sent when
   * {@code destroyForcibly} returns, so a restart right after a close would still find the VM.
   */
  private void killAndWait(Optional<ProcessHandle> vm) throws InterruptedException {
    if (vm.isEmpty()) {
      return;
    }
    vm.get().destroyForcibly();
    try {
      vm.get().onExit().get(10, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      log.warn("the Erlang VM of {} did not exit within 10 s of SIGKILL", nodeName);
    }
  }

  /**
   * The JVM exits while this node may run: a clean stop if nothing closed it, else (a close is
   * under way on a thread the exit will not wait for) SIGKILL for the node and its running {@code
   * rabbitmqctl}s, so that none of them outlives the JVM.
   */
  private void atExit() {
    if (!closing) {
      closeQuietly();
      return;
    }
    liveVm().ifPresent(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    outputs.keySet().forEach(Process::destroyForcibly);
  }

  private void closeQuietly() {
    try {
      close();
    } catch (IOException | InterruptedException | RuntimeException e) {
      log.warn("could not stop RabbitMQ node {}: {}", nodeName, e.toString());
    }
  }

  /**
   * The Erlang VM of this node while it runs: the one found at start-up (it may have outlived its
   * start script), else one under the script (a start that failed before it was recorded).
   */
  private Optional<ProcessHandle> liveVm() {
    ProcessHandle known = vm;
    if (known != null) {
      return known.isAlive() ? Optional.of(known) : Optional.empty();
    }
    return findVm();
  }
}
