package org.albumstore.client.internal.http;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import org.albumstore.client.history.ApiRequest;
import org.albumstore.client.history.ApiResponse;
import org.albumstore.common.metrics.RequestStart;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.message.BasicClassicHttpRequest;
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
 *
 * <p>Sampled attempts ({@link RequestStamps}) carry {@code X-Request-Start: t=<epoch µs>}, the send
 * time, from which the server measures the time before its servlet sees the request (network,
 * Tomcat's queue); it is meaningful only where the two clocks agree (same host, or synchronised).
 */
final class ApacheTransport implements Transport {
  /** Responses of this API are tiny; a bigger one is a defect, not something to buffer. */
  private static final int MAX_BODY_BYTES = 1 << 20;

  private final HttpHost target;
  private final String pathPrefix;
  private final PoolingHttpClientConnectionManager pool;

  /** The last album upload encoded, by identity: the workload sends one upload many times. */
  private volatile MultipartBody encoded;

  private final CloseableHttpClient client;
  private final RequestStamps.Shared stamps = new RequestStamps.Shared();

  /**
   * @param baseUrl e.g. {@code http://127.0.0.1:8080/albumstore}, without a trailing slash
   * @param connections the most requests in flight at once
   * @param timeout connect and response timeout of one attempt
   */
  ApacheTransport(String baseUrl, int connections, Duration timeout) {
    URI base = URI.create(baseUrl);
    this.target = new HttpHost(base.getScheme(), base.getHost(), base.getPort());
    String path = base.getRawPath() == null ? "" : base.getRawPath();
    this.pathPrefix = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
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
    // The minimal client: no redirect, retry, authentication, cookie or compression stages in its
    // execution chain (this client wants none of them: RetryingCaller owns retries), which made it
    // measurably cheaper per request than the full builder with those features disabled.
    this.client = HttpClients.createMinimal(pool);
  }

  @Override
  public ApiResponse send(ApiRequest request) throws IOException {
    // A request built from the target and a path: no URI is parsed per request.
    BasicClassicHttpRequest http =
        new BasicClassicHttpRequest(request.method(), target, pathPrefix + request.path());
    http.setHeader("Accept", "application/json");
    http.setHeader("User-Agent", "albumstore-client");
    if (request.idempotencyKey() != null) {
      http.setHeader("Idempotency-Key", request.idempotencyKey());
    }
    if (request.upload() != null) {
      http.setEntity(multipart(request.upload()));
    }
    // Last, so that the server's "client send -> servlet in" starts as close to the send as can be.
    if (stamps.due()) {
      http.setHeader(RequestStart.HEADER, RequestStart.value(Instant.now()));
    }
    return client.execute(
        target,
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

  /** The upload as a multipart body, encoded once per upload and then sent as bytes. */
  private HttpEntity multipart(ApiRequest.AlbumUpload upload) throws IOException {
    MultipartBody e = MultipartBody.of(encoded, upload);
    encoded = e;
    return new ByteArrayEntity(e.body(), ContentType.parse(e.contentType()));
  }

  /** Closes the connections; requests still in flight fail with an I/O error. */
  @Override
  public void close() {
    client.close(CloseMode.GRACEFUL);
    pool.close(CloseMode.GRACEFUL);
  }
}
