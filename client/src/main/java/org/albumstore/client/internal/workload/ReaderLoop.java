package org.albumstore.client.internal.workload;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.albumstore.client.internal.http.AlbumStoreApi;
import org.albumstore.client.internal.http.Sleeper;

/**
 * One reader thread: {@code GET /review/{albumID}} on random recently created albums, back to back,
 * for as long as it is told to keep reading.
 */
public final class ReaderLoop implements Runnable {
  private static final Duration NOTHING_YET_PAUSE = Duration.ofMillis(10);

  private final AlbumStoreApi api;
  private final RecentAlbums recent;
  private final BooleanSupplier keepReading;
  private final Sleeper sleeper;

  public ReaderLoop(
      AlbumStoreApi api, RecentAlbums recent, BooleanSupplier keepReading, Sleeper sleeper) {
    this.api = api;
    this.recent = recent;
    this.keepReading = keepReading;
    this.sleeper = sleeper;
  }

  @Override
  public void run() {
    try {
      while (keepReading.getAsBoolean()) {
        String albumId = recent.pick();
        if (albumId == null) {
          sleeper.sleep(NOTHING_YET_PAUSE);
          continue;
        }
        api.getReview(albumId, System.nanoTime());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
