package org.albumstore.bench;

import static io.gatling.javaapi.core.CoreDsl.ByteArrayBody;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import io.gatling.javaapi.http.HttpRequestActionBuilder;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The load client's request mix for Gatling, against the do-nothing endpoint (bench/noop): per
 * iteration one multipart {@code POST /albums} (a 3,471-byte image part and a JSON profile part),
 * then two {@code POST /review/like/ID} and one {@code POST /review/dislike/ID}, ID the albumID the
 * endpoint answers, as bench/wrk/client-mix.lua sends them. Closed model like the client's: {@code
 * users} virtual users, each sending its next request when the previous one has answered, for
 * {@code seconds}.
 *
 * <p>Set up as a fair rival, the way Gatling is tuned for a throughput test: connections shared by
 * the users and kept alive ({@code shareConnections}), the multipart body encoded once (as the
 * client and wrk send theirs) instead of per request, Gatling's default status check (2xx/3xx) and
 * no other, its warm-up request (to an outside host) off, logging at WARN (src/main/resources).
 *
 * <p>System properties: {@code baseUrl} (e.g. {@code http://127.0.0.1:8080/albumstore/bench/noop}),
 * {@code albumId} (the albumID the endpoint answers: bench/lib.sh noop_album_id), {@code users}
 * (256), {@code seconds} (15), {@code headers} ({@code none}: Gatling's own; {@code client}: the
 * headers the load client sends beside the request's own, Accept and User-Agent as it sends them
 * and an Idempotency-Key of the same shape on every write, as bench/wrk/client-mix.lua's
 * BENCH_HEADERS=client).
 */
public class ClientMixSimulation extends Simulation {
  private static final String BASE_URL = System.getProperty("baseUrl");
  private static final int USERS = Integer.getInteger("users", 256);
  private static final int SECONDS = Integer.getInteger("seconds", 15);
  private static final String ALBUM_ID = requireProperty("albumId");
  private static final boolean CLIENT_HEADERS =
      "client".equals(System.getProperty("headers", "none"));
  private static final AtomicLong WRITES = new AtomicLong();
  private static final int IMAGE_BYTES = 3471;
  private static final String BOUNDARY = "benchboundary7d3f";
  private static final String PROFILE =
      "{\"artist\":\"Sex Pistols\",\"title\":\"Never Mind The Bollocks!\",\"year\":\"1977\"}";

  /** The same bytes as bench/wrk/client-mix.lua's album body. */
  private static byte[] albumBody() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    String head =
        "--" + BOUNDARY + "\r\n"
            + "Content-Disposition: form-data; name=\"image\"; filename=\"image.png\"\r\n"
            + "Content-Type: image/png\r\n\r\n";
    out.writeBytes(head.getBytes(StandardCharsets.US_ASCII));
    out.writeBytes("x".repeat(IMAGE_BYTES).getBytes(StandardCharsets.US_ASCII));
    String tail =
        "\r\n--" + BOUNDARY + "\r\n"
            + "Content-Disposition: form-data; name=\"profile\"\r\n"
            + "Content-Type: application/json\r\n\r\n"
            + PROFILE + "\r\n"
            + "--" + BOUNDARY + "--\r\n";
    out.writeBytes(tail.getBytes(StandardCharsets.US_ASCII));
    return out.toByteArray();
  }

  private final HttpProtocolBuilder protocol = protocol();

  private static HttpProtocolBuilder protocol() {
    HttpProtocolBuilder p =
        http.baseUrl(requireBaseUrl()).disableWarmUp().disableCaching().shareConnections();
    return CLIENT_HEADERS
        ? p.acceptHeader("application/json").userAgentHeader("albumstore-client")
        : p;
  }

  /** With {@code headers=client}, the write carries an Idempotency-Key of the client's shape. */
  private static HttpRequestActionBuilder keyed(HttpRequestActionBuilder write, String step) {
    return CLIENT_HEADERS
        ? write.header(
            "Idempotency-Key",
            session ->
                "20261124-121511-d8fb6888-t"
                    + session.userId() % 256
                    + "-"
                    + WRITES.incrementAndGet()
                    + "-"
                    + step)
        : write;
  }

  private static ChainBuilder review(String vote) {
    return exec(
        keyed(
            http("POST /review/" + vote).post("/review/" + vote + "/" + ALBUM_ID),
            "like".equals(vote) ? "l1" : "d"));
  }

  private final ScenarioBuilder mix =
      scenario("client mix")
          .during(Duration.ofSeconds(SECONDS))
          .on(
              exec(
                  keyed(
                      http("POST /albums")
                          .post("/albums")
                          .header("Content-Type", "multipart/form-data; boundary=" + BOUNDARY)
                          .body(ByteArrayBody(albumBody())),
                      "a")),
              review("like"),
              review("like"),
              review("dislike"));

  private static String requireProperty(String name) {
    String value = System.getProperty(name);
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("-D" + name + " is required");
    }
    return value;
  }

  private static String requireBaseUrl() {
    if (BASE_URL == null || !BASE_URL.startsWith("http://127.0.0.1:")) {
      throw new IllegalArgumentException(
          "-DbaseUrl=http://127.0.0.1:PORT/... is required (loopback only), was " + BASE_URL);
    }
    return BASE_URL;
  }

  {
    setUp(mix.injectOpen(atOnceUsers(USERS))).protocols(protocol);
  }
}
