package org.albumstore.client.internal.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.albumstore.client.history.ApiRequest;
import org.apache.hc.client5.http.entity.mime.MultipartEntityBuilder;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.HttpEntity;

/**
 * A {@code POST /albums} upload encoded as a multipart body, once: the workload posts the same
 * image and profile with every album, and encoding the parts anew each time cost about a tenth of
 * the client's CPU per request (profiled with async-profiler). Both transports send these bytes.
 *
 * @param upload what was encoded (compared by identity to reuse the encoding)
 * @param body the whole multipart body
 * @param contentType {@code multipart/form-data; boundary=...}
 */
record MultipartBody(ApiRequest.AlbumUpload upload, byte[] body, String contentType) {

  static MultipartBody encode(ApiRequest.AlbumUpload upload) throws IOException {
    AlbumImage image = upload.image();
    HttpEntity entity =
        MultipartEntityBuilder.create()
            .addBinaryBody(
                "image", image.bytes(), ContentType.create(image.contentType()), image.fileName())
            .addTextBody("profile", upload.profileJson(), ContentType.APPLICATION_JSON)
            .build();
    ByteArrayOutputStream out = new ByteArrayOutputStream((int) entity.getContentLength());
    entity.writeTo(out);
    return new MultipartBody(upload, out.toByteArray(), entity.getContentType());
  }

  /** This encoding if it is of {@code upload}, else a new one. */
  static MultipartBody of(MultipartBody cached, ApiRequest.AlbumUpload upload) throws IOException {
    return cached != null && cached.upload == upload ? cached : encode(upload);
  }
}
