package org.albumstore.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.CommonSettings;
import org.albumstore.common.config.Env;
import org.albumstore.embedded.testing.TestServices;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every way a request can be wrong gets its status and a JSON {@code msg}, and publishes nothing:
 * the test's own queue holds exactly as many messages after each bad request as before.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BadRequestIT {
  private static final int MAX_IMAGE = 1000;
  private static final byte[] IMAGE = new byte[] {(byte) 0x89, 'P', 'N', 'G'};
  private static final String PROFILE = Multipart.jsonProfile("a", "t", "1977");
  private static final String ID_65 = "x".repeat(65);

  private AmqpSettings amqp;
  private AlbumStoreServer server;
  private Api api;

  @BeforeAll
  void start() {
    amqp = TestServices.amqp("server.badRequests");
    Map<String, String> env = new HashMap<>(TestServices.overrides(amqp, TestServices.database()));
    env.put(CommonSettings.HTTP_PORT.variable(), "0");
    env.put(ServerSettings.MAX_IMAGE_BYTES.variable(), Integer.toString(MAX_IMAGE));
    server = AlbumStoreServer.start(Env.system().withOverrides(env));
    api = new Api(server.baseUrl());
  }

  @AfterAll
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
    TestServices.deleteTopology(amqp);
  }

  /** method, path, content type, body, headers, expected status, part of the msg, Allow. */
  static Stream<Arguments> badRequests() {
    String mp = Multipart.CONTENT_TYPE;
    Map<String, String> none = Map.of();
    return Stream.of(
        // unknown paths
        row("GET", "/nothing", null, null, none, 404, "unknown path", null),
        row("GET", "/", null, null, none, 404, "unknown path", null),
        row("GET", "/albums/1/2", null, null, none, 404, "unknown path", null),
        row("POST", "/review/like/1/extra", null, null, none, 404, "unknown path", null),
        row("GET", "/review", null, null, none, 404, "unknown path", null),
        row("GET", "/Albums/1", null, null, none, 404, "unknown path", null),
        // bad likeornot
        row("POST", "/review/love/1", null, null, none, 400, "likeornot", null),
        row("POST", "/review/LIKE/1", null, null, none, 400, "likeornot", null),
        row("POST", "/review/likes/1", null, null, none, 400, "likeornot", null),
        // bad or missing album IDs
        row("POST", "/review/like/", null, null, none, 400, "albumID is missing", null),
        row("POST", "/review/like/bad!id", null, null, none, 400, "albumID must be", null),
        row("POST", "/review/dislike/" + ID_65, null, null, none, 400, "albumID must be", null),
        row("POST", "/review/like/a%20b", null, null, none, 400, "albumID must be", null),
        row("POST", "/review/like/%C3%A4", null, null, none, 400, "albumID must be", null),
        row("GET", "/albums/bad!id", null, null, none, 400, "albumID must be", null),
        row("GET", "/albums/" + ID_65, null, null, none, 400, "albumID must be", null),
        row("GET", "/review/a.b", null, null, none, 400, "albumID must be", null),
        // bad Idempotency-Key
        row("POST", "/review/like/1", null, null, key("bad key"), 400, "Idempotency-Key", null),
        row("POST", "/review/like/1", null, null, key(ID_65), 400, "Idempotency-Key", null),
        row("POST", "/review/like/1", null, null, key("a.b"), 400, "Idempotency-Key", null),
        row(
            "POST",
            "/albums",
            mp,
            Multipart.album(IMAGE, PROFILE),
            key("k{1}"),
            400,
            "Idempotency-Key",
            null),
        // missing or empty image, broken multipart
        row(
            "POST",
            "/albums",
            mp,
            new Multipart().field("profile", PROFILE).build(),
            none,
            400,
            "'image' part is required",
            null),
        row(
            "POST",
            "/albums",
            mp,
            Multipart.album(new byte[0], PROFILE),
            none,
            400,
            "'image' part is empty",
            null),
        row(
            "POST",
            "/albums",
            mp,
            new Multipart().file("image", "c.png", "image/png", IMAGE).truncated(),
            none,
            400,
            "multipart body cannot be parsed",
            null),
        row(
            "POST",
            "/albums",
            "multipart/form-data",
            Multipart.album(IMAGE, PROFILE),
            none,
            400,
            "multipart body cannot be parsed",
            null),
        row(
            "POST",
            "/albums",
            mp,
            "garbage".getBytes(StandardCharsets.UTF_8),
            none,
            400,
            "'image' part is required",
            null),
        // bad or missing profile
        row(
            "POST",
            "/albums",
            mp,
            new Multipart().file("image", "c.png", "image/png", IMAGE).build(),
            none,
            400,
            "'profile' part is required",
            null),
        row(
            "POST",
            "/albums",
            mp,
            Multipart.album(IMAGE, "hello"),
            none,
            400,
            "class AlbumsProfile",
            null),
        row(
            "POST",
            "/albums",
            mp,
            Multipart.album(IMAGE, "{\"artist\":\"a\",\"title\":\"t\"}"),
            none,
            400,
            "profile.year is required",
            null),
        row(
            "POST",
            "/albums",
            mp,
            Multipart.album(IMAGE, "class AlbumsProfile {\n    title: t\n    year: 1977\n}"),
            none,
            400,
            "profile.artist is required",
            null),
        row(
            "POST",
            "/albums",
            mp,
            Multipart.album(IMAGE, Multipart.jsonProfile("a", "t", "soon")),
            none,
            400,
            "profile.year must be",
            null),
        row(
            "POST",
            "/albums",
            mp,
            Multipart.album(IMAGE, Multipart.jsonProfile("a", "", "1")),
            none,
            400,
            "profile.title is required",
            null),
        row(
            "POST",
            "/albums",
            mp,
            new Multipart()
                .file("image", "c.png", "image/png", IMAGE)
                .field("profile", new byte[] {'{', (byte) 0xC3, '}'}, "application/json")
                .build(),
            none,
            400,
            "not valid UTF-8",
            null),
        // oversized image
        row(
            "POST",
            "/albums",
            mp,
            Multipart.album(new byte[MAX_IMAGE + 1], PROFILE),
            none,
            413,
            "at most " + MAX_IMAGE + " bytes",
            null),
        row(
            "POST",
            "/albums",
            mp,
            Multipart.album(new byte[50 * MAX_IMAGE], PROFILE),
            none,
            413,
            "at most " + MAX_IMAGE + " bytes",
            null),
        // wrong content type
        row(
            "POST",
            "/albums",
            "text/plain",
            "x".getBytes(StandardCharsets.UTF_8),
            none,
            415,
            "multipart/form-data",
            null),
        row(
            "POST",
            "/albums",
            "application/json",
            PROFILE.getBytes(StandardCharsets.UTF_8),
            none,
            415,
            "multipart/form-data",
            null),
        row("POST", "/albums", null, null, none, 415, "multipart/form-data", null),
        // wrong method on a known path
        row("GET", "/albums", null, null, none, 405, "use POST", "POST"),
        row("PUT", "/albums/1", null, null, none, 405, "use GET", "GET"),
        row("POST", "/albums/1", null, null, none, 405, "use GET", "GET"),
        row("DELETE", "/review/like/1", null, null, none, 405, "use POST", "POST"),
        row("GET", "/review/like/1", null, null, none, 405, "use POST", "POST"),
        row("POST", "/review/1", null, null, none, 405, "use GET", "GET"),
        row("POST", "/health", null, null, none, 405, "use GET", "GET"),
        row("PATCH", "/albums", null, null, none, 405, "use POST", "POST"));
  }

  @ParameterizedTest(name = "[{index}] {0} {1} -> {5}")
  @MethodSource("badRequests")
  void aBadRequestGetsItsStatusAndAJsonMsgAndPublishesNothing(
      String method,
      String path,
      String contentType,
      byte[] body,
      Map<String, String> headers,
      int status,
      String msgPart,
      String allow)
      throws Exception {
    long before = TestServices.messageCount(amqp, amqp.queue());

    Api.Reply r = api.send(method, path, contentType, body, headers);

    assertThat(r.status()).as(r.body()).isEqualTo(status);
    assertThat(r.header("Content-Type")).startsWith("application/json");
    assertThat(r.json().get("msg")).contains(msgPart);
    assertThat(r.body()).doesNotContain("Exception", "at org.", "Tomcat");
    if (allow != null) {
      assertThat(r.header("Allow")).isEqualTo(allow);
    }
    assertThat(TestServices.messageCount(amqp, amqp.queue())).isEqualTo(before);
  }

  @Test
  void theTableCoversAtLeastThirtyBadRequests() {
    assertThat(badRequests().count()).isGreaterThanOrEqualTo(30);
  }

  @Test
  void anImageOfExactlyTheLimitIsAccepted() throws Exception {
    long before = TestServices.messageCount(amqp, amqp.queue());
    Api.Reply r = api.postAlbum(Multipart.album(new byte[MAX_IMAGE], PROFILE), Map.of());
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.json()).containsEntry("imageSize", Integer.toString(MAX_IMAGE));
    assertThat(TestServices.messageCount(amqp, amqp.queue())).isEqualTo(before + 1);
  }

  private static Map<String, String> key(String value) {
    return Map.of("Idempotency-Key", value);
  }

  private static Arguments row(
      String method,
      String path,
      String contentType,
      byte[] body,
      Map<String, String> headers,
      int status,
      String msgPart,
      String allow) {
    return Arguments.of(method, path, contentType, body, headers, status, msgPart, allow);
  }
}
