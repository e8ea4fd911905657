package org.albumstore.deploy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A Tomcat installed and started by {@code tomcat/install.sh}, exactly as the README tells an
 * operator to do it, and stopped with {@code catalina.sh stop 30 -force}.
 *
 * <p>{@code catalina.sh start} leaves Tomcat running as a daemon that this JVM does not own, so a
 * shutdown hook kills it should the test JVM be stopped before {@link #stop()} (a build aborted
 * with Ctrl-C must not leave a Tomcat behind on the port).
 */
final class TomcatInstallation {
  /** install.sh's own wait for health (120 s) plus laying out the distribution. */
  static final Duration INSTALL_TIMEOUT = Duration.ofSeconds(180);

  static final int HEALTH_WAIT_SECONDS = 120;

  /** catalina.sh stop waits 30 s before it kills; the rest is its own start-up. */
  static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

  private final Path home;
  private final int port;
  private final Map<String, String> env;
  private final Path log;
  private final Thread killAtExit;
  private final Scripts.Result installResult;

  /**
   * Tomcat's JVM, taken from the PID file once, right after the start. A handle, not a number: it
   * knows the process's start time, so a PID the OS hands to another process after Tomcat exited is
   * never mistaken for Tomcat (and never killed). Null if no Tomcat was started.
   */
  private final ProcessHandle jvm;

  /** Where this start's lines begin in catalina.out: install.sh keeps logs/ of earlier runs. */
  private final long catalinaOutStart;

  private TomcatInstallation(
      Path home,
      int port,
      Map<String, String> env,
      Path log,
      Scripts.Result installResult,
      long catalinaOutStart)
      throws IOException {
    this.home = home;
    this.catalinaOutStart = catalinaOutStart;
    this.port = port;
    this.env = env;
    this.log = log;
    this.installResult = installResult;
    this.jvm = readPidFile(home).orElse(null);
    this.killAtExit = new Thread(this::destroy, "kill-tomcat-" + home.getFileName());
    Runtime.getRuntime().addShutdownHook(killAtExit);
  }

  /**
   * Runs {@code install.sh --start}: lays out {@code tarball} in {@code home} with this folder's
   * server.xml and setenv.sh, deploys {@code war}, starts Tomcat on 127.0.0.1:{@code port} and
   * waits for {@code /albumstore/health} to answer 200. Fails with the script's output if it does
   * not exit 0; a Tomcat it may have started is then stopped.
   */
  static TomcatInstallation install(
      Path deployDir, Path tarball, Path war, Path home, int port, Path envFile, Path log)
      throws IOException, InterruptedException {
    Map<String, String> env = Scripts.cleanEnvironment();
    env.put("ALBUMSTORE_ENV_FILE", envFile.toString());
    List<String> command =
        List.of(
            "bash",
            deployDir.resolve("tomcat/install.sh").toString(),
            "--tomcat",
            tarball.toString(),
            "--war",
            war.toString(),
            "--target",
            home.toString(),
            "--port",
            Integer.toString(port),
            "--address",
            "127.0.0.1",
            "--env-file",
            envFile.toString(),
            "--start",
            "--wait",
            Integer.toString(HEALTH_WAIT_SECONDS));
    Path catalinaOut = home.resolve("logs/catalina.out");
    long catalinaOutStart = Files.exists(catalinaOut) ? Files.size(catalinaOut) : 0;
    Scripts.Result r = Scripts.run(command, env, log, INSTALL_TIMEOUT);
    TomcatInstallation tomcat = new TomcatInstallation(home, port, env, log, r, catalinaOutStart);
    if (r.exitCode() != 0) {
      tomcat.destroy();
      throw new AssertionError(
          "install.sh exited " + r.exitCode() + " (log: " + log + "):\n" + r.tail(80));
    }
    if (tomcat.jvm == null) {
      throw new AssertionError("install.sh succeeded but no Tomcat runs by " + home + "/temp");
    }
    return tomcat;
  }

