import java.lang.management.ManagementFactory;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hc.client5.http.async.methods.SimpleHttpRequest;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.message.BasicClassicHttpRequest;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.reactor.IOReactorConfig;

/**
 * Measure before choosing the client's transport: the CPU time per request of Apache HttpClient 5's
 * classic (blocking, a thread per connection) and async (event loop, a few I/O threads) clients,
 * each keeping CONNECTIONS requests in flight (closed model: the next request when the previous
 * answered) against the do-nothing endpoint, for SECONDS after a warm-up of the same length.
 * Prints "mode requests rps cpu_us_per_request".
 *
 * <p>{@code java -cp client/target/client.jar bench/java/TransportCost.java classic|async
 * http://127.0.0.1:PORT/albumstore/bench/noop/review/like/noop CONNECTIONS SECONDS [IO_THREADS]}
 */
public class TransportCost {
  public static void main(String[] args) throws Exception {
    String mode = args[0];
    URI uri = URI.create(args[1]);
    int conns = Integer.parseInt(args[2]);
    int seconds = Integer.parseInt(args[3]);
    int ioThreads = args.length > 4 ? Integer.parseInt(args[4]) : 2;
    HttpHost host = new HttpHost(uri.getScheme(), uri.getHost(), uri.getPort());
    LongAdder done = new LongAdder();
    AtomicBoolean running = new AtomicBoolean(true);
    Runnable stop;
    if (mode.equals("classic")) {
      var pool =
          PoolingHttpClientConnectionManagerBuilder.create()
              .setMaxConnTotal(conns)
              .setMaxConnPerRoute(conns)
              .build();
      CloseableHttpClient client = HttpClients.createMinimal(pool);
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < conns; i++) {
        Thread t =
            new Thread(
                () -> {
                  while (running.get()) {
                    try {
                      client.execute(
                          host,
                          new BasicClassicHttpRequest("POST", host, uri.getRawPath()),
                          r -> {
                            EntityUtils.consume(r.getEntity());
                            return null;
                          });
                      done.increment();
                    } catch (Exception e) {
                      // counted as not done
                    }
                  }
                });
        threads.add(t);
        t.start();
      }
      stop =
          () -> {
            running.set(false);
            threads.forEach(
                t -> {
                  try {
                    t.join();
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                });
            client.close(CloseMode.IMMEDIATE);
          };
    } else {
      var pool =
          PoolingAsyncClientConnectionManagerBuilder.create()
              .setMaxConnTotal(conns)
              .setMaxConnPerRoute(conns)
              .build();
      CloseableHttpAsyncClient client =
          HttpAsyncClients.createMinimal(
              org.apache.hc.core5.http2.HttpVersionPolicy.FORCE_HTTP_1,
              org.apache.hc.core5.http2.config.H2Config.DEFAULT,
              org.apache.hc.core5.http.config.Http1Config.DEFAULT,
              IOReactorConfig.custom().setIoThreadCount(ioThreads).build(),
              pool);
      client.start();
      CountDownLatch all = new CountDownLatch(conns);
      for (int i = 0; i < conns; i++) {
        new Object() {
          void next() {
            if (!running.get()) {
              all.countDown();
              return;
            }
            client.execute(
                new SimpleHttpRequest("POST", host, uri.getRawPath()),
                new FutureCallback<SimpleHttpResponse>() {
                  @Override
                  public void completed(SimpleHttpResponse r) {
                    done.increment();
                    next();
                  }

                  @Override
                  public void failed(Exception e) {
                    next();
                  }

                  @Override
                  public void cancelled() {
                    all.countDown();
                  }
                });
          }
        }.next();
      }
      stop =
          () -> {
            running.set(false);
            try {
              all.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            client.close(CloseMode.IMMEDIATE);
          };
    }
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    Thread.sleep(seconds * 1000L); // warm-up: JIT, connections
    long n0 = done.sum();
    long cpu0 = os.getProcessCpuTime();
    long t0 = System.nanoTime();
    Thread.sleep(seconds * 1000L);
    long n = done.sum() - n0;
    long cpu = os.getProcessCpuTime() - cpu0;
    double wall = (System.nanoTime() - t0) / 1e9;
    stop.run();
    System.out.printf("%s %d %.0f %.2f%n", mode, n, n / wall, cpu / 1e3 / n);
  }
}
