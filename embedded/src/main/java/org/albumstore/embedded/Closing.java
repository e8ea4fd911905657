package org.albumstore.embedded;

/** Closes several resources, all of them even if some fail. */
final class Closing {
  private Closing() {}

  /**
   * Closes each of {@code resources} in the given order (nulls skipped); throws the first failure
   * with the later ones attached as suppressed.
   */
  static void inOrder(AutoCloseable... resources) throws Exception {
    Exception first = null;
    for (AutoCloseable r : resources) {
      if (r == null) {
        continue;
      }
      try {
        r.close();
      } catch (Exception e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
