package org.albumstore.client.internal.verify;

/**
 * What one album's counters should read once every write has been applied.
 *
 * <p>A write that failed on the client's side (no 200 after all retries) may still have been
 * applied: its last attempt may have timed out after the server published it. So each counter has a
 * range: at least the acknowledged writes, at most those plus the failed ones.
 */
public record ExpectedCounts(
    String albumId, int ackedLikes, int failedLikes, int ackedDislikes, int failedDislikes) {

  public int maxLikes() {
    return ackedLikes + failedLikes;
  }

  public int maxDislikes() {
    return ackedDislikes + failedDislikes;
  }
}
