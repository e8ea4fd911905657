package org.albumstore.embedded.testing;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.opentest4j.TestAbortedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one rule for tests that need something outside the JDK and Maven (bash, shellcheck, cfn-lint,
 * a RabbitMQ management API, ...): on a developer's machine without it the test is skipped with one
 * line saying what was skipped and why, so {@code mvn -B verify} stays green with only a JDK and
 * Maven; on CI (environment variable {@value #CI_VARIABLE}{@code =true}, set by GitHub Actions and
 * by {@code .ci/run}'s environment) the same absence fails the test, so a check can never be lost
 * silently where it is supposed to run.
 *
 * <p>Each test names the tool and what it is needed for once: {@code
 * ExternalTools.system().require("shellcheck", "lint of deploy/'s shell scripts")}.
 */
public final class ExternalTools {
  /** The environment variable that marks a CI run; only the value {@code true} counts. */
  public static final String CI_VARIABLE = "CI";

  private static final Logger log = LoggerFactory.getLogger(ExternalTools.class);

  private final Map<String, String> env;

  private ExternalTools(Map<String, String> env) {
    this.env = Map.copyOf(env);
  }

  /** Tools as this JVM's environment finds them. */
  public static ExternalTools system() {
    return of(System.getenv());
  }

  /**
   * Tools as a child process started with {@code env} would find them (its {@code PATH}, its
   * {@value #CI_VARIABLE}).
   */
  public static ExternalTools of(Map<String, String> env) {
    return new ExternalTools(env);
  }

  /** True when {@value #CI_VARIABLE} is {@code true}: a missing tool is then a failure. */
  public boolean onCi() {
    return "true".equalsIgnoreCase(variable(CI_VARIABLE).orElse("").strip());
  }

  /**
   * The executable {@code command} on {@code PATH} (on Windows also with the {@code PATHEXT}
   * extensions: {@code bash.exe}), or empty.
   */
  public Optional<Path> find(String command) {
    for (String dir : variable("PATH").orElse("").split(File.pathSeparator)) {
      if (dir.isBlank()) {
        continue;
      }
      for (String name : candidates(command)) {
        try {
          Path file = Path.of(dir, name);
          if (Files.isRegularFile(file) && Files.isExecutable(file)) {
            return Optional.of(file);
          }
        } catch (InvalidPathException e) {
          break; // a PATH entry that is no path on this system names no tool
        }
      }
    }
    return Optional.empty();
  }

  /**
   * {@code command} for a test that cannot run at all without it: its path, else the test is
   * skipped (one line) off CI and fails on CI.
   *
   * @param why what the test does with it, e.g. "runs deploy/check.sh"
   */
  public Path require(String command, String why) {
    Optional<Path> found = find(command);
    if (found.isEmpty()) {
      throw missing(command + " is not installed (not on PATH)", why);
    }
    return found.get();
  }

  /**
   * For a test that runs part of its checks without {@code command}: true when it is on {@code
   * PATH}; false after logging the one skip line off CI; fails on CI.
   *
   * @param why what is skipped without it, e.g. "the lint of deploy/'s shell scripts"
   */
  public boolean available(String command, String why) {
    if (find(command).isPresent()) {
      return true;
    }
    String reason = command + " is not installed (not on PATH)";
    if (onCi()) {
      throw failure(reason, why);
    }
    log.warn(skipLine(reason, why));
    return false;
  }

  /**
   * The same rule for something other than a command: a service or feature the test needs (e.g.
   * "the RabbitMQ management API at http://127.0.0.1:15672") that {@code present} says is missing.
   */
  public void requireThat(boolean present, String what, String why) {
    if (!present) {
      throw missing(what + " is not available", why);
    }
  }

  private RuntimeException missing(String reason, String why) {
    if (onCi()) {
      throw failure(reason, why);
    }
    String line = skipLine(reason, why);
    log.warn(line);
    return new TestAbortedException(line);
  }

  private static String skipLine(String reason, String why) {
    return "SKIPPED " + why + ": " + reason + " (with " + CI_VARIABLE + "=true this fails)";
  }

  private AssertionError failure(String reason, String why) {
    return new AssertionError(
        reason + ", and " + CI_VARIABLE + "=true: on CI " + why + " must run, not be skipped");
  }

  private List<String> candidates(String command) {
    List<String> names = new ArrayList<>(List.of(command));
    if (File.separatorChar == '\\') {
      for (String ext : variable("PATHEXT").orElse(".EXE;.BAT;.CMD").split(";")) {
        if (!ext.isBlank()) {
          names.add(command + ext.toLowerCase(Locale.ROOT));
        }
      }
    }
    return names;
  }

  /** A variable by name, ignoring case as Windows does ({@code Path}, {@code PATH}). */
  private Optional<String> variable(String name) {
    String exact = env.get(name);
    if (exact != null) {
      return Optional.of(exact);
    }
    return env.entrySet().stream()
        .filter(e -> e.getKey().equalsIgnoreCase(name))
        .map(Map.Entry::getValue)
        .findFirst();
  }
}
