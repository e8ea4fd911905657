package org.albumstore.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.Env;
import org.albumstore.common.event.AlbumProfile;
import org.albumstore.common.event.AlbumVotes;
import org.albumstore.common.event.EventCodec;
import org.albumstore.common.event.Identifiers;
import org.albumstore.common.event.NewAlbum;
import org.albumstore.common.event.Review;
import org.albumstore.common.event.Vote;
import org.albumstore.common.event.WriteBundle;
import org.albumstore.embedded.testing.TestServices;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** The write path against the real broker: what a 200 promises is on the queue. */
class WritePathIT {
  private static final byte[] IMAGE = "\u0089PNG fake cover".getBytes(StandardCharsets.ISO_8859_1);

  private AmqpSettings amqp;
  private AlbumStoreServer server;
  private Api api;

  @BeforeEach
  void start(TestInfo test) {
    amqp = TestServices.amqp("server." + test.getTestMethod().orElseThrow().getName());
    Map<String, String> env =
        new java.util.HashMap<>(TestServices.overrides(amqp, TestServices.database()));
    env.put(CommonSettings.HTTP_PORT.variable(), "0");
    server = AlbumStoreServer.start(Env.system().withOverrides(env));
    api = new Api(server.baseUrl());
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
    TestServices.deleteTopology(amqp);
  }

  @Test
  void aPostedAlbumIsAnsweredWithItsIdAndSizeAndIsExactlyOneMessageOnTheQueue() throws Exception {
    String profile = Multipart.jsonProfile("Sex Pistols", "Never Mind The Bollocks!", "1977");
    Api.Reply r = api.postAlbum(Multipart.album(IMAGE, profile), Map.of());

    assertThat(r.status()).isEqualTo(200);
    assertThat(r.header("Content-Type"))
        .startsWith("application/json")
        .containsIgnoringCase("utf-8");
    String albumId = r.json().get("albumID");
    assertThat(Identifiers.isValidToken(albumId)).isTrue();
    assertThat(r.json()).containsEntry("imageSize", Integer.toString(IMAGE.length));

    List<WriteBundle> messages = Queues.take(amqp, 10);
    assertThat(messages).hasSize(1);
    WriteBundle bundle = messages.get(0);
    assertThat(bundle.reviews()).isEmpty();
    assertThat(bundle.albums()).hasSize(1);
    NewAlbum album = bundle.albums().get(0);
    assertThat(album.albumId()).isEqualTo(albumId);
    assertThat(album.profile())
        .isEqualTo(new AlbumProfile("Sex Pistols", "Never Mind The Bollocks!", "1977"));
    assertThat(album.image()).isEqualTo(IMAGE);
  }

  /**
   * The largest album the server can be set to accept, with the longest profile in 4-byte
   * characters, is one message the broker takes: RabbitMQ 4 refuses a message over 16 MiB ({@code
   * max_message_size}), and base64 makes a 12 MiB image exactly 16 MiB before the rest of the body.
   * So on RabbitMQ 4 this fails with a limit that ignores the rest of the message.
   */
  @Test
  void theLargestAcceptedAlbumIsOneMessageTheBrokerTakes() throws Exception {
    server.close();
    Map<String, String> env =
        new java.util.HashMap<>(TestServices.overrides(amqp, TestServices.database()));
    env.put(CommonSettings.HTTP_PORT.variable(), "0");
    env.put(
        ServerSettings.MAX_IMAGE_BYTES.variable(),
        Integer.toString(ServerSettings.MAX_IMAGE_LIMIT));
    server = AlbumStoreServer.start(Env.system().withOverrides(env));
    byte[] image = new byte[ServerSettings.MAX_IMAGE_LIMIT];
    new java.util.Random(7).nextBytes(image);
    String longest = "\uD83C\uDFB5".repeat(AlbumProfile.MAX_TEXT);
    String profile = Multipart.jsonProfile(longest, longest, "1977");

    Api.Reply r = new Api(server.baseUrl()).postAlbum(Multipart.album(image, profile), Map.of());

    assertThat(r.status()).as(r.body()).isEqualTo(200);
    List<WriteBundle> messages = Queues.take(amqp, 10);
    assertThat(messages).hasSize(1);
    assertThat(EventCodec.encode(messages.get(0)).length)
        .isLessThanOrEqualTo(EventCodec.MAX_MESSAGE_BYTES);
    assertThat(messages.get(0).albums().get(0).image()).isEqualTo(image);
  }

