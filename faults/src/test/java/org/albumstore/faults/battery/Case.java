package org.albumstore.faults.battery;

import java.util.Set;
import org.albumstore.common.event.Vote;

/**
 * One request of the battery: how to send it, which statuses the contract allows for it, and which
 * write it makes if (and only if) it is answered 2xx.
 *
 * @param category the generator that made it, for the per-category figures
 * @param request the bytes to send
 * @param delivery complete, dripped slowly, cut short, or abandoned
 * @param sent for {@link Delivery#TRUNCATED} and {@link Delivery#ABANDONED}: bytes of the request
 *     (head and body) actually sent
 * @param expect the statuses allowed
 * @param write what a 2xx publishes
 */
public record Case(
    String category, RawRequest request, Delivery delivery, int sent, Expect expect, Write write) {

  public enum Delivery {
    COMPLETE,
    SLOW,
    TRUNCATED,
    ABANDONED
  }

  /** Which answers are right: a set of statuses, "any 4xx", and whether a silent close is. */
  public record Expect(Set<Integer> statuses, boolean anyClientError, boolean closeOk) {
    public static Expect is(Integer... statuses) {
      return new Expect(Set.of(statuses), false, false);
    }

    public static Expect any4xx() {
      return new Expect(Set.of(), true, false);
    }

    /** Any 4xx or a 200 (a case whose acceptance is legitimate either way). */
    public static Expect any4xxOr200() {
      return new Expect(Set.of(200), true, false);
    }

    public Expect orAny4xx() {
      return new Expect(statuses, true, closeOk);
    }

    public Expect orClose() {
      return new Expect(statuses, anyClientError, true);
    }

    public boolean allows(int status) {
      if (status < 0) {
        return closeOk;
      }
      return statuses.contains(status) || (anyClientError && status >= 400 && status < 500);
    }

    @Override
    public String toString() {
      return (statuses.isEmpty() ? "" : statuses.toString())
          + (anyClientError ? " any 4xx" : "")
          + (closeOk ? " or close" : "");
    }
  }

  /**
   * The write a 2xx makes: an album (its ID comes from the 200's body; {@code keyAlbumId} is the
   * one the Idempotency-Key determines, or null) or a review of {@code albumId}.
   */
  public record Write(boolean album, String keyAlbumId, int imageSize, String albumId, Vote vote) {
    public static Write album(String keyAlbumId, int imageSize) {
      return new Write(true, keyAlbumId, imageSize, null, null);
    }

    public static Write review(String albumId, Vote vote) {
      return new Write(false, null, -1, albumId, vote);
    }
  }

  public static Case of(String category, RawRequest r, Expect e, Write w) {
    return new Case(category, r, Delivery.COMPLETE, -1, e, w);
  }
}
