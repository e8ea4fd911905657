import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * The Netty candidate of {@code TransportCost.java}, in the same shape: CONNECTIONS keep-alive
 * connections, each with one request in flight (closed model: the next request when the previous
 * answered) against the do-nothing endpoint, for SECONDS after a warm-up of the same length, CPU
 * time per request from the JVM's process CPU time. Netty's HTTP/1.1 codec on IO_THREADS event-loop
 * threads, epoll where available, else NIO. A request is built per send (method, path, Host,
 * Content-Length), as a transport would, not a cached byte buffer. Prints "mode requests rps
 * cpu_us_per_request" with mode {@code netty-epoll} or {@code netty-nio}.
 *
 * <p>A separate file because the single-file launcher compiles a whole file, and this one needs
 * Netty (in the client jar since the client has a Netty transport; before, on the classpath from
 * the local Maven repository: NETTY_CP of bench/transport-cost.sh). Written against the Netty 4.1
 * API that was measured first (its event-loop groups are deprecated, not gone, in 4.2). {@code java
 * -cp client/target/client.jar bench/java/TransportCostNetty.java URL CONNECTIONS SECONDS
 * [IO_THREADS=2] [nio]}
 */
public class TransportCostNetty {
  public static void main(String[] args) throws Exception {
    URI uri = URI.create(args[0]);
    int conns = Integer.parseInt(args[1]);
    int seconds = Integer.parseInt(args[2]);
    int ioThreads = args.length > 3 ? Integer.parseInt(args[3]) : 2;
    boolean epoll = Epoll.isAvailable() && !(args.length > 4 && args[4].equals("nio"));
    String hostHeader = uri.getHost() + ":" + uri.getPort();
    String path = uri.getRawPath();
    LongAdder done = new LongAdder();
    AtomicBoolean running = new AtomicBoolean(true);
    EventLoopGroup group =
        epoll ? new EpollEventLoopGroup(ioThreads) : new NioEventLoopGroup(ioThreads);
    Bootstrap b =
        new Bootstrap()
            .group(group)
            .channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
            .option(ChannelOption.TCP_NODELAY, true)
            .handler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    ch.pipeline()
                        .addLast(new HttpClientCodec())
                        .addLast(
                            new SimpleChannelInboundHandler<HttpObject>() {
                              @Override
                              protected void channelRead0(ChannelHandlerContext ctx, HttpObject m) {
                                if (m instanceof LastHttpContent) {
                                  done.increment();
                                  if (running.get()) {
                                    ctx.writeAndFlush(request(path, hostHeader));
                                  }
                                } else if (m instanceof HttpContent) {
                                  // body bytes of the do-nothing answer: read and dropped
                                }
                              }
                            });
                  }
                });
    List<Channel> channels = new ArrayList<>();
    for (int i = 0; i < conns; i++) {
      Channel ch = b.connect(uri.getHost(), uri.getPort()).sync().channel();
      channels.add(ch);
      ch.writeAndFlush(request(path, hostHeader));
    }
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    Thread.sleep(seconds * 1000L); // warm-up: JIT
    long n0 = done.sum();
    long cpu0 = os.getProcessCpuTime();
    long t0 = System.nanoTime();
    Thread.sleep(seconds * 1000L);
    long n = done.sum() - n0;
    long cpu = os.getProcessCpuTime() - cpu0;
    double wall = (System.nanoTime() - t0) / 1e9;
    running.set(false);
    channels.forEach(Channel::close);
    group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).sync();
    System.out.printf(
        "%s %d %.0f %.2f%n", epoll ? "netty-epoll" : "netty-nio", n, n / wall, cpu / 1e3 / n);
  }

  private static FullHttpRequest request(String path, String host) {
    FullHttpRequest r = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, path);
    r.headers().set(HttpHeaderNames.HOST, host).setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
    return r;
  }
}
