package org.albumstore.client.internal.http;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
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
import org.albumstore.client.history.ApiRequest;
import org.albumstore.client.history.ApiResponse;
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
 * <p>Sampled attempts ({@link RequestStamps}) carry {@code X-Request-Start: t=<epoch µs>}, stamped
 * when the connection is in hand, just before the write.
 */
final class NettyTransport implements AsyncTransport {
  /** Responses of this API are tiny; a bigger one is a defect, not something to buffer. */
  private static final int MAX_BODY_BYTES = 1 << 20;

  /** The attempt a connection is waiting to answer; null while the connection is idle. */
  private static final AttributeKey<Exchange> EXCHANGE =
      AttributeKey.valueOf("albumstore.exchange");

  private final String hostHeader;
  private final String pathPrefix;
  private final long timeoutNanos;
  private final EventLoopGroup group;
  private final Bootstrap bootstrap;
  private final SimpleChannelPool pool;
  private final ResponseHandler responses = new ResponseHandler();
  private final RequestStamps.Shared pooledStamps = new RequestStamps.Shared();

  /** The last album upload encoded, by identity: the workload sends one upload many times. */
  private volatile MultipartBody encoded;

  /**
   * @param baseUrl e.g. {@code http://127.0.0.1:8080/albumstore}, without a trailing slash
   * @param ioThreads event-loop threads
   * @param timeout connect timeout, and the longest wait for a response once the request is sent
   */
  NettyTransport(String baseUrl, int ioThreads, Duration timeout) throws IOException {
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
    this.bootstrap =
        new Bootstrap()
            .group(group)
            .channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
            .remoteAddress(host, port)
            .option(ChannelOption.TCP_NODELAY, true)
            .option(
                ChannelOption.CONNECT_TIMEOUT_MILLIS,
                (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()))
            // The lanes' connections; the pool puts its own initializer on a copy.
            .handler(
                new ChannelInitializer<Channel>() {
                  @Override
                  protected void initChannel(Channel ch) {
                    initPipeline(ch, ssl, host, port);
                  }
                });
    this.pool =
        new SimpleChannelPool(
            bootstrap,
            new AbstractChannelPoolHandler() {
              @Override
              public void channelCreated(Channel ch) {
                initPipeline(ch, ssl, host, port);
              }
            },
            ChannelHealthChecker.ACTIVE);
  }

  private void initPipeline(Channel ch, SslContext ssl, String host, int port) {
    if (ssl != null) {
      ch.pipeline().addLast(ssl.newHandler(ch.alloc(), host, port));
    }
    ch.pipeline()
        .addLast(new HttpClientCodec())
        .addLast(new HttpObjectAggregator(MAX_BODY_BYTES))
        .addLast(responses);
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
    sendPooled(http, result);
    return result;
  }

  /**
   * A view of this transport for one virtual user: a keep-alive connection of its own (opened on
   * first use, and again after the server closed it) and one event loop that runs its sends, the
   * callbacks of its responses and whatever it schedules ({@link AsyncTransport#scheduler()}).
   *
   * <p>Why: with one pool for every user, the response to a user's request, read on one event loop,
   * often sent its next request on a connection of the other loop: a task queued there and that
   * loop woken, about two context switches per request on two cores. A lane's request, response and
   * next request stay on one thread, like a wrk connection or a Gatling user. A lane carries one
   * request at a time (the closed model, retries included); one sent while another is in flight
   * goes through the shared pool instead, so nothing waits behind it.
   */
  @Override
  public AsyncTransport lane() {
    return new Lane(group.next());
  }

  private void sendPooled(FullHttpRequest http, CompletableFuture<ApiResponse> result) {
    pool.acquire()
        .addListener(
            (Future<Channel> acquired) -> {
              if (!acquired.isSuccess()) {
                http.release();
                result.completeExceptionally(asIoException(acquired.cause()));
                return;
              }
              exchange(acquired.getNow(), http, result, null);
            });
  }

  /** Sends {@code http} on {@code ch}, which is idle and in hand; runs on its event loop. */
  private void exchange(
      Channel ch, FullHttpRequest http, CompletableFuture<ApiResponse> result, Lane lane) {
    ScheduledFuture<?> timer =
        ch.eventLoop()
            .schedule(
                () -> fail(ch, new SocketTimeoutException("no response in time")),
                timeoutNanos,
                TimeUnit.NANOSECONDS);
    ch.attr(EXCHANGE).set(new Exchange(result, timer, lane));
    // Last, so that the server's "client send -> servlet in" starts at the send.
    if (lane == null ? pooledStamps.due() : RequestStamps.due(lane.attempts++)) {
      http.headers().set(RequestStart.HEADER, RequestStart.value(Instant.now()));
    }
    // A failed write reaches the pipeline's exceptionCaught (the void promise's contract), which
    // fails the exchange: no promise and listener per request.
    ch.writeAndFlush(http, ch.voidPromise());
  }

  /** The event loops themselves: a scheduled send or backoff wakes no other thread. */
  @Override
  public ScheduledExecutorService scheduler() {
    return group;
  }

  /** Waits for {@link #sendAsync}; never call it on an event-loop thread (it would deadlock). */
  @Override
  public ApiResponse send(ApiRequest request) throws IOException {
    return await(sendAsync(request));
  }

  private static ApiResponse await(CompletableFuture<ApiResponse> sent) throws IOException {
    try {
      return sent.get();
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
      handBack(ex, ch);
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

  /**
   * @param lane the lane whose connection carries it, or null for a connection of the pool
   */
  private record Exchange(
      CompletableFuture<ApiResponse> result, ScheduledFuture<?> timer, Lane lane) {}

  /** {@code ch} is free again: back to the pool, or its lane may send on it. */
  private void handBack(Exchange ex, Channel ch) {
    if (ex.lane == null) {
      pool.release(ch);
    } else {
      ex.lane.busy = false;
    }
  }

  /** See {@link #lane()}. Its state is touched on its event loop only. */
  private final class Lane implements AsyncTransport {
    private final EventLoop loop;
    private Channel channel;
    private boolean busy;
    private int attempts;

    Lane(EventLoop loop) {
      this.loop = loop;
    }

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
      if (loop.inEventLoop()) {
        send(http, result);
      } else {
        loop.execute(() -> send(http, result));
      }
      return result;
    }

    private void send(FullHttpRequest http, CompletableFuture<ApiResponse> result) {
      if (busy) {
        sendPooled(http, result);
        return;
      }
      busy = true;
      Channel ch = channel;
      if (ch != null && ch.isActive()) {
        exchange(ch, http, result, this);
        return;
      }
      // This lane's loop, not the group's next: the connection's events must run where we are.
      ChannelFuture connecting = bootstrap.clone(loop).connect();
      connecting.addListener(
          (ChannelFuture f) -> {
            if (!f.isSuccess()) {
              busy = false;
              http.release();
              result.completeExceptionally(asIoException(f.cause()));
              return;
            }
            channel = f.channel();
            exchange(channel, http, result, this);
          });
    }

    @Override
    public ScheduledExecutorService scheduler() {
      return loop;
    }

    @Override
    public ApiResponse send(ApiRequest request) throws IOException {
      return await(sendAsync(request));
    }
  }

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
      handBack(ex, ch);
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
