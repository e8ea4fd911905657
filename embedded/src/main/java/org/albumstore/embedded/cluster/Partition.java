package org.albumstore.embedded.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A network partition between nodes of a {@link RabbitCluster}, made with {@code iptables} on
 * loopback, safe on a machine shared with other runs: every rule names a source or destination
 * address that only this cluster's nodes use (each node's outgoing distribution connections leave
 * from an address of its own, {@link RabbitCluster#sourceAddress}) and the distribution port of one
 * of its nodes, so no other traffic can match it.
 *
 * <p>Every rule carries the comment {@code albumstore-<pid>-<cluster>}: {@link #close} (and a JVM
 * shutdown hook, for an interrupted run) deletes this partition's rules, and {@link #create} first
 * deletes the rules of runs whose process is gone (a {@code kill -9}ed test JVM), never those of a
 * run still alive.
 *
 * <p>Rules are {@code DROP}, a silent partition as a failed switch makes: each side notices only
 * when its distribution ticks stop arriving ({@code net_ticktime}).
 */
public final class Partition implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Partition.class);

  /** The prefix of every rule's comment; the owner's PID follows. */
  static final String TAG_PREFIX = "albumstore-";

  /** {@code -A INPUT <spec with --comment [""]albumstore-...[""]>}: group 1 the spec, 2 the tag. */
  private static final Pattern TAGGED_RULE =
      Pattern.compile("^-A INPUT (.*--comment \"?(" + TAG_PREFIX + "[^\\s\"]+)\"?(?: .*)?)$");

  private static final Pattern OWNER = Pattern.compile("^" + TAG_PREFIX + "(\\d+)-");
  private static final List<Path> KNOWN =
      List.of(Path.of("/usr/sbin/iptables"), Path.of("/sbin/iptables"));

  private final Path iptables;
  private final String tag;
  private final List<List<String>> rules = new ArrayList<>();
  private final Thread healAtExit = new Thread(this::healQuietly, "partition-heal");

  private Partition(Path iptables, String tag) {
    this.iptables = iptables;
    this.tag = tag;
  }

  /** The {@code iptables} executable, or empty when it is not installed. */
  public static Optional<Path> executable() {
    List<Path> candidates = new ArrayList<>();
    for (String p : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      if (!p.isBlank()) {
        candidates.add(Path.of(p, "iptables"));
      }
    }
    candidates.addAll(KNOWN);
    return candidates.stream().filter(Files::isExecutable).findFirst();
  }

  /**
   * Why partitions cannot be made here, or empty when they can: {@code iptables} is installed and
   * this process may change the rules (root or {@code CAP_NET_ADMIN}), tried with a harmless tagged
   * rule that is added and deleted at once.
   */
  public static Optional<String> unavailable() {
    Optional<Path> iptables = executable();
    if (iptables.isEmpty()) {
      return Optional.of("iptables is not installed (apt-get install iptables)");
    }
    // 127.255.255.254 -> .253 on a port no one uses: matches nothing, even while it exists.
    List<String> probe =
        List.of(
            "INPUT",
            "-s",
            "127.255.255.254",
            "-d",
            "127.255.255.253",
            "-p",
            "tcp",
            "--dport",
            "9",
            "-m",
            "comment",
            "--comment",
            tagOf("probe"),
            "-j",
            "DROP");
    try {
      String added = run(iptables.get(), "-I", probe);
      if (added != null) {
        return Optional.of(
            "iptables may not change the rules here (needs root or CAP_NET_ADMIN): " + added);
      }
      String deleted = run(iptables.get(), "-D", probe);
      if (deleted != null) {
        return Optional.of("iptables could add but not delete a rule: " + deleted);
      }
      return Optional.empty();
    } catch (IOException e) {
      return Optional.of("iptables does not run: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.of("interrupted while trying iptables");
    }
  }

  /**
   * A partition with no rule yet, for the cluster {@code clusterId}; first deletes the rules left
   * by runs whose process is gone.
   */
  public static Partition create(String clusterId) throws IOException, InterruptedException {
    Path iptables =
        executable().orElseThrow(() -> new IllegalStateException("iptables is not installed"));
    Partition p = new Partition(iptables, tagOf(clusterId));
    p.deleteStaleRules();
    Runtime.getRuntime().addShutdownHook(p.healAtExit);
    return p;
  }

  private static String tagOf(String clusterId) {
    return TAG_PREFIX + ProcessHandle.current().pid() + "-" + clusterId;
  }

  /**
   * Cuts the distribution link between a node whose connections leave from {@code addressA} and
   * listen on {@code 127.0.0.1:portA}, and another ({@code addressB}, {@code portB}): both
   * directions of the connection each may open to the other.
   */
  public void cut(String addressA, int portA, String addressB, int portB)
      throws IOException, InterruptedException {
    cutOneWay(addressA, portB);
    cutOneWay(addressB, portA);
  }

  /**
   * The connection a node opens from {@code from} to the node listening on {@code 127.0.0.1:port}:
   * its packets, and the replies (the node listens on 127.0.0.1, where the command line tools reach
   * it; only the source address is the cluster's own).
   */
  private void cutOneWay(String from, int port) throws IOException, InterruptedException {
    add(List.of("-s", from, "-d", "127.0.0.1", "-p", "tcp", "--dport", "" + port));
    add(List.of("-s", "127.0.0.1", "-d", from, "-p", "tcp", "--sport", "" + port));
  }

  private void add(List<String> match) throws IOException, InterruptedException {
    List<String> rule = new ArrayList<>(List.of("INPUT"));
    rule.addAll(match);
    rule.addAll(List.of("-m", "comment", "--comment", tag, "-j", "DROP"));
    String failed = run(iptables, "-I", rule);
    if (failed != null) {
      throw new IOException("iptables -I " + String.join(" ", rule) + " failed: " + failed);
    }
    rules.add(rule);
  }

  /** Deletes every rule of this partition; the nodes reconnect on their own. */
  public void heal() throws IOException, InterruptedException {
    List<String> failures = new ArrayList<>();
    for (List<String> rule : List.copyOf(rules)) {
      String failed = run(iptables, "-D", rule);
      if (failed == null) {
        rules.remove(rule);
      } else {
        failures.add(failed);
      }
    }
    // Anything else under this tag (none expected) goes too: nothing may outlive the run.
    deleteTagged(tag::equals);
    if (!failures.isEmpty()) {
      throw new IOException("could not delete iptables rules " + tag + ": " + failures);
    }
  }

  /** The rules in place now, as {@code iptables -S} prints them. */
  public List<String> activeRules() throws IOException, InterruptedException {
    List<String> out = new ArrayList<>();
    for (String line : list()) {
      if (Rule.parse(line).filter(r -> r.tag().equals(tag)).isPresent()) {
        out.add(line);
      }
    }
    return out;
  }

  @Override
  public void close() throws IOException, InterruptedException {
    try {
      Runtime.getRuntime().removeShutdownHook(healAtExit);
    } catch (IllegalStateException e) {
      // The JVM is shutting down: the hook heals.
    }
    heal();
  }

  private void healQuietly() {
    try {
      heal();
    } catch (IOException | InterruptedException | RuntimeException e) {
      log.warn("could not delete the partition's iptables rules {}: {}", tag, e.toString());
    }
  }

  private void deleteStaleRules() throws IOException, InterruptedException {
    deleteTagged(t -> ownerOf(t).map(pid -> ProcessHandle.of(pid).isEmpty()).orElse(false));
  }

  private void deleteTagged(java.util.function.Predicate<String> which)
      throws IOException, InterruptedException {
    for (String line : list()) {
      Optional<Rule> rule = Rule.parse(line);
      if (rule.isEmpty() || !which.test(rule.get().tag())) {
        continue;
      }
      String failed = run(iptables, "-D", rule.get().spec());
      if (failed == null) {
        log.info("deleted iptables rule {}", line);
      } else {
        log.warn("could not delete iptables rule {}: {}", line, failed);
      }
    }
  }

  /** The PID in a tag {@code albumstore-<pid>-<cluster>}, or empty for another tag. */
  static Optional<Long> ownerOf(String tag) {
    Matcher m = OWNER.matcher(tag);
    return m.find() ? Optional.of(Long.parseLong(m.group(1))) : Optional.empty();
  }

  /**
   * A rule of ours as {@code iptables -S INPUT} prints it: its tag, and its specification as {@code
   * -D} takes it ({@code INPUT -s ... -j DROP}).
   */
  record Rule(String tag, List<String> spec) {
    static Optional<Rule> parse(String line) {
      Matcher m = TAGGED_RULE.matcher(line.strip());
      if (!m.matches()) {
        return Optional.empty();
      }
      List<String> spec = new ArrayList<>(List.of("INPUT"));
      spec.addAll(List.of(m.group(1).replace("\"", "").split("\\s+")));
      return Optional.of(new Rule(m.group(2), List.copyOf(spec)));
    }
  }

  private List<String> list() throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder(iptables.toString(), "-w", "5", "-S", "INPUT")
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IOException("iptables -S INPUT failed: " + out.strip());
    }
    return out.lines().toList();
  }

  /** Runs {@code iptables -w 5 ACTION RULE...}; null on success, else its output. */
  private static String run(Path iptables, String action, List<String> rule)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(iptables.toString(), "-w", "5", action));
    cmd.addAll(rule);
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return "timed out";
    }
    return p.exitValue() == 0 ? null : out + " (exit " + p.exitValue() + ")";
  }
}
