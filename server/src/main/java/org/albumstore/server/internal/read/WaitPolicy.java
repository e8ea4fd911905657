package org.albumstore.server.internal.read;

import java.util.OptionalLong;
import org.albumstore.common.event.Identifiers;

/**
 * Decides, from the album ID alone, whether a GET that did not find the album should wait for it
 * (it may have been acknowledged and not yet applied) or answer 404 at once. Pure: the time is
 * passed in.
 *
 * <ul>
 *   <li>A v7 ID (issued without an Idempotency-Key) is waited for while it is recent: issued at
 *       most the window ago, and at most the clock-skew allowance in the future (another server's
 *       clock may run ahead of this one's).
 *   <li>A key-derived (v3) ID carries no time, because a retry on any server must get the same ID;
 *       it is always waited for.
 *   <li>Anything else (numbers like {@code 42}, v4 UUIDs, v7 IDs too old or too far ahead, other
 *       forms) cannot be an album acknowledged moments ago: 404 at once.
 * </ul>
 *
 * <p>A read that waits and does not find its album gets 503 past the bound, never 404 ({@link
 * AlbumWaiters}). So read-your-writes holds for a GET within the window of its album's POST: 200 or
 * 503. A GET later than the window for an album still not applied (consumers down for longer than
 * the window) gets 404; raise the window where such outages must be read through.
 *
 * <p>What this costs: a forged ID of the v3 form, or a v7 ID forged with a current time, waits the
 * full bound and gets a 503, not a 404. That is harmless because the wait holds no thread and the
 * number of waiting reads is bounded ({@link AlbumWaiters}): beyond it, 503 at once.
 */
final class WaitPolicy {
  private final long windowMs;
  private final long clockSkewMs;
  private final boolean enabled;

  public WaitPolicy(ReadWaitSettings s) {
    this.windowMs = s.windowMs();
    this.clockSkewMs = s.clockSkewMs();
    this.enabled = s.maxWaitMs() > 0;
  }

  /** True when a GET for this not-yet-found album ID should wait for it, at {@code nowMillis}. */
  public boolean worthWaitingFor(String albumId, long nowMillis) {
    if (!enabled) {
      return false;
    }
    if (Identifiers.isDerivedFromKey(albumId)) {
      return true;
    }
    OptionalLong issued = Identifiers.issuedAtMillis(albumId);
    if (issued.isEmpty()) {
      return false;
    }
    long age = nowMillis - issued.getAsLong();
    return age <= windowMs && age >= -clockSkewMs;
  }
}
