package org.albumstore.faults.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.support.ClassicRequestBuilder;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.Timeout;

/**
 * The API as the load loops call it: one pooled Apache HttpClient 5, no automatic retries (the
 * loops retry themselves, with the same Idempotency-Key, and count every attempt), bounded timeouts
 * so that a hang shows up as an error instead of a stuck test.
 */
public final class ApiClient implements AutoCloseable {
  private final String baseUrl;
  private final CloseableHttpClient http;
  private final PoolingHttpClientConnectionManager pool;

  /** One attempt's answer. {@code sentNanos}/{@code receivedNanos} are System.nanoTime(). */
  public record Reply(
      int status, String retryAfter, String body, long sentNanos, long receivedNanos) {
    public long millis() {
      return (receivedNanos - sentNanos) / 1_000_000;
    }
  }

  public ApiClient(String baseUrl, int connections, Timeout responseTimeout) {
    this.baseUrl = baseUrl;
    this.pool =
        PoolingHttpClientConnectionManagerBuilder.create()
            .setMaxConnTotal(connections)
            .setMaxConnPerRoute(connections)
            .setDefaultConnectionConfig(
                ConnectionConfig.custom()
                    .setConnectTimeout(Timeout.ofSeconds(10))
                    .setSocketTimeout(responseTimeout)
                    .build())
            .build();
    this.http =
        HttpClients.custom()
            .setConnectionManager(pool)
            .disableAutomaticRetries()
            .disableRedirectHandling()
            .disableContentCompression()
            .disableCookieManagement()
            .setDefaultRequestConfig(
                RequestConfig.custom()
                    .setResponseTimeout(responseTimeout)
                    .setConnectionRequestTimeout(Timeout.ofSeconds(30))
                    .build())
            .build();
  }

  public String baseUrl() {
    return baseUrl;
  }

  public Reply postAlbum(String idempotencyKey, byte[] multipartBody) throws IOException {
    ClassicRequestBuilder b =
        ClassicRequestBuilder.post(baseUrl + "/albums")
            .setEntity(
                new ByteArrayEntity(multipartBody, ContentType.parse(Multipart.CONTENT_TYPE)));
    if (idempotencyKey != null) {
      b.setHeader("Idempotency-Key", idempotencyKey);
    }
    return send(b.build());
  }

  /** {@code POST /review/{likeOrNot}/{albumId}}. */
  public Reply vote(String likeOrNot, String albumId, String idempotencyKey) throws IOException {
    ClassicRequestBuilder b =
        ClassicRequestBuilder.post(baseUrl + "/review/" + likeOrNot + "/" + albumId);
    if (idempotencyKey != null) {
      b.setHeader("Idempotency-Key", idempotencyKey);
    }
    return send(b.build());
  }

  public Reply get(String path) throws IOException {
    return send(ClassicRequestBuilder.get(baseUrl + path).build());
  }

  private Reply send(ClassicHttpRequest request) throws IOException {
    long sent = System.nanoTime();
    return http.execute(
        request,
        response -> {
          String body =
              response.getEntity() == null
                  ? ""
                  : EntityUtils.toString(response.getEntity(), StandardCharsets.UTF_8);
          Header retryAfter = response.getFirstHeader("Retry-After");
          return new Reply(
              response.getCode(),
              retryAfter == null ? null : retryAfter.getValue(),
              body,
              sent,
              System.nanoTime());
        });
  }

  @Override
  public void close() {
    http.close(CloseMode.GRACEFUL);
    pool.close(CloseMode.IMMEDIATE);
  }
}
