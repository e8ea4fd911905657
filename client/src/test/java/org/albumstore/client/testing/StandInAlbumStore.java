package org.albumstore.client.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.MultipartConfigElement;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.Part;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.albumstore.common.event.Identifiers;
import org.apache.catalina.Context;
import org.apache.catalina.Wrapper;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

/**
 * A tiny in-memory Album Store on an embedded Tomcat, for the client's own tests only: it speaks
 * the API's wire format (multipart upload, JSON answers, Idempotency-Key) synchronously, and can be
 * told to misbehave. It is not the real server (that lives in server/ and is exercised by
 * ClientIT).
 */
public final class StandInAlbumStore implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Tomcat tomcat = new Tomcat();
  private final Map<String, AtomicLong[]> counts = new ConcurrentHashMap<>();
  private final Set<String> appliedKeys = ConcurrentHashMap.newKeySet();
  private final Map<String, AtomicInteger> attemptsByKey = new ConcurrentHashMap<>();
  private final List<String> idempotencyKeys = new CopyOnWriteArrayList<>();
  private final List<String> profiles = new CopyOnWriteArrayList<>();
  private final List<Integer> imageSizes = new CopyOnWriteArrayList<>();
  private volatile int failFirstAttempts;
  private volatile boolean loseEveryOtherDislike;
  private final AtomicLong dislikes = new AtomicLong();
  private final int port;

  public StandInAlbumStore(Path baseDir) throws Exception {
    tomcat.setBaseDir(Files.createDirectories(baseDir).toString());
    Connector connector = new Connector();
    connector.setPort(0);
    connector.setProperty("address", "127.0.0.1");
    tomcat.setConnector(connector);
    Context ctx = tomcat.addContext("/albumstore", null);
    Wrapper albums = Tomcat.addServlet(ctx, "albums", new AlbumsServlet());
    albums.setMultipartConfigElement(new MultipartConfigElement(""));
    ctx.addServletMappingDecoded("/albums", "albums");
    Tomcat.addServlet(ctx, "review", new ReviewServlet());
    ctx.addServletMappingDecoded("/review/*", "review");
    tomcat.start();
    port = connector.getLocalPort();
  }

  public String url() {
    return "http://127.0.0.1:" + port + "/albumstore";
  }

  /** The first {@code n} attempts of every write key are answered 503 with Retry-After: 0. */
  public void failFirstAttempts(int n) {
    failFirstAttempts = n;
  }

  /** Acknowledges every dislike but applies only every other one: a server that loses writes. */
  public void loseEveryOtherDislike() {
    loseEveryOtherDislike = true;
  }

  public List<String> idempotencyKeys() {
    return idempotencyKeys;
  }

  public List<String> profiles() {
    return profiles;
  }

  public List<Integer> imageSizes() {
    return imageSizes;
  }

  public int albums() {
    return counts.size();
  }

  private boolean failThisAttempt(String key, HttpServletResponse resp) throws IOException {
    if (key == null || failFirstAttempts == 0) {
      return false;
    }
    int attempt = attemptsByKey.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
    if (attempt <= failFirstAttempts) {
      resp.setHeader("Retry-After", "0");
      send(resp, 503, "{\"msg\":\"try again\"}");
      return true;
    }
    return false;
  }

  private static void send(HttpServletResponse resp, int status, String body) throws IOException {
    resp.setStatus(status);
    resp.setContentType("application/json; charset=UTF-8");
    resp.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
  }

  private final class AlbumsServlet extends HttpServlet {
    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      String key = req.getHeader("Idempotency-Key");
      idempotencyKeys.add(String.valueOf(key));
      if (failThisAttempt(key, resp)) {
        return;
      }
      try {
        Part image = req.getPart("image");
        Part profile = req.getPart("profile");
        if (image == null || image.getSize() == 0 || profile == null) {
          send(resp, 400, "{\"msg\":\"image and profile are required\"}");
          return;
        }
        String text = new String(profile.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        JsonNode p = JSON.readTree(text);
        if (!p.hasNonNull("artist") || !p.hasNonNull("title") || !p.hasNonNull("year")) {
          send(resp, 400, "{\"msg\":\"bad profile\"}");
          return;
        }
        profiles.add(text);
        imageSizes.add((int) image.getSize());
        String id = key != null ? Identifiers.albumIdForKey(key) : Identifiers.newAlbumId();
        counts.putIfAbsent(id, new AtomicLong[] {new AtomicLong(), new AtomicLong()});
        send(resp, 200, "{\"albumID\":\"" + id + "\",\"imageSize\":\"" + image.getSize() + "\"}");
      } catch (jakarta.servlet.ServletException e) {
        send(resp, 400, "{\"msg\":\"not multipart\"}");
      }
    }
  }

  private final class ReviewServlet extends HttpServlet {
    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      String key = req.getHeader("Idempotency-Key");
      idempotencyKeys.add(String.valueOf(key));
      String[] parts = String.valueOf(req.getPathInfo()).split("/");
      if (parts.length != 3 || !("like".equals(parts[1]) || "dislike".equals(parts[1]))) {
        send(resp, 400, "{\"msg\":\"use /review/like/{id} or /review/dislike/{id}\"}");
        return;
      }
      if (failThisAttempt(key, resp)) {
        return;
      }
      AtomicLong[] c = counts.get(parts[2]);
      if (c == null) {
        send(resp, 404, "{\"msg\":\"no such album\"}");
        return;
      }
      boolean first = key == null || appliedKeys.add(key);
      if (first) {
        boolean like = "like".equals(parts[1]);
        if (like) {
          c[0].incrementAndGet();
        } else if (!loseEveryOtherDislike || dislikes.incrementAndGet() % 2 == 0) {
          c[1].incrementAndGet();
        }
      }
      resp.setStatus(200);
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      String id = String.valueOf(req.getPathInfo()).substring(1);
      AtomicLong[] c = counts.get(id);
      if (c == null) {
        send(resp, 404, "{\"msg\":\"no such album\"}");
        return;
      }
      send(resp, 200, "{\"likes\":\"" + c[0].get() + "\",\"dislikes\":\"" + c[1].get() + "\"}");
    }
  }

  @Override
  public void close() throws Exception {
    tomcat.stop();
    tomcat.destroy();
  }
}
