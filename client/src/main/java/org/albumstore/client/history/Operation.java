package org.albumstore.client.history;

import java.util.Locale;
import org.albumstore.client.RequestType;

/**
 * One attempt of one request, as the history holds it: Jepsen's invocation and completion in one
 * record, since every attempt here completes (an answer, or a timeout or I/O error).
 *
 * @param line the line of the history file (1 = the first operation), to name it in reports
 * @param process the writer ({@code t3}, {@code w0}, {@code s1}) or reader ({@code r0}) that sent
 *     it: one at a time per process, so its operations are ordered
 * @param type the request
 * @param key the write's idempotency key (the same on every attempt of one write), or null
 * @param albumId the album in the path; of a {@code POST /albums}, the one its 200 returned, or
 *     null
 * @param sentMicros when the attempt was sent, in µs since the history's origin
 * @param endMicros when its answer or failure arrived
 * @param outcome the HTTP status, or the exception's simple name (a timeout, an I/O error)
 * @param likes of a {@code GET /review} answered 200, else -1
 * @param dislikes of a {@code GET /review} answered 200, else -1
 * @param badBody a 200 whose body was unusable: no album ID, unreadable counts, another profile
 */
public record Operation(
    long line,
    String process,
    RequestType type,
    String key,
    String albumId,
    long sentMicros,
    long endMicros,
    String outcome,
    long likes,
    long dislikes,
    boolean badBody) {

  /** The HTTP status, or -1 when the attempt got no answer. */
  public int status() {
    if (outcome.length() != 3) {
      return -1;
    }
    try {
      return Integer.parseInt(outcome);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  public boolean isSuccess() {
    int s = status();
    return s >= 200 && s < 300;
  }

  /**
   * A 4xx: the server refused the request before publishing anything (validation, an unknown path),
   * so a write answered so was not applied. Every other failure of a write (503, another 5xx, a
   * timeout, an I/O error) may have been applied: a 503 after a confirm timeout too, as the broker
   * may still store the message.
   */
  public boolean isRefused() {
    int s = status();
    return s >= 400 && s < 500;
  }

  @Override
  public String toString() {
    StringBuilder b =
        new StringBuilder("#")
            .append(line)
            .append(' ')
            .append(process)
            .append(' ')
            .append(type.label());
    if (albumId != null) {
      b.append(" album=").append(albumId);
    }
    if (key != null) {
      b.append(" key=").append(key);
    }
    b.append(
        String.format(Locale.ROOT, " [%.6f s, %.6f s] -> ", sentMicros / 1e6, endMicros / 1e6));
    b.append(outcome);
    if (likes >= 0) {
      b.append(" likes=").append(likes).append(" dislikes=").append(dislikes);
    }
    if (badBody) {
      b.append(" (unusable body)");
    }
    return b.toString();
  }
}
