package org.albumstore.deploy;

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

/** The few calls the deployment test makes itself, with the JDK's HTTP client. */
final class Http {
  static final String BOUNDARY = "albumstore-deploy-it-5c1e";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  /** HTTP/1.1 as a load client speaks it: no h2c upgrade attempt on the first request. */
  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  private final String baseUrl;

  Http(String baseUrl) {
    this.baseUrl = baseUrl;
  }

  record Reply(int status, String contentType, String server, String body) {
    JsonNode json() throws IOException {
      return JSON.readTree(body);
    }
  }

  Reply get(String path) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(URI.create(baseUrl + path)).GET());
  }

  /** {@code POST /albums}; {@code filename} null sends the image as a part without a file name. */
  Reply postAlbum(byte[] image, String filename, String profileJson)
      throws IOException, InterruptedException {
    return send(
        HttpRequest.newBuilder(URI.create(baseUrl + "/albums"))
            .header("Content-Type", "multipart/form-data; boundary=" + BOUNDARY)
            .POST(HttpRequest.BodyPublishers.ofByteArray(multipart(image, filename, profileJson))));
  }

  private Reply send(HttpRequest.Builder request) throws IOException, InterruptedException {
    HttpResponse<String> r =
        client.send(
            request.timeout(TIMEOUT).build(),
            HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    return new Reply(
        r.statusCode(),
        r.headers().firstValue("Content-Type").orElse(""),
        r.headers().firstValue("Server").orElse(""),
        r.body());
  }

  /**
   * An {@code image} part and a JSON {@code profile} part. Without a file name Tomcat treats the
   * image part as a form field and counts it against the connector's maxPostSize (default 2 MB):
   * the case that needs server.xml's setting.
   */
  static byte[] multipart(byte[] image, String filename, String profileJson) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(image.length + 1024);
    String disposition =
        "Content-Disposition: form-data; name=\"image\""
            + (filename == null ? "" : "; filename=\"" + filename + "\"");
    ascii(out, "--" + BOUNDARY + "\r\n" + disposition + "\r\n");
    ascii(out, "Content-Type: application/octet-stream\r\n\r\n");
    out.writeBytes(image);
    ascii(out, "\r\n--" + BOUNDARY + "\r\n");
    ascii(out, "Content-Disposition: form-data; name=\"profile\"\r\n");
    ascii(out, "Content-Type: application/json\r\n\r\n");
    out.writeBytes(profileJson.getBytes(StandardCharsets.UTF_8));
    ascii(out, "\r\n--" + BOUNDARY + "--\r\n");
    return out.toByteArray();
  }

  private static void ascii(ByteArrayOutputStream out, String s) {
    out.writeBytes(s.getBytes(StandardCharsets.US_ASCII));
  }
}
