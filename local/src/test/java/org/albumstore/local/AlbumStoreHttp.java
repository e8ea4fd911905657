package org.albumstore.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

/**
 * The Album Store API as a test client sees it, on the JDK's HTTP client: what a browser or a
 * generated client sends, built by hand, so the server's parsing is exercised from the outside.
 */
final class AlbumStoreHttp {
  static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final String baseUrl;
  private final HttpClient http;

  /**
   * The client keeps its own executor: a caller's pool whose threads all block in {@link
   * HttpClient#send} would starve the client of the threads that complete those very sends.
   */
  AlbumStoreHttp(String baseUrl) {
    this.baseUrl = baseUrl;
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(TIMEOUT)
            .build();
  }

  record Answer(int status, String body) {
    JsonNode json() throws IOException {
      return JSON.readTree(body);
    }
  }

  /** {@code POST /albums}: multipart with an {@code image} file part and a {@code profile} text. */
  Answer postAlbum(byte[] image, String profile, String idempotencyKey)
      throws IOException, InterruptedException {
    String boundary = "----albumstore-it-" + UUID.randomUUID();
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    write(body, "--" + boundary + "\r\n");
    write(
        body,
        "Content-Disposition: form-data; name=\"image\"; filename=\"cover.png\"\r\n"
            + "Content-Type: image/png\r\n\r\n");
    body.write(image);
    write(body, "\r\n--" + boundary + "\r\n");
    write(body, "Content-Disposition: form-data; name=\"profile\"\r\n");
    write(body, "Content-Type: text/plain; charset=UTF-8\r\n\r\n");
    write(body, profile);
    write(body, "\r\n--" + boundary + "--\r\n");
    HttpRequest.Builder r =
        request("/albums")
            .header("Content-Type", "multipart/form-data; boundary=" + boundary)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray()));
    if (idempotencyKey != null) {
      r.header("Idempotency-Key", idempotencyKey);
    }
    return send(r.build());
  }

  /** {@code POST /review/{like|dislike}/{albumID}}. */
  Answer postReview(String likeOrNot, String albumId, String idempotencyKey)
      throws IOException, InterruptedException {
    HttpRequest.Builder r =
        request("/review/" + likeOrNot + "/" + albumId).POST(HttpRequest.BodyPublishers.noBody());
    if (idempotencyKey != null) {
      r.header("Idempotency-Key", idempotencyKey);
    }
    return send(r.build());
  }

  Answer get(String path) throws IOException, InterruptedException {
    return send(request(path).GET().build());
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(TIMEOUT);
  }

  private Answer send(HttpRequest r) throws IOException, InterruptedException {
    HttpResponse<String> resp =
        http.send(r, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    return new Answer(resp.statusCode(), resp.body());
  }

  private static void write(ByteArrayOutputStream out, String s) {
    out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
  }
}
