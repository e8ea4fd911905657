package org.albumstore.faults.battery;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The generated battery: {@code count} cases from a fixed seed (the same requests on every run, so
 * a failure reproduces), mixed by weight across the generators.
 */
public final class Battery {
  private Battery() {}

  public static List<Case> generate(long seed, int count, String runId, int maxImageBytes) {
    Texts t = new Texts(new Random(seed));
    AlbumCases albums = new AlbumCases(t, maxImageBytes);
    ReviewCases reviews = new ReviewCases(t, runId);
    PathCases paths = new PathCases(t, reviews);
    ProtocolCases protocol = new ProtocolCases(t, albums, runId);
    List<Case> cases = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int roll = t.between(0, 999);
      Case c;
      if (roll < 150) {
        c = albums.valid();
      } else if (roll < 330) {
        c = albums.invalid();
      } else if (roll < 480) {
        c = reviews.valid();
      } else if (roll < 620) {
        c = reviews.invalid();
      } else if (roll < 700) {
        c = paths.wrongMethod();
      } else if (roll < 760) {
        c = paths.read();
      } else if (roll < 850) {
        c = paths.unknownPath();
      } else if (roll < 975) {
        c = protocol.headers();
      } else if (roll < 985) {
        c = protocol.slow();
      } else if (roll < 995) {
        c = protocol.truncated();
      } else {
        c = protocol.abandoned();
      }
      cases.add(c);
    }
    return cases;
  }
}
