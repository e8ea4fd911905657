package org.albumstore.common.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class EventCodecTest {
  private static final AlbumProfile PISTOLS =
      new AlbumProfile("Sex Pistols", "Never Mind The Bollocks!", "1977");

  @Test
  void messageIdAndUnkeyedReviewsRoundTripAndTheIdIsTheAmqpMessageId() throws Exception {
    UUID messageId = UUID.randomUUID();
    Review unkeyed = new Review(UUID.randomUUID(), "7", Vote.LIKE, false);
    Review keyed = new Review(UUID.randomUUID(), "7", Vote.DISLIKE, true);
    WriteBundle in =
        new WriteBundle(EventCodec.VERSION, 1L, messageId, List.of(), List.of(unkeyed, keyed));

    WriteBundle out = EventCodec.decode(EventCodec.encode(in));

    assertThat(out.id()).isEqualTo(messageId);
    assertThat(out.reviews()).containsExactly(unkeyed, keyed);
    assertThat(EventCodec.properties(in).getMessageId()).isEqualTo(messageId.toString());
  }

  @Test
  void aMessageOfAServerWithoutMessageIdsReadsAsKeyedReviewsWithoutAnId() throws Exception {
    // The body a server before message IDs published: no "id", no "keyed".
    String old =
        "{\"version\":1,\"publishedAtMillis\":1,\"albums\":[],\"reviews\":[{\"eventId\":"
            + "\"0f8fad5b-d9cb-469f-a165-70867728950e\",\"albumId\":\"7\",\"vote\":\"like\"}]}";

    WriteBundle out = EventCodec.decode(old.getBytes(StandardCharsets.UTF_8));

    assertThat(out.id()).isNull();
    assertThat(out.reviews()).hasSize(1);
  }

  @Test
  void unkeyedIsLeftOutOfTheJsonAndKeyedIsWritten() {
    String unkeyed =
        new String(
            EventCodec.encode(
                reviews(List.of(new Review(UUID.randomUUID(), "7", Vote.LIKE, false)))),
            StandardCharsets.UTF_8);
    String keyed =
        new String(
            EventCodec.encode(reviews(List.of(new Review(UUID.randomUUID(), "7", Vote.LIKE)))),
            StandardCharsets.UTF_8);

    assertThat(unkeyed).doesNotContain("keyed").doesNotContain("\"id\"");
    assertThat(keyed).contains("\"keyed\":true");
  }

  @Test
  void batchRoundTripsWithEveryField() throws Exception {
    UUID id = UUID.randomUUID();
    WriteBundle in =
        new WriteBundle(
            EventCodec.VERSION,
            1_700_000_000_123L,
            List.of(
                new NewAlbum(
                    "a1", new AlbumProfile("Björk", "Homogenic ✓", "1997"), new byte[] {1, 2, 3})),
            List.of(
                new Review(id, "42", Vote.LIKE),
                new Review(UUID.randomUUID(), "42", Vote.DISLIKE)));

    WriteBundle out = EventCodec.decode(EventCodec.encode(in));

    assertThat(out.version()).isEqualTo(EventCodec.VERSION);
    assertThat(out.publishedAtMillis()).isEqualTo(1_700_000_000_123L);
    assertThat(out.albums()).hasSize(1);
    assertThat(out.albums().get(0).profile())
        .isEqualTo(new AlbumProfile("Björk", "Homogenic ✓", "1997"));
    assertThat(out.albums().get(0).image()).containsExactly(1, 2, 3);
    assertThat(out.reviews()).containsExactlyElementsOf(in.reviews());
  }

  @Test
  void votesTravelAsTheirApiSpelling() {
    String json =
        new String(
            EventCodec.encode(reviews(List.of(new Review(UUID.randomUUID(), "7", Vote.DISLIKE)))),
            StandardCharsets.UTF_8);
    assertThat(json).contains("\"vote\":\"dislike\"").contains("\"version\":" + EventCodec.VERSION);
  }

  @Test
  void propertiesArePersistentTypedAndUnique() {
    WriteBundle b = reviews(List.of(new Review(UUID.randomUUID(), "7", Vote.LIKE)));
    var p1 = EventCodec.properties(b);
    var p2 = EventCodec.properties(b);
    assertThat(p1.getDeliveryMode()).isEqualTo(2);
    assertThat(p1.getType()).isEqualTo(EventCodec.MESSAGE_TYPE);
    assertThat(p1.getContentType()).isEqualTo("application/json");
    assertThat(p1.getMessageId()).isNotEqualTo(p2.getMessageId());
    assertThat(p1.getHeaders()).containsEntry(EventCodec.VERSION_HEADER, EventCodec.VERSION);
  }

  @Test
  void undecodableBodyIsInvalid() {
    assertThatThrownBy(() -> EventCodec.decode("not json".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(InvalidMessageException.class)
        .hasMessageContaining("undecodable");
    assertThatThrownBy(() -> EventCodec.decode(new byte[0])).hasMessageContaining("empty");
    assertThatThrownBy(() -> EventCodec.decode("null".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(InvalidMessageException.class);
  }

  @Test
  void unknownVersionIsInvalid() {
    byte[] body =
        EventCodec.encode(
            new WriteBundle(
                4, 0, List.of(), List.of(new Review(UUID.randomUUID(), "1", Vote.LIKE))));
    assertThatThrownBy(() -> EventCodec.decode(body))
        .hasMessageContaining("unknown version 4 (this consumer reads versions 1 to 3)");
  }

  @Test
  void reviewTimesRoundTripAsOneEntryPerReviewedAlbum() throws Exception {
    UUID id = UUID.randomUUID();
    Review keyed = new Review(UUID.randomUUID(), "9", Vote.LIKE, true);
    WriteBundle in =
        new WriteBundle(
            3,
            1L,
            id,
            List.of(),
            List.of(keyed),
            List.of(new AlbumVotes("42", 2, 1)),
            java.util.Map.of("42", 1_765_000_000_123L, "9", 1_765_000_000_456L));

    byte[] body = EventCodec.encode(in);

    assertThat(new String(body, StandardCharsets.UTF_8)).contains("\"reviewedAt\":{");
    assertThat(EventCodec.decode(body)).isEqualTo(in);
    assertThat(
            new String(
                EventCodec.encode(new WriteBundle(2, 1L, id, List.of(), List.of(keyed))),
                StandardCharsets.UTF_8))
        .as("a version 2 body is what version 2 consumers read: no reviewedAt")
        .doesNotContain("reviewedAt");
  }

  @Test
  void reviewTimesThatCannotBeKeptAreInvalid() {
    String id = "\"id\":\"" + UUID.randomUUID() + "\",";
    String votes = "\"votes\":[[\"7\",1,0]],";
    String[][] cases = {
      {"{\"version\":2," + id + votes + "\"reviewedAt\":{\"7\":5}}", "version 2"},
      {"{\"version\":3," + id + votes + "\"reviewedAt\":{\"8\":5}}", "without a review"},
      {"{\"version\":3," + id + votes + "\"reviewedAt\":{\"7\":0}}", "not a time"},
      {"{\"version\":3," + id + votes + "\"reviewedAt\":{\"7\":null}}", "not a time"},
    };
    for (String[] c : cases) {
      assertThatThrownBy(() -> EventCodec.decode(c[0].getBytes(StandardCharsets.UTF_8)))
          .as(c[0])
          .isInstanceOf(InvalidMessageException.class)
          .hasMessageContaining(c[1]);
    }
  }

  @Test
  void impossibleValuesAreInvalid() {
    String[] bodies = {
      "{\"version\":1,\"reviews\":[{\"eventId\":\""
          + UUID.randomUUID()
          + "\",\"albumId\":\"a b\",\"vote\":\"like\"}]}",
      "{\"version\":1,\"reviews\":[{\"eventId\":\""
          + UUID.randomUUID()
          + "\",\"albumId\":\"1\",\"vote\":\"meh\"}]}",
      "{\"version\":1,\"reviews\":[{\"albumId\":\"1\",\"vote\":\"like\"}]}",
      "{\"version\":1,\"reviews\":[{\"eventId\":\"not-a-uuid\",\"albumId\":\"1\",\"vote\":\"like\"}]}",
      "{\"version\":1,\"albums\":[{\"albumId\":\"x\",\"profile\":{\"artist\":\"a\",\"title\":\"t\",\"year\":\"19x7\"},\"image\":\"AQ==\"}]}",
      "{\"version\":1,\"albums\":[{\"albumId\":\"x\",\"profile\":{\"artist\":\"a\",\"title\":\"t\",\"year\":\"1977\"}}]}",
      "{\"version\":1}",
    };
    for (String body : bodies) {
      assertThatThrownBy(() -> EventCodec.decode(body.getBytes(StandardCharsets.UTF_8)))
          .as(body)
          .isInstanceOf(InvalidMessageException.class);
    }
  }

  @Test
  void votesRoundTripAsOneShortArrayPerAlbum() throws Exception {
    UUID id = UUID.randomUUID();
    WriteBundle in =
        new WriteBundle(
            2,
            1L,
            id,
            List.of(),
            List.of(),
            List.of(new AlbumVotes("42", 2, 1), new AlbumVotes("7", 0, 1)));

    byte[] body = EventCodec.encode(in);
    WriteBundle out = EventCodec.decode(body);

    assertThat(new String(body, StandardCharsets.UTF_8))
        .contains("\"votes\":[[\"42\",2,1],[\"7\",0,1]]")
        .contains("\"reviews\":[]");
    assertThat(out).isEqualTo(in);
    assertThat(out.size()).isEqualTo(4);
  }

  @Test
  void aVersion1MessageWithUnkeyedReviewsStillDecodes() throws Exception {
    // What a server before version 2 publishes, and may still sit in a queue after an upgrade.
    String v1 =
        "{\"version\":1,\"publishedAtMillis\":1,\"id\":\"0190b4c8-0000-7000-8000-000000000001\","
            + "\"albums\":[],\"reviews\":[{\"eventId\":\"0f8fad5b-d9cb-469f-a165-70867728950e\","
            + "\"albumId\":\"7\",\"vote\":\"like\"}]}";

    WriteBundle out = EventCodec.decode(v1.getBytes(StandardCharsets.UTF_8));

    assertThat(out.version()).isEqualTo(1);
    assertThat(out.votes()).isEmpty();
    assertThat(out.reviews()).hasSize(1).allSatisfy(r -> assertThat(r.keyed()).isFalse());
  }

  @Test
  void votesThatCannotBeAppliedExactlyOnceAreInvalid() {
    String id = "\"id\":\"" + UUID.randomUUID() + "\",";
    String[][] cases = {
      {"{\"version\":1," + id + "\"votes\":[[\"7\",1,0]]}", "version 1"},
      {"{\"version\":2,\"votes\":[[\"7\",1,0]]}", "without a message id"},
      {"{\"version\":2," + id + "\"votes\":[[\"7\",0,0]]}", "at least one"},
      {"{\"version\":2," + id + "\"votes\":[[\"7\",-1,2]]}", "at least one"},
      {"{\"version\":2," + id + "\"votes\":[[\"a b\",1,0]]}", "invalid albumId"},
      {"{\"version\":2," + id + "\"votes\":[[\"7\",1,0],[\"7\",0,1]]}", "twice"},
      {"{\"version\":2," + id + "\"votes\":[null]}", "undecodable"},
      {"{\"version\":2," + id + "\"votes\":[[\"7\",\"many\",0]]}", "undecodable"},
    };
    for (String[] c : cases) {
      assertThatThrownBy(() -> EventCodec.decode(c[0].getBytes(StandardCharsets.UTF_8)))
          .as(c[0])
          .isInstanceOf(InvalidMessageException.class)
          .hasMessageContaining(c[1]);
    }
  }

  @Test
  void sameAlbumTwiceInOneBatchIsInvalid() {
    NewAlbum a = new NewAlbum("dup", PISTOLS, new byte[] {1});
    byte[] body = EventCodec.encode(new WriteBundle(1, 0, List.of(a, a), List.of()));
    assertThatThrownBy(() -> EventCodec.decode(body)).hasMessageContaining("twice");
  }

  private static WriteBundle reviews(List<Review> reviews) {
    return new WriteBundle(EventCodec.VERSION, System.currentTimeMillis(), List.of(), reviews);
  }
}
