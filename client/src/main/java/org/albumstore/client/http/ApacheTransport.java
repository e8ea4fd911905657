package org.albumstore.client.http;

import java.io.IOException;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.entity.mime.MultipartEntityBuilder;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.pool.PoolConcurrencyPolicy;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * The wire: Apache HttpClient 5 (classic, blocking), one pooled keep-alive connection per load
 * thread.
 *
 * <p>The pool is sized to the number of threads that may call at once, so no thread ever waits for
 * a connection (such a wait would be measured as server latency). Automatic retries are off: {@link
 * RetryingCaller} owns retrying, with the idempotency key. Idle connections are validated after 2 s
 * so that a connection the server closed while idle costs a reconnect, not a failed attempt.
 */
public final class ApacheTransport implements Transport {
  /** Responses of this API are tiny; a bigger one is a defect, not something to buffer. */
  private static final int MAX_BODY_BYTES = 1 << 20;

  private final String baseUrl;
  private final PoolingHttpClientConnectionManager pool;
  private final CloseableHttpClient client;

  /**
   * @param baseUrl e.g. {@code http://127.0.0.1:8080/albumstore}, without a trailing slash
   * @param connections the most requests in flight at once
   * @param timeout connect and response timeout of one attempt
   */
  public ApacheTransport(String baseUrl, int connections, Duration timeout) {
    this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    Timeout t = Timeout.ofMilliseconds(timeout.toMillis());
    this.pool =
        PoolingHttpClientConnectionManagerBuilder.create()
            .setMaxConnTotal(connections)
            .setMaxConnPerRoute(connections)
            .setPoolConcurrencyPolicy(PoolConcurrencyPolicy.LAX)
            .setDefaultSocketConfig(SocketConfig.custom().setTcpNoDelay(true).build())
            .setDefaultConnectionConfig(
                ConnectionConfig.custom()
                    .setConnectTimeout(t)
                    .setSocketTimeout(t)
                    .setValidateAfterInactivity(TimeValue.ofSeconds(2))
                    .build())
            .build();
    this.client =
        HttpClients.custom()
            .setConnectionManager(pool)
            .setDefaultRequestConfig(
                RequestConfig.custom().setConnectionRequestTimeout(t).setResponseTimeout(t).build())
            .disableAutomaticRetries()
            .disableCookieManagement()
            .disableRedirectHandling()
            .disableAuthCaching()
            .evictIdleConnections(TimeValue.ofSeconds(30))
            .setUserAgent("albumstore-client")
            .build();
  }

  @Override
  public ApiResponse send(ApiRequest request) throws IOException {
    HttpUriRequestBase http =
        "POST".equals(request.method())
            ? new HttpPost(baseUrl + request.path())
            : new HttpGet(baseUrl + request.path());
    http.setHeader("Accept", "application/json");
    if (request.idempotencyKey() != null) {
      http.setHeader("Idempotency-Key", request.idempotencyKey());
    }
    if (request.upload() != null) {
      http.setEntity(multipart(request.upload()));
    }
    return client.execute(
        http,
        response -> {
          HttpEntity entity = response.getEntity();
          byte[] body =
              entity == null ? new byte[0] : EntityUtils.toByteArray(entity, MAX_BODY_BYTES);
          Header retryAfter = response.getFirstHeader("Retry-After");
          return new ApiResponse(
              response.getCode(),
              body,
              retryAfter == null
                  ? null
                  : RetryPolicy.parseRetryAfter(
                      retryAfter.getValue(), ZonedDateTime.now(ZoneOffset.UTC)));
        });
  }

  private static HttpEntity multipart(ApiRequest.AlbumUpload upload) {
    AlbumImage image = upload.image();
    return MultipartEntityBuilder.create()
        .addBinaryBody(
            "image", image.bytes(), ContentType.create(image.contentType()), image.fileName())
        .addTextBody("profile", upload.profileJson(), ContentType.APPLICATION_JSON)
        .build();
  }

  /** Closes the connections; requests still in flight fail with an I/O error. */
  @Override
  public void close() {
    client.close(CloseMode.GRACEFUL);
    pool.close(CloseMode.GRACEFUL);
  }
}
