package org.albumstore.server;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.Map;

/** A small HTTP client for the API under test (plain JDK client, HTTP/1.1, no retries). */
final class Api {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private final String baseUrl;

  Api(String baseUrl) {
    this.baseUrl = baseUrl;
  }

  record Reply(int status, HttpResponse<String> raw) {
    String body() {
      return raw.body();
    }

    String header(String name) {
      return raw.headers().firstValue(name).orElse(null);
    }

    Map<String, String> json() {
      try {
        return JSON.readValue(raw.body(), new TypeReference<Map<String, String>>() {});
      } catch (IOException e) {
        throw new AssertionError("not a JSON object of strings: " + raw.body(), e);
      }
    }
  }

  Reply get(String path) throws IOException, InterruptedException {
    return send("GET", path, null, null, Map.of());
  }

  Reply post(String path) throws IOException, InterruptedException {
    return send("POST", path, null, null, Map.of());
  }

  Reply postAlbum(byte[] multipartBody, Map<String, String> headers)
      throws IOException, InterruptedException {
    return send("POST", "/albums", Multipart.CONTENT_TYPE, multipartBody, headers);
  }

  Reply send(
      String method, String path, String contentType, byte[] body, Map<String, String> headers)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(baseUrl + path))
            .timeout(Duration.ofSeconds(30))
            .method(
                method, body == null ? BodyPublishers.noBody() : BodyPublishers.ofByteArray(body));
    if (contentType != null) {
      b.header("Content-Type", contentType);
    }
    headers.forEach(b::header);
    HttpResponse<String> r = http.send(b.build(), BodyHandlers.ofString());
    return new Reply(r.statusCode(), r);
  }
}
