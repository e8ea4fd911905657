package org.albumstore.bench;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.ByteArrayBodyPart;
import static io.gatling.javaapi.http.HttpDsl.StringBodyPart;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import java.time.Duration;
import java.util.Arrays;

/**
 * The load client's request mix for Gatling, against the do-nothing endpoint (bench/noop): per
 * iteration one multipart {@code POST /albums} (a 3,471-byte image part and a JSON profile part),
 * then two {@code POST /review/like/noop} and one {@code POST /review/dislike/noop}, as
 * bench/wrk/client-mix.lua sends them. Closed model like the client's: {@code users} virtual users,
 * each on its own keep-alive connection, each sending its next request when the previous one has
 * answered, for {@code seconds}.
 *
 * <p>System properties: {@code baseUrl} (e.g. {@code http://127.0.0.1:8080/albumstore/bench/noop}),
 * {@code users} (256), {@code seconds} (15).
 */
public class ClientMixSimulation extends Simulation {
  private static final String BASE_URL = System.getProperty("baseUrl");
  private static final int USERS = Integer.getInteger("users", 256);
  private static final int SECONDS = Integer.getInteger("seconds", 15);
  private static final int IMAGE_BYTES = 3471;
  private static final String PROFILE =
      "{\"artist\":\"Sex Pistols\",\"title\":\"Never Mind The Bollocks!\",\"year\":\"1977\"}";

  private static byte[] image() {
    byte[] b = new byte[IMAGE_BYTES];
    Arrays.fill(b, (byte) 'x');
    return b;
  }

  // Gatling's default warm-up sends one request to an outside host before the run: off, the
  // measurement stays on loopback.
  private final HttpProtocolBuilder protocol =
      http.baseUrl(requireBaseUrl()).disableWarmUp().disableCaching();

  private final ChainBuilder review(String vote) {
    return exec(http("POST /review/" + vote).post("/review/" + vote + "/noop").check(status().is(200)));
  }

  private final ScenarioBuilder mix =
      scenario("client mix")
          .during(Duration.ofSeconds(SECONDS))
          .on(
              exec(http("POST /albums")
                      .post("/albums")
                      .bodyPart(
                          ByteArrayBodyPart("image", image())
                              .fileName("image.png")
                              .contentType("image/png"))
                      .bodyPart(StringBodyPart("profile", PROFILE).contentType("application/json"))
                      .asMultipartForm()
                      .check(status().is(200))),
              review("like"),
              review("like"),
              review("dislike"));

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
