package org.albumstore.faults.harness;

import java.nio.file.Path;

/**
 * The runnable jars of one release of the server and the consumer: this checkout's build ({@link
 * #current}), or another commit's, built from git ({@code upgrade/Releases}). Every server and
 * consumer process says which release it runs, so that a test that mixes two (a rolling upgrade)
 * can replace an instance by the other and prove where each one ended.
 *
 * @param name how reports call it ({@code N}, {@code N+1}, ...)
 */
public record Release(String name, Path serverJar, Path consumerJar) {
  private static Release current;

  /** This checkout's jars ({@link Paths#serverJar()}, {@link Paths#consumerJar()}). */
  public static synchronized Release current() {
    if (current == null) {
      current = new Release("this build", Paths.serverJar(), Paths.consumerJar());
    }
    return current;
  }

  /** This release under another name (e.g. {@code N+1} for {@link #current()}). */
  public Release named(String other) {
    return new Release(other, serverJar, consumerJar);
  }

  @Override
  public String toString() {
    return name;
  }
}
