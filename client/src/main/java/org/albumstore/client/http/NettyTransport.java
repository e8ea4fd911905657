package org.albumstore.client.http;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.pool.AbstractChannelPoolHandler;
import io.netty.channel.pool.ChannelHealthChecker;
import io.netty.channel.pool.SimpleChannelPool;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Future;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.albumstore.common.metrics.RequestStart;

/**
 * The wire on Netty: HTTP/1.1 keep-alive connections driven by a few event-loop threads (epoll on
 * Linux, NIO elsewhere) instead of a blocked thread per connection. Measured on the do-nothing
 * endpoint with 256 connections: 2.7x to 3.7x less CPU per request than {@link ApacheTransport}
 * (results/transport-cost/netty.md).
 *
 * <p>{@link #sendAsync} is the transport itself: it never blocks, and its future completes on an
 * event-loop thread. {@link #send} waits for it, for the callers that run on threads of their own.
 * Connections come from a pool that grows to the number of requests in flight at once and hands
 * back the most recently used one; a connection the server closed is dropped when next taken.
 * Automatic retries are none: {@link RetryingCaller} owns retrying, with the idempotency key.
 *
 * <p>Every attempt carries {@code X-Request-Start: t=<epoch µs>}, stamped when the connection is in
 * hand, just before the write (see {@link ApacheTransport}).
 */
public final class NettyTransport implements AsyncTransport {
  /** Responses of this API are tiny; a bigger one is a defect, not something to buffer. */
  private static final int MAX_BODY_BYTES = 1 << 20;

  /** The attempt a connection is waiting to answer; null while the connection is idle. */
  private static final AttributeKey<Exchange> EXCHANGE =
      AttributeKey.valueOf("albumstore.exchange");

  private final String hostHeader;
  private final String pathPrefix;
  private final long timeoutNanos;
  private final EventLoopGroup group;
  private final SimpleChannelPool pool;
  private final ResponseHandler responses = new ResponseHandler();

  /** The last album upload encoded, by identity: the workload sends one upload many times. */
  private volatile MultipartBody encoded;

  /**
   * @param baseUrl e.g. {@code http://127.0.0.1:8080/albumstore}, without a trailing slash
   * @param ioThreads event-loop threads
   * @param timeout connect timeout, and the longest wait for a response once the request is sent
   */
  public NettyTransport(String baseUrl, int ioThreads, Duration timeout) throws IOException {
    this(baseUrl, ioThreads, timeout, true);
  }