  @Test
  void theOpenApiTextProfileWithUnicodeArrivesIntact() throws Exception {
    String profile =
        "class AlbumsProfile {\n    artist: Björk 🎵\n    title: Homogenic\n" + "    year: 1997\n}";
    Api.Reply r = api.postAlbum(Multipart.album(IMAGE, profile), Map.of());
    assertThat(r.status()).isEqualTo(200);
    assertThat(Queues.take(amqp, 10).get(0).albums().get(0).profile())
        .isEqualTo(new AlbumProfile("Björk 🎵", "Homogenic", "1997"));
  }

  @Test
  void theSameIdempotencyKeyTwiceGivesTheSameAlbumId() throws Exception {
    String key = "retry-" + UUID.randomUUID();
    byte[] body = Multipart.album(IMAGE, Multipart.jsonProfile("a", "t", "2001"));
    Api.Reply first = api.postAlbum(body, Map.of("Idempotency-Key", key));
    Api.Reply second = api.postAlbum(body, Map.of("Idempotency-Key", key));
    Api.Reply other = api.postAlbum(body, Map.of("Idempotency-Key", key + "x"));

    assertThat(first.status()).isEqualTo(200);
    assertThat(second.status()).isEqualTo(200);
    assertThat(second.json().get("albumID"))
        .isEqualTo(first.json().get("albumID"))
        .isEqualTo(Identifiers.albumIdForKey(key));
    assertThat(other.json().get("albumID")).isNotEqualTo(first.json().get("albumID"));
  }

  @Test
  void aKeyedReviewTravelsWithItsKeyDerivedEventIdAndAnUnkeyedOneIsCountedUnderItsMessage()
      throws Exception {
    Api.Reply like =
        api.send("POST", "/review/like/42", null, null, Map.of("Idempotency-Key", "k1"));
    Api.Reply dislike = api.post("/review/dislike/album_X-1");

    assertThat(like.status()).isEqualTo(200);
    assertThat(like.body()).isEmpty();
    assertThat(dislike.status()).isEqualTo(200);
    List<Review> reviews = new ArrayList<>();
    List<AlbumVotes> votes = new ArrayList<>();
    List<WriteBundle> messages = Queues.take(amqp, 10);
    messages.forEach(b -> reviews.addAll(b.reviews()));
    messages.forEach(b -> votes.addAll(b.votes()));
    // Every message has its own ID: the consumer's ledger key for its unkeyed reviews.
    assertThat(messages).allSatisfy(b -> assertThat(b.id()).isNotNull());
    assertThat(messages).allSatisfy(b -> assertThat(b.version()).isEqualTo(EventCodec.VERSION));
    assertThat(messages.stream().map(WriteBundle::id).distinct()).hasSize(messages.size());
    assertThat(reviews)
        .containsExactly(new Review(Identifiers.reviewEventIdForKey("k1"), "42", Vote.LIKE));
    assertThat(votes).containsExactly(new AlbumVotes("album_X-1", 0, 1));
  }

