package org.albumstore.client.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import org.albumstore.client.RequestType;
import org.albumstore.client.internal.history.HistoryChecker;
import org.albumstore.client.internal.http.AlbumImage;
import org.albumstore.common.event.Vote;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The history's writer and reader agree, and a cut or foreign file is told apart. */
class HistoryFileTest {
  private static final long ORIGIN = 1_000_000_000L;
  private static final String ALBUM = "6d2f0b4e-0a4e-3c7e-9e1f-2b6c9d0a1e11";
  @TempDir Path dir;

  private static ApiResponse ok(String body) {
    return new ApiResponse(200, body.getBytes(StandardCharsets.UTF_8), null);
  }

  @Test
  void everyAttemptIsReadBackAsItWasRecorded() throws IOException {
    Path file = dir.resolve(HistoryFile.NAME);
    ApiRequest create =
        ApiRequest.createAlbum(
            "run-t0-0-a", new ApiRequest.AlbumUpload(AlbumImage.builtIn(), "{}"));
    try (HistoryWriter w = new HistoryWriter(file, "run", ORIGIN, 1_700_000_000_000L, 4)) {
      AttemptLog t0 = w.process("t0");
      t0.attempt(create, ORIGIN + 1_000, ORIGIN + 5_000, null, "SocketTimeoutException");
      t0.attempt(
          create, ORIGIN + 6_000, ORIGIN + 9_000, ok("{\"albumID\":\"" + ALBUM + "\"}"), null);
      t0.attempt(
          ApiRequest.review(Vote.LIKE, ALBUM, "run-t0-0-l1"),
          ORIGIN + 10_000,
          ORIGIN + 11_000,
          new ApiResponse(503, new byte[0], Duration.ofSeconds(1)),
          null);
      AttemptLog r0 = w.process("r0");
      r0.attempt(
          ApiRequest.getReview(ALBUM),
          ORIGIN + 12_000,
          ORIGIN + 13_000,
          ok("{\"likes\":\"2\",\"dislikes\":\"1\"}"),
          null);
      r0.attempt(ApiRequest.getAlbum(ALBUM), ORIGIN + 14_000, ORIGIN + 15_000, ok("{}"), null);
      // More attempts than the queue holds: the sender waits, nothing is lost.
      for (int i = 0; i < 100; i++) {
        r0.attempt(
            ApiRequest.getAlbum(ALBUM),
            ORIGIN + 20_000,
            ORIGIN + 21_000,
            new ApiResponse(404, new byte[0], null),
            null);
      }
    }
    History h = HistoryFile.read(file);
    assertThat(h.isWhole()).isTrue();
    assertThat(h.runId()).isEqualTo("run");
    assertThat(h.originEpochMillis()).isEqualTo(1_700_000_000_000L);
    assertThat(h.operations()).hasSize(105);
    assertThat(h.operations().subList(0, 5))
        .containsExactly(
            new Operation(
                1,
                "t0",
                RequestType.POST_ALBUMS,
                "run-t0-0-a",
                null,
                1,
                5,
                "SocketTimeoutException",
                -1,
                -1,
                false),
            new Operation(
                2, "t0", RequestType.POST_ALBUMS, "run-t0-0-a", ALBUM, 6, 9, "200", -1, -1, false),
            new Operation(
                3, "t0", RequestType.POST_LIKE, "run-t0-0-l1", ALBUM, 10, 11, "503", -1, -1, false),
            new Operation(4, "r0", RequestType.GET_REVIEW, null, ALBUM, 12, 13, "200", 2, 1, false),
            new Operation(
                5,
                "r0",
                RequestType.GET_ALBUM,
                null,
                ALBUM,
                14,
                15,
                "200",
                -1,
                -1,
                true)); // not the profile
  }

  @Test
  void aFileCutShortReadsAsIncompleteAndIsNotJudged() throws IOException {
    Path file = dir.resolve(HistoryFile.NAME);
    try (HistoryWriter w = new HistoryWriter(file, "run", ORIGIN, 0, 16)) {
      for (int i = 0; i < 2_000; i++) {
        w.process("r0").attempt(ApiRequest.getAlbum(ALBUM), ORIGIN, ORIGIN + i, ok("{}"), null);
      }
    }
    byte[] whole = Files.readAllBytes(file);
    Files.write(file, Arrays.copyOf(whole, whole.length / 2));
    History h = HistoryFile.read(file);
    assertThat(h.complete()).isFalse();
    assertThat(h.operations().size()).isLessThan(2_000);
    Verdict v = HistoryChecker.check(h, null);
    assertThat(v.judged()).isFalse();
    assertThat(v.why()).contains("ends before its trailer");
  }

  @Test
  void aFileThatIsNoHistoryIsRefusedNamingIt() throws IOException {
    Path file = dir.resolve(HistoryFile.NAME);
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
      out.write("start_time,request_type\n".getBytes(StandardCharsets.UTF_8));
    }
    assertThatThrownBy(() -> HistoryFile.read(file))
        .isInstanceOf(HistoryFile.HistoryFormatException.class)
        .hasMessageContaining("line 1");
  }

  @Test
  void anOperationWithoutItsFieldsIsRefusedNamingTheLine() throws IOException {
    Path file = dir.resolve(HistoryFile.NAME);
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
      out.write(
          ("{\"history\":1,\"run\":\"x\",\"origin_epoch_ms\":0}\n"
                  + "{\"p\":\"t0\",\"t\":\"POST_LIKE\",\"s\":1,\"e\":2,\"o\":\"200\"}\n")
              .getBytes(StandardCharsets.UTF_8));
    }
    assertThatThrownBy(() -> HistoryFile.read(file))
        .hasMessageContaining("line 2")
        .hasMessageContaining("needs its key");
  }
}
