package org.albumstore.client.internal.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.imageio.ImageIO;
import org.HdrHistogram.Histogram;
import org.albumstore.client.internal.stats.Latencies;
import org.junit.jupiter.api.Test;

class SpectrumChartTest {
  private static Histogram uniform() {
    Histogram h = Latencies.newHistogram();
    for (long v = 1; v <= 10_000; v++) {
      h.recordValue(v * 10); // 10 µs .. 100 ms
    }
    return h;
  }

  @Test
  void theSpectrumRisesWithThePercentileOnALogScaleOfTheTail() {
    SpectrumChart.Line line = SpectrumChart.line("writes", uniform());
    assertThat(line.x()).hasSizeGreaterThan(20);
    for (int i = 1; i < line.x().length; i++) {
      assertThat(line.x()[i]).isGreaterThanOrEqualTo(line.x()[i - 1]);
      assertThat(line.y()[i]).isGreaterThanOrEqualTo(line.y()[i - 1]);
    }
    // x = 2 is the 99th percentile: about 99 ms of a uniform 0-100 ms.
    int at99 = 0;
    while (line.x()[at99] < 2) {
      at99++;
    }
    assertThat(line.y()[at99]).isBetween(98.0, 100.5);
    assertThat(SpectrumChart.percentileLabel(0)).isEqualTo("0%");
    assertThat(SpectrumChart.percentileLabel(1)).isEqualTo("90%");
    assertThat(SpectrumChart.percentileLabel(4)).isEqualTo("99.99%");
  }

  @Test
  void thePngDecodesAtItsSize() throws Exception {
    Map<String, Histogram> series = new LinkedHashMap<>();
    series.put("all writes", uniform());
    series.put("GET /review", Latencies.newHistogram());
    BufferedImage img =
        ImageIO.read(new ByteArrayInputStream(SpectrumChart.png(series, "spectrum")));
    assertThat(img.getWidth()).isEqualTo(SpectrumChart.WIDTH);
    assertThat(img.getHeight()).isEqualTo(SpectrumChart.HEIGHT);
  }
}
