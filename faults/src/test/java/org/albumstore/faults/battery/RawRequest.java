package org.albumstore.faults.battery;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * An HTTP/1.1 request as bytes, built without any library in between, so that the battery can send
 * what a well-behaved client never would: raw request targets, malformed or duplicated headers,
 * wrong lengths, chunked bodies. Header names and values and the target are written as ISO-8859-1,
 * i.e. one char per byte (so UTF-8 bytes can be passed through as such).
 */
public final class RawRequest {
  private final String method;
  private final String target;
  private String version = "HTTP/1.1";
  private final List<String[]> headers = new ArrayList<>();
  private byte[] body = new byte[0];
  private boolean host = true;
  private boolean contentLength = true;
  private boolean chunked;

  public RawRequest(String method, String target) {
    this.method = method;
    this.target = target;
  }

  public RawRequest header(String name, String value) {
    headers.add(new String[] {name, value});
    return this;
  }

  public RawRequest body(byte[] b) {
    this.body = b;
    return this;
  }

  public RawRequest version(String v) {
    this.version = v;
    return this;
  }

  /** No Host header (required by HTTP/1.1). */
  public RawRequest noHost() {
    this.host = false;
    return this;
  }

  /** No automatic Content-Length (a header() may still set one). */
  public RawRequest noContentLength() {
    this.contentLength = false;
    return this;
  }

  /** Sends the body with Transfer-Encoding: chunked (in chunks of up to 1000 bytes). */
  public RawRequest chunked() {
    this.chunked = true;
    this.contentLength = false;
    return this;
  }

  public String method() {
    return method;
  }

  public String target() {
    return target;
  }

  public byte[] body() {
    return body;
  }

  /** The request line and headers, up to and including the empty line. */
  public byte[] head() {
    StringBuilder b = new StringBuilder();
    b.append(method).append(' ').append(target).append(' ').append(version).append("\r\n");
    if (host) {
      b.append("Host: 127.0.0.1\r\n");
    }
    for (String[] h : headers) {
      b.append(h[0]).append(": ").append(h[1]).append("\r\n");
    }
    if (chunked) {
      b.append("Transfer-Encoding: chunked\r\n");
    } else if (contentLength
        && (body.length > 0 || method.equals("POST") || method.equals("PUT"))) {
      b.append("Content-Length: ").append(body.length).append("\r\n");
    }
    b.append("\r\n");
    return b.toString().getBytes(StandardCharsets.ISO_8859_1);
  }

  /** The body as it goes on the wire (chunk-encoded when chunked). */
  public byte[] wireBody() {
    if (!chunked) {
      return body;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int off = 0; off < body.length; off += 1000) {
      int n = Math.min(1000, body.length - off);
      out.writeBytes((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
      out.write(body, off, n);
      out.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
    }
    out.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
    return out.toByteArray();
  }

  /** A short description for failure messages (target shortened). */
  public String describe() {
    String t =
        target.length() > 80 ? target.substring(0, 80) + "...(" + target.length() + ")" : target;
    StringBuilder b = new StringBuilder(method + " " + t);
    for (String[] h : headers) {
      String v = h[1].length() > 40 ? h[1].substring(0, 40) + "..." : h[1];
      b.append(" [").append(h[0]).append(": ").append(v).append(']');
    }
    if (body.length > 0) {
      b.append(" body ").append(body.length).append(" bytes");
    }
    if (chunked) {
      b.append(" chunked");
    }
    return b.toString();
  }
}