  /**
   * @param epollIfAvailable false: NIO even on Linux (what macOS and Windows get; for tests)
   */
  NettyTransport(String baseUrl, int ioThreads, Duration timeout, boolean epollIfAvailable)
      throws IOException {
    URI base = URI.create(baseUrl);
    boolean tls = "https".equalsIgnoreCase(base.getScheme());
    String host = base.getHost();
    int port = base.getPort() != -1 ? base.getPort() : tls ? 443 : 80;
    this.hostHeader = base.getPort() == -1 ? host : host + ":" + port;
    String path = base.getRawPath() == null ? "" : base.getRawPath();
    this.pathPrefix = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    this.timeoutNanos = timeout.toNanos();
    SslContext ssl = tls ? SslContextBuilder.forClient().build() : null;
    // Daemon threads: a run that ends without close() (a test's failure) does not hang the JVM.
    DefaultThreadFactory threads = new DefaultThreadFactory("albumstore-io", true);
    boolean epoll = epollIfAvailable && Epoll.isAvailable();
    this.group =
        new MultiThreadIoEventLoopGroup(
            ioThreads, threads, epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
    Bootstrap bootstrap =
        new Bootstrap()
            .group(group)
            .channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
            .remoteAddress(host, port)
            .option(ChannelOption.TCP_NODELAY, true)
            .option(
                ChannelOption.CONNECT_TIMEOUT_MILLIS,
                (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
    this.pool =
        new SimpleChannelPool(
            bootstrap,
            new AbstractChannelPoolHandler() {
              @Override
              public void channelCreated(Channel ch) {
                if (ssl != null) {
                  ch.pipeline().addLast(ssl.newHandler(ch.alloc(), host, port));
                }
                ch.pipeline()
                    .addLast(new HttpClientCodec())
                    .addLast(new HttpObjectAggregator(MAX_BODY_BYTES))
                    .addLast(responses);
              }
            },
            ChannelHealthChecker.ACTIVE);
  }

  /**
   * Sends one attempt without blocking.
   *
   * @return completes, on an event-loop thread, with the response whatever its status, or
   *     exceptionally with an {@link IOException} when no response arrived (refused, reset, closed,
   *     timed out)
   */
  @Override
  public CompletableFuture<ApiResponse> sendAsync(ApiRequest request) {
    CompletableFuture<ApiResponse> result = new CompletableFuture<>();
    FullHttpRequest http;
    try {
      http = encode(request);
    } catch (IOException e) {
      result.completeExceptionally(e);
      return result;
    }
    pool.acquire()
        .addListener(
            (Future<Channel> acquired) -> {
              if (!acquired.isSuccess()) {
                http.release();
                result.completeExceptionally(asIoException(acquired.cause()));
                return;
              }
              Channel ch = acquired.getNow();
              ScheduledFuture<?> timer =
                  ch.eventLoop()
                      .schedule(
                          () -> fail(ch, new SocketTimeoutException("no response in time")),
                          timeoutNanos,
                          TimeUnit.NANOSECONDS);
              ch.attr(EXCHANGE).set(new Exchange(result, timer));
              // Last, so that the server's "client send -> servlet in" starts at the send.
              http.headers().set(RequestStart.HEADER, RequestStart.value(Instant.now()));
              ch.writeAndFlush(http)
                  .addListener(
                      written -> {
                        if (!written.isSuccess()) {
                          fail(ch, asIoException(written.cause()));
                        }
                      });
            });
    return result;
  }

  /** The event loops themselves: a scheduled send or backoff wakes no other thread. */
  @Override
  public ScheduledExecutorService scheduler() {
    return group;
  }

  /** Waits for {@link #sendAsync}; never call it on an event-loop thread (it would deadlock). */
  @Override
  public ApiResponse send(ApiRequest request) throws IOException {
    try {
      return sendAsync(request).get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for the response");
    } catch (ExecutionException e) {
      throw asIoException(e.getCause());
    }
  }

  private FullHttpRequest encode(ApiRequest request) throws IOException {
    String uri = pathPrefix + request.path();
    HttpMethod method = HttpMethod.valueOf(request.method());
    FullHttpRequest http;
    if (request.upload() != null) {
      MultipartBody body = MultipartBody.of(encoded, request.upload());
      encoded = body;
      // Wrapped, not copied: the encoded bytes are shared by every upload and never written to.
      http =
          new DefaultFullHttpRequest(
              HttpVersion.HTTP_1_1, method, uri, Unpooled.wrappedBuffer(body.body()));
      http.headers().set(HttpHeaderNames.CONTENT_TYPE, body.contentType());
    } else {
      http = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, method, uri);
    }
    HttpHeaders h = http.headers();
    h.set(HttpHeaderNames.HOST, hostHeader)
        .set(HttpHeaderNames.ACCEPT, "application/json")
        .set(HttpHeaderNames.USER_AGENT, "albumstore-client");
    if (method == HttpMethod.POST || http.content().isReadable()) {
      h.setInt(HttpHeaderNames.CONTENT_LENGTH, http.content().readableBytes());
    }
    if (request.idempotencyKey() != null) {
      h.set("Idempotency-Key", request.idempotencyKey());
    }
    return http;
  }

  /** Ends the attempt waiting on {@code ch}, if any, with {@code e}; the connection is dropped. */
  private void fail(Channel ch, IOException e) {
    Exchange ex = ch.attr(EXCHANGE).getAndSet(null);
    if (ex != null) {
      ex.timer.cancel(false);
      ch.close();
      pool.release(ch);
      ex.result.completeExceptionally(e);
    }
  }

  /**
   * Netty's own exceptions under the JDK's names, as the CSV and the report name failures by the
   * exception's class: {@code ConnectException}, {@code SocketException}, not a native wrapper.
   */
  static IOException asIoException(Throwable t) {
    if (t instanceof ConnectException c) {
      return c.getClass() == ConnectException.class ? c : new ConnectException(c.getMessage());
    }
    if (t instanceof io.netty.channel.unix.Errors.NativeIoException n) {
      return new SocketException(n.getMessage());
    }
    if (t instanceof IOException io) {
      return io;
    }
    return new IOException(t);
  }

  /** Closes the connections; requests still in flight fail with an I/O error. */
  @Override
  public void close() {
    pool.close();
    group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
  }

  private record Exchange(CompletableFuture<ApiResponse> result, ScheduledFuture<?> timer) {}

  /** Completes the waiting attempt of a connection; one instance serves every connection. */
  @ChannelHandler.Sharable
  private final class ResponseHandler extends SimpleChannelInboundHandler<FullHttpResponse> {
    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse response) {
      Channel ch = ctx.channel();
      Exchange ex = ch.attr(EXCHANGE).getAndSet(null);
      if (ex == null) {
        ch.close(); // an answer nobody asked for (a late one after a timeout): out of step
        return;
      }
      ex.timer.cancel(false);
      String retryAfter = response.headers().get(HttpHeaderNames.RETRY_AFTER);
      ApiResponse answer =
          new ApiResponse(
              response.status().code(),
              ByteBufUtil.getBytes(response.content()),
              retryAfter == null
                  ? null
                  : RetryPolicy.parseRetryAfter(retryAfter, ZonedDateTime.now(ZoneOffset.UTC)));
      if (!HttpUtil.isKeepAlive(response)) {
        ch.close();
      }
      // Back in the pool before the caller hears of it, so that its next request can reuse this
      // connection instead of opening another.
      pool.release(ch);
      ex.result.complete(answer);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
      fail(ctx.channel(), new ClosedChannelException());
      super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      fail(ctx.channel(), asIoException(cause));
      ctx.close();
    }
  }
}