  @Test
  void concurrentReviewsAreAllConfirmedAndEachArrivesExactlyOnce() throws Exception {
    int clients = 32;
    int perClient = 25;
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    List<Future<Integer>> okCounts = new ArrayList<>();
    try {
      for (int c = 0; c < clients; c++) {
        int client = c;
        okCounts.add(
            pool.submit(
                () -> {
                  int ok = 0;
                  for (int i = 0; i < perClient; i++) {
                    Api.Reply r =
                        api.send(
                            "POST",
                            "/review/like/c" + client,
                            null,
                            null,
                            Map.of("Idempotency-Key", "c" + client + "-" + i));
                    ok += r.status() == 200 ? 1 : 0;
                  }
                  return ok;
                }));
      }
      int ok = 0;
      for (Future<Integer> f : okCounts) {
        ok += f.get(60, TimeUnit.SECONDS);
      }
      assertThat(ok).isEqualTo(clients * perClient);
    } finally {
      pool.shutdownNow();
    }
    List<WriteBundle> messages = Queues.take(amqp, clients * perClient + 1);
    Set<UUID> events = new HashSet<>();
    messages.forEach(b -> b.reviews().forEach(r -> assertThat(events.add(r.eventId())).isTrue()));
    assertThat(events).hasSize(clients * perClient);
    assertThat(messages.size()).isLessThanOrEqualTo(clients * perClient);
  }

  @Test
  void concurrentUnkeyedReviewsAreCountedPerAlbumAndEachCountsOnce() throws Exception {
    int clients = 16;
    int perClient = 20;
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    Map<String, int[]> sent = new ConcurrentHashMap<>();
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        int client = c;
        done.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < perClient; i++) {
                    String album = "u" + (i % 3);
                    Vote vote = (client + i) % 2 == 0 ? Vote.LIKE : Vote.DISLIKE;
                    Api.Reply r = api.post("/review/" + vote.wire() + "/" + album);
                    assertThat(r.status()).isEqualTo(200);
                    int[] counts = sent.computeIfAbsent(album, k -> new int[2]);
                    synchronized (counts) {
                      counts[vote == Vote.LIKE ? 0 : 1]++;
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    Map<String, int[]> queued = new HashMap<>();
    List<WriteBundle> messages = Queues.take(amqp, clients * perClient + 1);
    for (WriteBundle b : messages) {
      assertThat(b.reviews()).isEmpty();
      for (AlbumVotes v : b.votes()) {
        int[] counts = queued.computeIfAbsent(v.albumId(), k -> new int[2]);
        counts[0] += v.likes();
        counts[1] += v.dislikes();
      }
    }
    assertThat(queued.keySet()).isEqualTo(sent.keySet());
    sent.forEach(
        (album, counts) -> assertThat(queued.get(album)).as(album).containsExactly(counts));
    assertThat(messages.size()).isLessThanOrEqualTo(clients * perClient);
  }

  @Test
  void healthReportsBrokerAndDatabaseUp() throws Exception {
    Api.Reply r = api.get("/health");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.json()).isEqualTo(Map.of("status", "UP", "broker", "UP", "database", "UP"));
  }

  @Test
  void aServerWithMorePartitionsDeclaresThemAtStartAndSpreadsItsBundlesOverAll() throws Exception {
    // The stream had one queue (the server of @BeforeEach); this one starts with three.
    AmqpSettings three = amqp.withPartitions(3);
    Map<String, String> env = new HashMap<>(TestServices.overrides(three, TestServices.database()));
    env.put(CommonSettings.HTTP_PORT.variable(), "0");
    try (AlbumStoreServer grown = AlbumStoreServer.start(Env.system().withOverrides(env))) {
      for (AmqpSettings.Partition p : three.partitionList()) {
        assertThat(TestServices.messageCount(three, p.queue()))
            .as(p.queue() + " declared before anything is published")
            .isZero();
      }
      Api grownApi = new Api(grown.baseUrl());
      for (int i = 0; i < 30; i++) {
        assertThat(grownApi.post("/review/like/" + UUID.randomUUID()).status()).isEqualTo(200);
      }
      int writes = 0;
      for (AmqpSettings.Partition p : three.partitionList()) {
        List<WriteBundle> messages = Queues.take(three, p.queue(), 100);
        assertThat(messages).as(p.queue()).isNotEmpty();
        for (WriteBundle b : messages) {
          writes += b.reviews().size() + b.votes().stream().mapToInt(v -> v.likes()).sum();
        }
      }
      assertThat(writes).isEqualTo(30);
    } finally {
      TestServices.deleteTopology(three);
    }
  }
}
