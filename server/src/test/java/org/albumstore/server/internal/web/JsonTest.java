package org.albumstore.server.internal.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @Test
  void writesFlatObjectsOfStrings() {
    assertThat(Json.object("albumID", "42", "imageSize", "3475"))
        .isEqualTo("{\"albumID\":\"42\",\"imageSize\":\"3475\"}");
    assertThat(Json.object()).isEqualTo("{}");
    assertThat(Json.object("msg", null)).isEqualTo("{\"msg\":\"\"}");
  }

  @Test
  void escapesWhatJsonRequires() {
    assertThat(Json.object("msg", "a\"b\\c\nd\re\tf\bg\fh\u0001i\u001fj"))
        .isEqualTo("{\"msg\":\"a\\\"b\\\\c\\nd\\re\\tf\\bg\\fh\\u0001i\\u001fj\"}");
    assertThat(Json.object("msg", "x\u2028y\u2029z")).isEqualTo("{\"msg\":\"x\\u2028y\\u2029z\"}");
  }

  @Test
  void everyStringRoundTripsThroughAJsonParser() throws Exception {
    StringBuilder all = new StringBuilder();
    for (char c = 0; c < 0x300; c++) {
      all.append(c);
    }
    all.append("Björk 🎵 坂本龍一 \u2028 \uD83D\uDE00 </script>");
    String msg = all.toString();
    @SuppressWarnings("unchecked")
    Map<String, String> parsed = MAPPER.readValue(Json.object("msg", msg, "k2", "v2"), Map.class);
    Map<String, String> expected = new LinkedHashMap<>();
    expected.put("msg", msg);
    expected.put("k2", "v2");
    assertThat(parsed).isEqualTo(expected);
  }

  @Test
  void refusesAnOddNumberOfArguments() {
    assertThatThrownBy(() -> Json.object("msg")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void errorMessagesNameNoInternals() {
    for (int status : new int[] {400, 404, 405, 408, 413, 414, 415, 418, 500, 502, 503}) {
      assertThat(ErrorMessages.forStatus(status)).isNotBlank().doesNotContain("Exception");
    }
    assertThat(ErrorMessages.forStatus(500)).startsWith("internal error");
  }
}
