package org.albumstore.client.internal.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.albumstore.client.history.ApiRequest;
import org.albumstore.client.internal.stats.RequestObserver;
import org.albumstore.client.testing.StandInAlbumStore;
import org.albumstore.common.event.Vote;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real HTTP driver against a stand-in Album Store on an embedded Tomcat. */
class ApacheTransportTest {
  @TempDir static Path dir;
  private static StandInAlbumStore server;

  @BeforeAll
  static void start() throws Exception {
    server = new StandInAlbumStore(dir.resolve("tomcat"));
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  @Test
  void createsAnAlbumWithAMultipartUploadAndReviewsIt() throws Exception {
    try (ApacheTransport transport =
        new ApacheTransport(server.url() + "/", 4, Duration.ofSeconds(5))) {
      AlbumStoreClient client =
          new AlbumStoreClient(
              new RetryingCaller(transport, RetryPolicy.of(0), Sleeper.REAL, RequestObserver.NONE),
              RequestObserver.NONE,
              AlbumImage.builtIn());

      Optional<String> id = client.createAlbum("transport-test-a", System.nanoTime());
      assertThat(id).isPresent();
      assertThat(client.review(Vote.LIKE, id.get(), "transport-test-l1", System.nanoTime()))
          .isTrue();
      assertThat(client.review(Vote.DISLIKE, id.get(), "transport-test-d", System.nanoTime()))
          .isTrue();
      assertThat(client.getReview(id.get(), System.nanoTime())).isEqualTo(ReviewCounts.found(1, 1));

      assertThat(server.imageSizes()).contains(AlbumImage.builtIn().bytes().length);
      assertThat(server.profiles())
          .contains(AlbumStoreClient.profileJson(AlbumStoreClient.PROFILE));
      assertThat(server.idempotencyKeys())
          .contains("transport-test-a", "transport-test-l1", "transport-test-d");
    }
  }

  @Test
  void retriesAfter503WithTheSameKeyAndAppliesTheWriteOnce() throws Exception {
    server.failFirstAttempts(2);
    try (ApacheTransport transport = new ApacheTransport(server.url(), 4, Duration.ofSeconds(5))) {
      AlbumStoreClient client =
          new AlbumStoreClient(
              new RetryingCaller(transport, RetryPolicy.of(5), Sleeper.REAL, RequestObserver.NONE),
              RequestObserver.NONE,
              AlbumImage.builtIn());
      String id = client.createAlbum("transport-retry-a", System.nanoTime()).orElseThrow();
      assertThat(client.review(Vote.LIKE, id, "transport-retry-l1", System.nanoTime())).isTrue();
      assertThat(server.idempotencyKeys().stream().filter("transport-retry-l1"::equals)).hasSize(3);
      assertThat(client.getReview(id, System.nanoTime())).isEqualTo(ReviewCounts.found(1, 0));
    } finally {
      server.failFirstAttempts(0);
    }
  }

  @Test
  void noServerIsAnIoError() throws Exception {
    int freePort;
    try (ServerSocket s = new ServerSocket(0)) {
      freePort = s.getLocalPort();
    }
    try (ApacheTransport transport =
        new ApacheTransport(
            "http://127.0.0.1:" + freePort + "/albumstore", 1, Duration.ofSeconds(2))) {
      assertThatThrownBy(() -> transport.send(ApiRequest.getReview("1")))
          .isInstanceOf(IOException.class);
    }
  }
}
