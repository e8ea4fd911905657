package org.albumstore.server.internal.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.albumstore.common.event.Vote;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RequestChecksTest {

  @ParameterizedTest
  @ValueSource(strings = {"1", "42", "abc-DEF_09", "3f2a9c1e-7d7e-4d7a-9a53-1d7c8e0f4b21"})
  void acceptsValidAlbumIds(String id) throws HttpProblem {
    assertThat(RequestChecks.albumId(id)).isEqualTo(id);
    assertThat(RequestChecks.albumId("x".repeat(64))).hasSize(64);
  }

  @ParameterizedTest
  @ValueSource(strings = {"a b", "a.b", "ä", "42!", "-- ", "a/b", "%41", "🎵"})
  void refusesAlbumIdsOutsideTheAlphabet(String id) {
    assertBadRequest(() -> RequestChecks.albumId(id), "albumID must be 1 to 64 characters");
  }

  @Test
  void refusesOverlongAndMissingAlbumIds() {
    assertBadRequest(() -> RequestChecks.albumId("x".repeat(65)), "albumID must be 1 to 64");
    assertBadRequest(() -> RequestChecks.albumId(""), "albumID is missing");
    assertBadRequest(() -> RequestChecks.albumId(null), "albumID is missing");
  }

  @Test
  void acceptsExactlyLikeAndDislike() throws HttpProblem {
    assertThat(RequestChecks.vote("like")).isEqualTo(Vote.LIKE);
    assertThat(RequestChecks.vote("dislike")).isEqualTo(Vote.DISLIKE);
  }

  @ParameterizedTest
  @ValueSource(strings = {"Like", "LIKE", "likes", "dis like", "", "1", "love"})
  void refusesAnyOtherVote(String vote) {
    assertBadRequest(() -> RequestChecks.vote(vote), "likeornot must be 'like' or 'dislike'");
  }

  @Test
  void anAbsentIdempotencyKeyIsNull() throws HttpProblem {
    assertThat(RequestChecks.idempotencyKey(List.of())).isNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"k", "retry-123_ABC", "3f2a9c1e-7d7e-4d7a-9a53-1d7c8e0f4b21"})
  void acceptsValidIdempotencyKeys(String key) throws HttpProblem {
    assertThat(RequestChecks.idempotencyKey(List.of(key))).isEqualTo(key);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " ", "a b", "key!", "ключ", "{uuid}"})
  void refusesInvalidIdempotencyKeys(String key) {
    assertBadRequest(
        () -> RequestChecks.idempotencyKey(List.of(key)), "Idempotency-Key must be 1 to 64");
    assertBadRequest(
        () -> RequestChecks.idempotencyKey(List.of("k".repeat(65))), "Idempotency-Key must be");
  }

  @Test
  void refusesTwoIdempotencyKeys() {
    assertBadRequest(
        () -> RequestChecks.idempotencyKey(List.of("a", "b")), "at most one Idempotency-Key");
  }

  private static void assertBadRequest(
      org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String messagePart) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            HttpProblem.class,
            p -> {
              assertThat(p.status()).isEqualTo(400);
              assertThat(p.getMessage()).contains(messagePart);
            });
  }
}
