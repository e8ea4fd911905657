package org.albumstore.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.DatabaseSettings;
import org.albumstore.common.config.Env;
import org.albumstore.embedded.testing.TestServices;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's main logic, in this JVM, with a tiny load: it must start every part, say where
 * each came from, run the client to a verified end, and leave nothing running behind it.
 */
class LocalMainIT {
  private static final Pattern SERVER_PORT =
      Pattern.compile("embedded Tomcat at http://127\\.0\\.0\\.1:(\\d+)/albumstore");
  private static final Pattern EMBEDDED_PORT =
      Pattern.compile("(?:embedded PostgreSQL|embedded Qpid Broker-J) \\S+ on port (\\d+)");

  @TempDir Path dir;
  private final List<AmqpSettings> queues = new ArrayList<>();

  @AfterEach
  void deleteQueues() throws Exception {
    for (AmqpSettings q : queues) {
      TestServices.deleteTopology(q);
    }
  }

  /** The launcher's stdout and stderr, and its exit code. */
  private record Launch(int exitCode, String out, String err) {}

  private Launch launch(Map<String, String> env, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        LocalMain.run(
            Env.of(env),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            args);
    return new Launch(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private String[] tinyRun(String name, String... extra) {
    List<String> args = new ArrayList<>(List.of(extra));
    args.addAll(
        List.of(
            "--threads",
            "4",
            "--iterations",
            "5",
            "--no-progress",
            "--drain-timeout",
            "60",
            "--out",
            dir.resolve(name).toString()));
    return args.toArray(String[]::new);
  }

  @Test
  void configuredBrokerAndDatabaseAreUsedNamedAndLeftRunningWhileTheRestStops() throws Exception {
    AmqpSettings amqp = TestServices.amqp("local-main-configured");
    queues.add(amqp);
    DatabaseSettings db = TestServices.database();
    Set<String> threadsBefore = liveThreadNames();

    Launch r = launch(TestServices.overrides(amqp, db), tinyRun("configured"));

    assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
    assertThat(r.out())
        .contains("[1/5] database: configured ALBUMSTORE_JDBC_URL")
        .contains("[2/5] broker: configured ALBUMSTORE_AMQP_URI")
        .contains("queue " + amqp.queue())
        .contains("[3/5] server: embedded Tomcat at http://127.0.0.1:")
        .contains("[4/5] consumer: 2 connections x 2 channels")
        .contains("[5/5] client: ", "--rmq-api none", "--threads 4")
        .contains("--consumer-metrics http://127.0.0.1:")
        .doesNotContain("consumer metrics n/a")
        .contains("verified: 20 albums, 0 mismatches")
        .contains("stopped consumer", "stopped server")
        .doesNotContain("stopped embedded");
    assertThat(Files.readAllLines(dir.resolve("configured").resolve(StartedStack.REPORT_FILE)))
        .anySatisfy(l -> assertThat(l).startsWith("database: configured"))
        .anySatisfy(l -> assertThat(l).startsWith("broker: configured"));
    assertNothingLeftRunning(r, threadsBefore);
  }

  @Test
  void embeddedFlagStartsQpidAndPostgresAndStopsThemAgain() throws Exception {
    Set<String> threadsBefore = liveThreadNames();

    // No ALBUMSTORE_* at all: only the flag decides, whatever answers on this machine.
    Launch r = launch(Map.of(), tinyRun("embedded", "--embedded"));

    assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
    assertThat(r.out())
        .contains("[1/5] database: embedded PostgreSQL")
        .contains("[2/5] broker: embedded Qpid Broker-J")
        .contains("--rmq-api none")
        .contains("verified: 20 albums, 0 mismatches")
        .contains("stopped embedded broker", "stopped embedded PostgreSQL");
    List<Integer> embeddedPorts = ports(EMBEDDED_PORT, r.out());
    assertThat(embeddedPorts).hasSize(2);
    for (int port : embeddedPorts) {
      assertThat(answers(port)).as("port %d after the run", port).isFalse();
    }
    assertNothingLeftRunning(r, threadsBefore);
  }

  @Test
  void aConfiguredDatabaseWinsOverTheEmbeddedFlag() throws Exception {
    DatabaseSettings db = TestServices.database();
    Map<String, String> env = new HashMap<>();
    env.put(CommonSettings.JDBC_URL.variable(), db.jdbcUrl());
    env.put(CommonSettings.DB_USER.variable(), db.user());
    env.put(CommonSettings.DB_PASSWORD.variable(), db.password());

    Launch r = launch(env, tinyRun("mixed", "--embedded"));

    assertThat(r.exitCode()).as(r.out() + r.err()).isZero();
    assertThat(r.out())
        .contains("[1/5] database: configured ALBUMSTORE_JDBC_URL")
        .contains("[2/5] broker: embedded Qpid Broker-J")
        .contains("verified: 20 albums, 0 mismatches");
  }

  @Test
  void aConfiguredBrokerThatDoesNotAnswerIsAnErrorAndNothingIsStarted() throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    Map<String, String> env =
        Map.of(
            CommonSettings.AMQP_URI.variable(),
            "amqp://guest:guest@127.0.0.1:" + closedPort + "/%2F");

    Launch r = launch(env, tinyRun("unanswered"));

    assertThat(r.exitCode()).isEqualTo(3);
    assertThat(r.err())
        .contains("ALBUMSTORE_AMQP_URI is set to amqp://guest:***@127.0.0.1:" + closedPort)
        .contains("nothing answers");
    assertThat(r.out()).doesNotContain("[1/5]");
  }

  private static void assertNothingLeftRunning(Launch r, Set<String> threadsBefore) {
    List<Integer> server = ports(SERVER_PORT, r.out());
    assertThat(server).isNotEmpty();
    assertThat(answers(server.get(0))).as("the server's port after the run").isFalse();
    Set<String> left = liveThreadNames();
    left.removeAll(threadsBefore);
    assertThat(left)
        .as("threads started by the launch and still alive")
        .noneMatch(
            n -> n.startsWith("albumstore-consumer") || n.contains("-" + server.get(0) + "-"));
  }

  private static List<Integer> ports(Pattern p, String text) {
    List<Integer> ports = new ArrayList<>();
    Matcher m = p.matcher(text);
    while (m.find()) {
      int port = Integer.parseInt(m.group(1));
      if (!ports.contains(port)) {
        ports.add(port);
      }
    }
    return ports;
  }

  private static boolean answers(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static Set<String> liveThreadNames() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(Thread::isAlive)
        .map(Thread::getName)
        .collect(Collectors.toSet());
  }
}
