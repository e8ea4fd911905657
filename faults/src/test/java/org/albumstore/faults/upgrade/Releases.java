package org.albumstore.faults.upgrade;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.albumstore.embedded.testing.ExternalTools;
import org.albumstore.faults.harness.Paths;
import org.albumstore.faults.harness.Release;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The releases an upgrade goes between: N, the release before this one, built from git; and N+1,
 * this checkout's own build. A test cannot take N's jars from anywhere else: what users run today
 * is a commit, and only building it proves the upgrade from exactly that.
 *
 * <p>N is built once per machine: {@code git archive} of {@link #PREVIOUS} from the repository that
 * holds this module, unpacked into a temporary directory, {@code mvn package -pl server,consumer
 * -am} there, and its two jars and {@code schema.sql} copied into {@code
 * ${XDG_CACHE_HOME:-~/.cache}/albumstore/releases/<commit>/}. The copy is moved into place whole,
 * under a file lock, so that two test JVMs never build twice nor read a half-written cache. A
 * variant of N (a bug planted in its source) is built the same way from a patch in {@code
 * src/test/resources/upgrade/}, cached under a key of its own.
 *
 * <p>A machine without git or without the commit (a shallow clone) skips the test in one line,
 * through {@link ExternalTools}; with {@code CI=true} that fails it. Maven is the one running the
 * build ({@code maven.home}, set by the pom), else {@code mvn} on {@code PATH}.
 */
public final class Releases {
  /**
   * N: the release before this one, which every upgrade test starts from. Move it forward when the
   * wire format or the schema changes again: it names the release the next change upgrades from.
   */
  public static final String PREVIOUS = "3994f2dd31347b79bf9c8e531ec915c70a811c44";

  /**
   * N with its consumer acknowledging the messages it cannot decode instead of dead-lettering them
   * (the planted upgrade bug): applied to N's source before the build.
   */
  public static final String ACK_UNREADABLE_PATCH = "ack-unreadable.patch";

  private static final String PURPOSE = "the upgrade from the previous release (built from git)";
  private static final Duration BUILD_LIMIT = Duration.ofMinutes(10);
  private static final String SERVER_JAR = "albumstore-server.jar";
  private static final String CONSUMER_JAR = "albumstore-consumer.jar";
  private static final String SCHEMA = "schema.sql";
  private static final Logger log = LoggerFactory.getLogger(Releases.class);

  private Releases() {}

  /** N, as users run it today. */
  public static Release previous() {
    return release("N", cached(PREVIOUS, null));
  }

  /** N with {@link #ACK_UNREADABLE_PATCH} applied: its consumer drops what it cannot read. */
  public static Release previousAckingUnreadable() {
    return release("N (planted: acks what it cannot read)", cached(PREVIOUS, ACK_UNREADABLE_PATCH));
  }

  /** N+1: this checkout's build. */
  public static Release next() {
    return Release.current().named("N+1");
  }

  /** N's {@code schema.sql}: the database as N left it, before the upgrade's expand step. */
  public static Path previousSchema() {
    return cached(PREVIOUS, null).resolve(SCHEMA);
  }

  private static Release release(String name, Path dir) {
    return new Release(name, dir.resolve(SERVER_JAR), dir.resolve(CONSUMER_JAR));
  }

  /** The cache directory of {@code commit} (with {@code patch}), built first when missing. */
  private static synchronized Path cached(String commit, String patch) {
    String key = patch == null ? commit : commit + "-" + patch.replaceFirst("\\.patch$", "");
    Path root = cacheRoot();
    Path dir = root.resolve(key);
    if (complete(dir)) {
      return dir;
    }
    try {
      Files.createDirectories(root);
      try (FileChannel channel =
              FileChannel.open(
                  root.resolve(key + ".lock"),
                  StandardOpenOption.CREATE,
                  StandardOpenOption.WRITE);
          FileLock lock = channel.lock()) {
        if (!complete(dir)) { // another JVM may have built it while this one waited
          build(commit, patch, key, dir);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot build release " + key, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while building release " + key, e);
    }
    return dir;
  }

  private static boolean complete(Path dir) {
    return Stream.of(SERVER_JAR, CONSUMER_JAR, SCHEMA)
        .allMatch(f -> Files.isRegularFile(dir.resolve(f)));
  }

  /** {@code ${XDG_CACHE_HOME:-$HOME/.cache}/albumstore/releases}, as the engines' cache. */
  static Path cacheRoot() {
    String cache = Optional.ofNullable(System.getenv("XDG_CACHE_HOME")).orElse("");
    Path base =
        cache.isBlank() ? Path.of(System.getProperty("user.home"), ".cache") : Path.of(cache);
    return base.resolve("albumstore").resolve("releases");
  }

  private static void build(String commit, String patch, String key, Path dir)
      throws IOException, InterruptedException {
    ExternalTools tools = ExternalTools.system();
    String git = tools.require("git", PURPOSE).toString();
    Path repo = Paths.basedir().getParent();
    tools.requireThat(
        run(repo, List.of(git, "cat-file", "-e", commit + "^{commit}"), null) == 0,
        "commit " + commit + " in " + repo + " (a shallow clone lacks it: git fetch --unshallow)",
        PURPOSE);
    String mvn = maven(tools);
    long t0 = System.nanoTime();
    Path tree = Files.createTempDirectory("albumstore-release-" + key + "-");
    Path buildLog = Paths.outputDir().resolve("release-" + key + "-build.log");
    try {
      Path source = unpack(git, repo, commit, patch, tree, buildLog);
      List<String> mvnPackage =
          List.of(
              mvn,
              "-B",
              "-q",
              "-DskipTests",
              "-Dmaven.javadoc.skip",
              "-Dspotless.apply.skip",
              "package",
              "-pl",
              "server,consumer",
              "-am");
      check(run(source, mvnPackage, buildLog), "mvn package", buildLog);
      keep(source, key, dir);
      log.info(
          "built release {} in {} s into {}", key, (System.nanoTime() - t0) / 1_000_000_000, dir);
    } finally {
      deleteTree(tree);
    }
  }

  /** {@code commit}'s tree in {@code tree/source}, with {@code patch} (if any) applied. */
  private static Path unpack(
      String git, Path repo, String commit, String patch, Path tree, Path buildLog)
      throws IOException, InterruptedException {
    Path zip = tree.resolve("source.zip");
    List<String> archive = List.of(git, "archive", "--format=zip", "-o", zip.toString(), commit);
    check(run(repo, archive, buildLog), "git archive", buildLog);
    Path source = Files.createDirectories(tree.resolve("source"));
    unzip(zip, source);
    if (patch != null) {
      Path patchFile = tree.resolve(patch);
      copyResource("/upgrade/" + patch, patchFile);
      List<String> apply = List.of(git, "apply", patchFile.toString());
      check(run(source, apply, buildLog), "git apply " + patch, buildLog);
    }
    return source;
  }

  /**
   * Copies the built jars and {@code schema.sql} beside {@code dir}, then moves the copy into place
   * whole: a reader sees the cache complete or not at all.
   */
  private static void keep(Path source, String key, Path dir) throws IOException {
    Path partial =
        Files.createDirectories(
            dir.resolveSibling(key + ".partial-" + ProcessHandle.current().pid()));
    Map<Path, String> files =
        Map.of(
            source.resolve("server/target").resolve(SERVER_JAR), SERVER_JAR,
            source.resolve("consumer/target").resolve(CONSUMER_JAR), CONSUMER_JAR,
            source.resolve(SCHEMA), SCHEMA);
    for (Map.Entry<Path, String> f : files.entrySet()) {
      Files.copy(f.getKey(), partial.resolve(f.getValue()), StandardCopyOption.REPLACE_EXISTING);
    }
    deleteTree(dir); // a copy some crash left incomplete
    Files.move(partial, dir, StandardCopyOption.ATOMIC_MOVE);
  }

  /** The {@code mvn} of the Maven running this build, else the one on {@code PATH}. */
  private static String maven(ExternalTools tools) {
    boolean windows =
        System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
    String home = System.getProperty("maven.home", "");
    if (!home.isBlank()) {
      Path mvn = Path.of(home, "bin", windows ? "mvn.cmd" : "mvn");
      if (Files.isRegularFile(mvn)) {
        return mvn.toString();
      }
    }
    return tools.require("mvn", PURPOSE).toString();
  }

  /**
   * Runs {@code cmd} in {@code dir}, its output appended to {@code output} (discarded when null);
   * the exit code. Git finds no repository above {@code dir}, so that {@code git apply} patches the
   * unpacked tree, wherever the temporary directory is.
   */
  private static int run(Path dir, List<String> cmd, Path output)
      throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
    if (output == null) {
      pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    } else {
      Files.writeString(
          output,
          "$ " + String.join(" ", cmd) + "\n",
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
      pb.redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()));
    }
    Map<String, String> env = pb.environment();
    env.keySet()
        .removeIf(
            // This build's settings and Maven's idea of its project directory stay out.
            k -> k.startsWith("ALBUMSTORE_") || (k.startsWith("MAVEN_") && k.contains("BASEDIR")));
    if (!dir.startsWith(Paths.basedir().getParent())) {
      env.put("GIT_CEILING_DIRECTORIES", dir.getParent().toString());
    }
    Process p = pb.start();
    if (!p.waitFor(BUILD_LIMIT.toMillis(), TimeUnit.MILLISECONDS)) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      return -1;
    }
    return p.exitValue();
  }

  private static void check(int exit, String what, Path buildLog) throws IOException {
    if (exit != 0) {
      List<String> lines = Files.readAllLines(buildLog, StandardCharsets.UTF_8);
      throw new IllegalStateException(
          what
              + " failed (exit "
              + exit
              + "), see "
              + buildLog
              + ":\n"
              + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size())));
    }
  }

  private static void copyResource(String name, Path to) throws IOException {
    try (InputStream in = Releases.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("no resource " + name + " on the test classpath");
      }
      Files.copy(in, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** Unpacks {@code zip} into {@code into}, refusing entries that would land outside it. */
  private static void unzip(Path zip, Path into) throws IOException {
    try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
      for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
        Path to = into.resolve(e.getName()).normalize();
        if (!to.startsWith(into)) {
          throw new IOException("zip entry outside the tree: " + e.getName());
        }
        if (e.isDirectory()) {
          Files.createDirectories(to);
        } else {
          Files.createDirectories(to.getParent());
          Files.copy(in, to, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    List<Path> paths = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(root)) {
      walk.sorted(Comparator.reverseOrder()).forEach(paths::add);
    }
    for (Path p : paths) {
      Files.delete(p);
    }
  }
}
