package org.albumstore.client.internal.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

class ChartAndHtmlTest {
  @Test
  void theChartIsAPngWithTheThreePanelsDrawn() throws Exception {
    byte[] png = ChartRenderer.png(SampleRuns.timeline(30), "test run");
    BufferedImage img = ImageIO.read(new ByteArrayInputStream(png));
    assertThat(img.getWidth()).isEqualTo(ChartRenderer.WIDTH);
    assertThat(img.getHeight()).isEqualTo(ChartRenderer.HEIGHT);
    // Each series' colour appears somewhere: the lines were drawn, not just the frame.
    assertThat(countPixels(img, 0x1f77b4)).as("writes line").isPositive();
    assertThat(countPixels(img, 0xff7f0e)).as("p99 line").isPositive();
    assertThat(countPixels(img, 0x9467bd)).as("queue depth line").isPositive();
  }

  @Test
  void anEmptyTimelineStillDraws() throws Exception {
    assertThat(ImageIO.read(new ByteArrayInputStream(ChartRenderer.png(List.of(), "empty"))))
        .isNotNull();
  }

  @Test
  void niceCeilingsAreRoundNumbers() {
    assertThat(ChartRenderer.niceCeiling(0)).isEqualTo(1);
    assertThat(ChartRenderer.niceCeiling(7)).isEqualTo(10);
    assertThat(ChartRenderer.niceCeiling(2400)).isEqualTo(2500);
    assertThat(ChartRenderer.niceCeiling(0.3)).isEqualTo(0.5);
  }

  @Test
  void theHtmlReportIsSelfContainedWithTheChartEmbedded() throws Exception {
    byte[] png = ChartRenderer.png(SampleRuns.timeline(10), "x");
    String html = HtmlReport.render(SampleRuns.summary(2), png);
    assertThat(html)
        .startsWith("<!DOCTYPE html>")
        .contains("<td>POST /review/like</td>")
        .contains("<td>all writes</td>")
        .contains("verified: 1000 albums, 2 mismatches")
        .contains("album-1: likes 1 (expected 2)")
        .contains("<h2>Time spent per tier</h2>")
        .contains("<td>broker: publish -&gt; confirm</td>")
        .contains("<td>network: client send -&gt; servlet in (client, network, Tomcat)</td>")
        .contains("<td>network: response back to the client (the remainder) *</td>")
        .doesNotContain("src=\"http");
    Matcher m = Pattern.compile("data:image/png;base64,([A-Za-z0-9+/=]+)").matcher(html);
    assertThat(m.find()).isTrue();
    assertThat(Base64.getDecoder().decode(m.group(1))).isEqualTo(png);
  }

  @Test
  void htmlEscapesWhatComesFromTheServer() {
    assertThat(HtmlReport.esc("<b>\"x\" & y</b>"))
        .isEqualTo("&lt;b&gt;&quot;x&quot; &amp; y&lt;/b&gt;");
  }

  private static int countPixels(BufferedImage img, int rgb) {
    int n = 0;
    for (int y = 0; y < img.getHeight(); y++) {
      for (int x = 0; x < img.getWidth(); x++) {
        if ((img.getRGB(x, y) & 0xffffff) == rgb) {
          n++;
        }
      }
    }
    return n;
  }
}
