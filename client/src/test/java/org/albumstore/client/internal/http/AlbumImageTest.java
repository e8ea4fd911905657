package org.albumstore.client.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AlbumImageTest {
  @Test
  void theBuiltInImageIsARealPngOfAboutTheReferenceSize() throws Exception {
    AlbumImage image = AlbumImage.builtIn();
    assertThat(image.contentType()).isEqualTo("image/png");
    assertThat(image.bytes().length).isBetween(3_000, 4_000); // the course's image: 3,475 bytes
    BufferedImage decoded = ImageIO.read(new ByteArrayInputStream(image.bytes()));
    assertThat(decoded).isNotNull();
    assertThat(decoded.getWidth()).isPositive();
  }

  @Test
  void aFileIsReadWithAContentTypeFromItsName(@TempDir Path dir) throws Exception {
    Path f = Files.write(dir.resolve("cover.JPG"), new byte[] {1, 2, 3});
    AlbumImage image = AlbumImage.read(f);
    assertThat(image.contentType()).isEqualTo("image/jpeg");
    assertThat(image.fileName()).isEqualTo("cover.JPG");
    assertThat(image.bytes()).containsExactly(1, 2, 3);
    assertThat(AlbumImage.contentTypeOf("x.bin")).isEqualTo("application/octet-stream");
  }
}
