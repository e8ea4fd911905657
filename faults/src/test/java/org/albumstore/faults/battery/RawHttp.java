package org.albumstore.faults.battery;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A minimal HTTP/1.1 client over one socket, kept alive between requests when the server allows it.
 * It sends exactly the bytes of a {@link RawRequest}, complete, dripped slowly, or cut short, and
 * reads one response (skipping 1xx). Every read is bounded by a socket timeout, so a server that
 * hangs fails the battery instead of stalling it.
 */
public final class RawHttp implements AutoCloseable {
  private static final int READ_TIMEOUT_MS = 15_000;
  private static final int MAX_BODY = 1 << 20;

  private final int port;
  private Socket socket;
  private InputStream in;
  private OutputStream out;

  /** A response; {@code status} -1 when the server closed the connection without one. */
  public record Response(int status, Map<String, String> headers, byte[] body) {
    public String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }

    public String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  public RawHttp(int port) {
    this.port = port;
  }

  /** Sends the whole request and reads the response. */
  public Response exchange(RawRequest r) throws IOException {
    boolean reused = socket != null;
    try {
      Response resp = attempt(r, 0, 0);
      if (resp.status() >= 0 || !reused) {
        return resp;
      }
    } catch (IOException e) {
      if (!reused) {
        throw e;
      }
    }
    // The server had closed the kept-alive connection: not this request's fault, send it anew.
    return attempt(r, 0, 0);
  }

  /** Sends the body in {@code chunks} pieces with {@code pauseMillis} between them. */
  public Response slow(RawRequest r, int chunks, long pauseMillis) throws IOException {
    close();
    return attempt(r, chunks, pauseMillis);
  }

  /**
   * Sends only the first {@code sent} bytes of the request (head and body), then half-closes: the
   * server sees the request end early. Returns what it answered, or -1 if it only closed.
   */
  public Response truncated(RawRequest r, int sent) throws IOException {
    close();
    connect();
    byte[] all = concat(r.head(), r.wireBody());
    out.write(all, 0, Math.min(sent, all.length));
    out.flush();
    socket.shutdownOutput();
    try {
      return read(r.method().equals("HEAD"));
    } finally {
      close();
    }
  }

  /** Sends part of a request and closes the socket without reading: a client that vanished. */
  public void abandon(RawRequest r, int sent) throws IOException {
    close();
    connect();
    byte[] all = concat(r.head(), r.wireBody());
    out.write(all, 0, Math.min(sent, all.length));
    out.flush();
    socket.setSoLinger(true, 0);
    close();
  }

  private Response attempt(RawRequest r, int chunks, long pauseMillis) throws IOException {
    if (socket == null) {
      connect();
    }
    try {
      out.write(r.head());
      byte[] body = r.wireBody();
      if (chunks <= 1) {
        out.write(body);
      } else {
        int step = Math.max(1, body.length / chunks);
        for (int off = 0; off < body.length; off += step) {
          out.write(body, off, Math.min(step, body.length - off));
          out.flush();
          sleep(pauseMillis);
        }
      }
      out.flush();
      Response resp = read(r.method().equals("HEAD"));
      String connection = resp.header("connection");
      if (resp.status() < 0 || (connection != null && connection.equalsIgnoreCase("close"))) {
        close();
      }
      return resp;
    } catch (IOException e) {
      close();
      throw e;
    }
  }

  private void connect() throws IOException {
    socket = new Socket(InetAddress.getLoopbackAddress(), port);
    socket.setSoTimeout(READ_TIMEOUT_MS);
    socket.setTcpNoDelay(true);
    in = new BufferedInputStream(socket.getInputStream());
    out = socket.getOutputStream();
  }

  private Response read(boolean head) throws IOException {
    while (true) {
      String statusLine = line(true);
      if (statusLine == null) {
        return new Response(-1, Map.of(), new byte[0]);
      }
      String[] parts = statusLine.split(" ", 3);
      if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
        throw new IOException("not an HTTP status line: " + statusLine);
      }
      int status = Integer.parseInt(parts[1]);
      Map<String, String> headers = new HashMap<>();
      for (String h; !(h = line(false)).isEmpty(); ) {
        int colon = h.indexOf(':');
        if (colon > 0) {
          headers.merge(
              h.substring(0, colon).trim().toLowerCase(Locale.ROOT),
              h.substring(colon + 1).trim(),
              (a, b) -> a + ", " + b);
        }
      }
      if (status >= 100 && status < 200) {
        continue; // 100 Continue: the real answer follows
      }
      byte[] body;
      String length = headers.get("content-length");
      String te = headers.get("transfer-encoding");
      if (head || status == 204 || status == 304) {
        body = new byte[0];
      } else if (te != null && te.toLowerCase(Locale.ROOT).contains("chunked")) {
        body = chunkedBody();
      } else if (length != null) {
        body = in.readNBytes(Integer.parseInt(length));
      } else {
        body = in.readNBytes(MAX_BODY); // until the server closes
        headers.put("connection", "close");
      }
      return new Response(status, headers, body);
    }
  }

  private byte[] chunkedBody() throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    while (true) {
      String size = line(false);
      int n = Integer.parseInt(size.split(";")[0].trim(), 16);
      if (n == 0) {
        while (!line(false).isEmpty()) {
          // trailers
        }
        return b.toByteArray();
      }
      b.writeBytes(in.readNBytes(n));
      line(false);
    }
  }

  /** One CRLF-terminated line; null at EOF before any byte if {@code eofOk}. */
  private String line(boolean eofOk) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    int c;
    while ((c = in.read()) >= 0) {
      if (c == '\n') {
        break;
      }
      if (c != '\r') {
        b.write(c);
      }
      if (b.size() > 64 * 1024) {
        throw new IOException("response line too long");
      }
    }
    if (c < 0 && b.size() == 0) {
      if (eofOk) {
        return null;
      }
      throw new EOFException("connection closed in the middle of a response");
    }
    return b.toString(StandardCharsets.ISO_8859_1);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] r = new byte[a.length + b.length];
    System.arraycopy(a, 0, r, 0, a.length);
    System.arraycopy(b, 0, r, a.length, b.length);
    return r;
  }

  private static void sleep(long ms) throws IOException {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted");
    }
  }

  @Override
  public void close() {
    if (socket != null) {
      try {
        socket.close();
      } catch (IOException e) {
        // Closing a socket we are done with: nothing to recover.
      }
    }
    socket = null;
    in = null;
    out = null;
  }
}