  Scripts.Result installResult() {
    return installResult;
  }

  String baseUrl() {
    return "http://127.0.0.1:" + port + "/albumstore";
  }

  /** The live process named by the PID file that setenv.sh points catalina.sh at. */
  private static Optional<ProcessHandle> readPidFile(Path home) throws IOException {
    Path pidFile = home.resolve("temp/catalina.pid");
    if (!Files.exists(pidFile)) {
      return Optional.empty();
    }
    String pid = Files.readString(pidFile, StandardCharsets.US_ASCII).strip();
    return pid.matches("[0-9]{1,10}")
        ? ProcessHandle.of(Long.parseLong(pid)).filter(ProcessHandle::isAlive)
        : Optional.empty();
  }

  /** Tomcat's JVM while it runs; empty once it exited. */
  Optional<ProcessHandle> process() {
    return Optional.ofNullable(jvm).filter(ProcessHandle::isAlive);
  }

  /** The JVM arguments Tomcat runs with: what setenv.sh made of the env file. */
  List<String> jvmArguments() {
    return process()
        .flatMap(p -> p.info().arguments())
        .map(List::of)
        .orElseThrow(() -> new AssertionError("Tomcat's process or its arguments are not visible"));
  }

  /**
   * {@code catalina.sh stop 30 -force}, the documented way to stop a Tomcat started with --start.
   */
  Scripts.Result stop() throws IOException, InterruptedException {
    Scripts.Result r =
        Scripts.run(
            List.of(home.resolve("bin/catalina.sh").toString(), "stop", "30", "-force"),
            env,
            log,
            STOP_TIMEOUT);
    // catalina.sh stop returns once the process is gone, but this JVM's view may lag a little.
    process().ifPresent(p -> p.onExit().completeOnTimeout(null, 5, TimeUnit.SECONDS).join());
    return r;
  }

  /**
   * Kills Tomcat if it still runs (after a failed test, or at JVM exit); idempotent. After a failed
   * install, whatever the PID file names then is what install.sh started.
   */
  void destroy() {
    try {
      Optional<ProcessHandle> p = jvm != null ? process() : readPidFile(home);
      if (p.isPresent()) {
        p.get().destroyForcibly();
        p.get().onExit().completeOnTimeout(null, 10, TimeUnit.SECONDS).join();
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot read Tomcat's PID file in " + home, e);
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(killAtExit);
      } catch (IllegalStateException alreadyExiting) {
        // Called from the hook itself while the JVM exits: nothing left to unregister.
      }
    }
  }

  /** What Tomcat and the application logged since this start (leniently decoded). */
  String catalinaOut() throws IOException {
    byte[] all = Files.readAllBytes(home.resolve("logs/catalina.out"));
    int from = (int) Math.min(catalinaOutStart, all.length);
    return new String(all, from, all.length - from, StandardCharsets.UTF_8);
  }

  /** The last lines of catalina.out and the application log: what went wrong inside Tomcat. */
  String logs() throws IOException {
    List<Path> files = new ArrayList<>();
    files.add(home.resolve("logs/catalina.out"));
    try (Stream<Path> s = Files.list(home.resolve("logs"))) {
      s.filter(f -> f.getFileName().toString().startsWith("localhost."))
          .sorted()
          .forEach(files::add);
    } catch (IOException e) {
      return "(no logs in " + home + "/logs: " + e + ")";
    }
    StringBuilder b = new StringBuilder();
    for (Path f : files) {
      if (Files.exists(f)) {
        // Leniently decoded: a log may hold bytes that are not UTF-8.
        String[] lines = new String(Files.readAllBytes(f), StandardCharsets.UTF_8).split("\n");
        b.append("== ").append(f).append('\n');
        for (int i = Math.max(0, lines.length - 40); i < lines.length; i++) {
          b.append(lines[i]).append('\n');
        }
      }
    }
    return b.toString();
  }
}
