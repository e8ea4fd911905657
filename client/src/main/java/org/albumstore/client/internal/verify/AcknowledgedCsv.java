package org.albumstore.client.internal.verify;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.albumstore.common.event.Vote;

/**
 * {@code acknowledged.csv}: a run's {@link AcknowledgedWrites} on disk, one row per created album
 * with what the client was told about its reviews, so that {@code merge} can verify the union of
 * several clients' writes. Streamed both ways: never more than one row in memory beyond the
 * acknowledged writes themselves.
 */
public final class AcknowledgedCsv {
  public static final String NAME = "acknowledged.csv";
  static final String HEADER = "album_id,acked_likes,failed_likes,acked_dislikes,failed_dislikes";

  private AcknowledgedCsv() {}

  public static void write(AcknowledgedWrites acknowledged, Path file) throws IOException {
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      w.write(HEADER);
      w.write('\n');
      for (AcknowledgedSegment s : acknowledged.segments()) {
        for (int i = 0; i < s.size(); i++) {
          ExpectedCounts e = s.expected(i);
          w.write(e.albumId());
          w.write(',');
          w.write(Integer.toString(e.ackedLikes()));
          w.write(',');
          w.write(Integer.toString(e.failedLikes()));
          w.write(',');
          w.write(Integer.toString(e.ackedDislikes()));
          w.write(',');
          w.write(Integer.toString(e.failedDislikes()));
          w.write('\n');
        }
      }
    }
  }

  /**
   * Appends a file's albums to {@code into}, in a segment of their own.
   *
   * @return the number of albums read
   * @throws IOException also when the file is not an {@code acknowledged.csv}
   */
  public static long readInto(Path file, AcknowledgedWrites into) throws IOException {
    AcknowledgedSegment segment = into.newSegment();
    long n = 0;
    try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String header = r.readLine();
      if (!HEADER.equals(header)) {
        throw new IOException(file + " is not an " + NAME + " (header " + header + ")");
      }
      String line;
      while ((line = r.readLine()) != null) {
        String[] c = line.split(",", -1);
        if (c.length != 5) {
          throw new IOException(file + ": bad row '" + line + "'");
        }
        int index = segment.add(c[0]);
        repeat(segment, index, Vote.LIKE, true, c[1]);
        repeat(segment, index, Vote.LIKE, false, c[2]);
        repeat(segment, index, Vote.DISLIKE, true, c[3]);
        repeat(segment, index, Vote.DISLIKE, false, c[4]);
        n++;
      }
    } catch (NumberFormatException e) {
      throw new IOException(file + ": " + e.getMessage(), e);
    }
    return n;
  }

  private static void repeat(
      AcknowledgedSegment s, int index, Vote vote, boolean acknowledged, String count) {
    for (int k = Integer.parseInt(count); k > 0; k--) {
      s.vote(index, vote, acknowledged);
    }
  }
}
