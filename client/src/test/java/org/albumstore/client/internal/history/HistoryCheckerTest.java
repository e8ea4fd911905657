package org.albumstore.client.internal.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.albumstore.client.history.History;
import org.albumstore.client.history.Operation;
import org.albumstore.client.history.Property;
import org.albumstore.client.history.Validity;
import org.albumstore.client.history.Verdict;
import org.albumstore.client.history.Violation;
import org.junit.jupiter.api.Test;

/**
 * Each property: a clean history passes, and the same history with one planted violation fails with
 * that property and names the operations involved.
 */
class HistoryCheckerTest {
  private static final String KEY = "run-t0-0-a";
  private static final String ALBUM = Histories.albumOf(KEY);

  /** One iteration of a writer that reads back: create, read it, like, read the counts. */
  private static Histories iteration() {
    return new Histories()
        .create("t0", KEY, 0, 100, "200")
        .getAlbum("t0", ALBUM, 110, 120, "200")
        .like("t0", "run-t0-0-l1", ALBUM, 130, 140, "200")
        .getReview("t0", ALBUM, 150, 160, 1, 0)
        .stored(KEY)
        .applied("run-t0-0-l1", ALBUM, true);
  }

  private static List<Property> properties(Verdict v) {
    return v.violations().stream().map(Violation::property).toList();
  }

  @Test
  void aCleanHistoryPasses() {
    Verdict v = iteration().check();
    assertThat(v.judged()).isTrue();
    assertThat(v.violations()).isEmpty();
    assertThat(v.isClean()).isTrue();
    assertThat(v.writes().acknowledged()).isEqualTo(2);
    assertThat(v.reads().judged()).isEqualTo(2);
  }

  @Test
  void noLostWrite_anAcknowledgedReviewMissingFromTheDatabaseFails() {
    Histories h =
        iteration()
            .dislike("t0", "run-t0-0-d", ALBUM, 170, 180, "200"); // acknowledged, never applied
    Verdict v = h.check();
    assertThat(properties(v)).containsExactly(Property.NO_LOST_WRITE);
    assertThat(v.violations().get(0).what()).contains("run-t0-0-d").contains("not in the database");
    assertThat(v.violations().get(0).operations())
        .extracting(Operation::key)
        .containsExactly("run-t0-0-d");
  }

  @Test
  void noLostWrite_anAcknowledgedAlbumMissingFromTheDatabaseFails() {
    Histories h = new Histories().create("t0", KEY, 0, 100, "200");
    assertThat(properties(h.check())).containsExactly(Property.NO_LOST_WRITE);
  }

  @Test
  void noDuplicate_aReviewAppliedTwiceFails() {
    Histories h = iteration().counterMovedAgain(ALBUM, true);
    Verdict v = h.check();
    // Its own property, not a lost write; and more than was asked for, so a phantom too.
    assertThat(properties(v)).containsExactly(Property.NO_DUPLICATE, Property.NO_PHANTOM);
    assertThat(v.violations().get(0).what()).contains("applied more than once");
    assertThat(v.validity(Property.NO_DUPLICATE)).isEqualTo(Validity.INVALID);
    assertThat(v.validity(Property.NO_LOST_WRITE)).isEqualTo(Validity.VALID);
  }

  @Test
  void recovered_anIndeterminateWriteFoundAppliedIsCounted() {
    Histories h =
        iteration()
            .like("t0", "run-t0-0-l2", ALBUM, 170, 5_170, "SocketTimeoutException")
            .dislike("t0", "run-t0-0-d", ALBUM, 5_200, 5_300, "503")
            .applied("run-t0-0-l2", ALBUM, true); // the timed-out one was applied, the 503 not
    Verdict v = h.check();
    assertThat(v.writes().indeterminate()).isEqualTo(2);
    assertThat(v.writes().recovered()).isEqualTo(1);
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    v.print(new PrintStream(text, true, StandardCharsets.UTF_8));
    assertThat(text.toString(StandardCharsets.UTF_8))
        .contains("2 indeterminate (1 of them recovered: applied after all)");
  }

  @Test
  void eachPropertySaysValidInvalidOrUnknown() {
    Verdict v = iteration().check();
    // The writer read its album and its counts once each: nothing to compare a read with.
    assertThat(v.validity(Property.NO_LOST_WRITE)).isEqualTo(Validity.VALID);
    assertThat(v.validity(Property.READ_YOUR_WRITES)).isEqualTo(Validity.VALID);
    assertThat(v.validity(Property.MONOTONIC_COUNTS)).isEqualTo(Validity.UNKNOWN);
    assertThat(v.results().get(Property.MONOTONIC_COUNTS).why()).contains("twice");
    Verdict readsOnly = HistoryChecker.check(iteration().history(), null);
    assertThat(readsOnly.validity(Property.NO_LOST_WRITE)).isEqualTo(Validity.UNKNOWN);
    assertThat(readsOnly.validity(Property.NO_DUPLICATE)).isEqualTo(Validity.UNKNOWN);
    assertThat(readsOnly.validity(Property.NO_PHANTOM)).isEqualTo(Validity.UNKNOWN);
    assertThat(readsOnly.writes().recovered()).isZero();
    assertThat(HistoryChecker.CHECKERS)
        .extracting(PropertyChecker::property)
        .containsExactly(Property.values());
  }

  @Test
  void noPhantom_indeterminateWritesMayBeAppliedOrNot() {
    Histories h =
        iteration()
            .like("t0", "run-t0-0-l2", ALBUM, 170, 5_170, "SocketTimeoutException")
            .dislike("t0", "run-t0-0-d", ALBUM, 5_200, 5_300, "503")
            .applied("run-t0-0-l2", ALBUM, true); // the timed-out one was applied, the 503 not
    assertThat(h.check().violations()).isEmpty();
    assertThat(h.check().writes().indeterminate()).isEqualTo(2);
  }

  @Test
  void noPhantom_aRefusedReviewInTheDatabaseFails() {
    Histories h =
        iteration()
            .like("t0", "run-t0-0-l2", ALBUM, 170, 180, "400")
            .like("t0", "run-t0-0-l2", ALBUM, 200, 210, "400")
            .applied("run-t0-0-l2", ALBUM, true);
    Verdict v = h.check();
    // The review itself, and the counter it moved beyond what could have been applied.
    assertThat(properties(v)).containsExactly(Property.NO_PHANTOM, Property.NO_PHANTOM);
    assertThat(v.violations().get(0).what()).contains("refused (4xx) but is in the database");
    assertThat(v.violations().get(0).operations()).hasSize(2);
  }

  @Test
  void noPhantom_aCountNoRequestAskedForFails() {
    Histories h = iteration().counterMovedAgain(ALBUM, false); // a dislike nobody sent
    Verdict v = h.check();
    assertThat(properties(v)).contains(Property.NO_PHANTOM);
    assertThat(v.violations())
        .filteredOn(x -> x.property() == Property.NO_PHANTOM)
        .first()
        .extracting(Violation::what)
        .asString()
        .contains("only 0 such reviews were asked for");
  }

  @Test
  void readYourWrites_a404AfterThe200Fails() {
    Histories h = iteration().getAlbum("r0", ALBUM, 200, 210, "404");
    Verdict v = h.check();
    assertThat(properties(v)).containsExactly(Property.READ_YOUR_WRITES);
    assertThat(v.violations().get(0).operations())
        .extracting(Operation::line)
        .containsExactly(1L, 5L); // the create and the GET
  }

  @Test
  void readYourWrites_a404BeforeOrDuringThePostIsNoPromise_a503IsUnavailability() {
    Histories h =
        new Histories()
            .getAlbum("r0", ALBUM, 50, 60, "404") // while the POST was in flight
            .create("t0", KEY, 0, 100, "200")
            .getAlbum("r0", ALBUM, 90, 150, "404") // sent before the 200 arrived
            .getAlbum("r0", ALBUM, 200, 210, "503")
            .getAlbum("r0", ALBUM, 300, 5_300, "SocketTimeoutException")
            .stored(KEY);
    Verdict v = h.check();
    assertThat(v.violations()).isEmpty();
    assertThat(v.reads().unavailable()).isEqualTo(1);
    assertThat(v.reads().unanswered()).isEqualTo(1);
  }

  @Test
  void readYourWrites_aBalancersGatewayErrorIsUnanswered_aServerErrorFails() {
    Verdict unanswered =
        iteration()
            .getAlbum("r0", ALBUM, 200, 210, "502") // HAProxy: the server died mid-request
            .getAlbum("r0", ALBUM, 220, 230, "504")
            .check();
    assertThat(unanswered.violations()).isEmpty();
    assertThat(unanswered.reads().unanswered()).isEqualTo(2);

    Verdict failed = iteration().getAlbum("r0", ALBUM, 200, 210, "500").check();
    assertThat(properties(failed)).containsExactly(Property.READ_YOUR_WRITES);
  }

  @Test
  void readYourWrites_anotherAlbumsBodyFails() {
    Histories h = iteration();
    new Histories(); // the builder has no bad-body shortcut: plant the operation by hand
    History base = h.history();
    List<Operation> ops = new java.util.ArrayList<>(base.operations());
    ops.add(
        new Operation(
            99,
            "r0",
            org.albumstore.client.RequestType.GET_ALBUM,
            null,
            ALBUM,
            200,
            210,
            "200",
            -1,
            -1,
            true));
    Verdict v = HistoryChecker.check(new History("test", 0, ops, true, 0), h.database());
    assertThat(properties(v)).containsExactly(Property.READ_YOUR_WRITES);
  }

  @Test
  void monotonicCounts_aCountGoingBackwardsFails() {
    Histories h =
        iteration()
            .like("t0", "run-t0-0-l2", ALBUM, 170, 180, "200")
            .getReview("t0", ALBUM, 190, 200, 2, 0)
            .getReview("t0", ALBUM, 210, 220, 1, 0) // backwards
            .applied("run-t0-0-l2", ALBUM, true);
    Verdict v = h.check();
    assertThat(properties(v)).containsExactly(Property.MONOTONIC_COUNTS);
    assertThat(v.violations().get(0).operations())
        .extracting(Operation::likes)
        .containsExactly(2L, 1L);
  }

  @Test
  void monotonicCounts_twoProcessesMayDisagree() {
    // Another process's older count is not this one's history.
    Histories h =
        iteration()
            .like("t0", "run-t0-0-l2", ALBUM, 170, 180, "200")
            .getReview("t0", ALBUM, 190, 200, 2, 0)
            .getReview("r1", ALBUM, 185, 230, 1, 0)
            .applied("run-t0-0-l2", ALBUM, true);
    assertThat(h.check().violations()).isEmpty();
  }

  @Test
  void boundedCounts_moreThanCouldHaveBeenAppliedFails() {
    Histories h =
        iteration()
            .getReview("r0", ALBUM, 150, 165, 2, 0) // one like sent so far
            .like("t0", "run-t0-0-l2", ALBUM, 170, 180, "200")
            .applied("run-t0-0-l2", ALBUM, true);
    Verdict v = h.check();
    assertThat(properties(v)).containsExactly(Property.BOUNDED_COUNTS);
    assertThat(v.violations().get(0).what()).contains("only 1 could have been applied");
  }

  @Test
  void boundedCounts_aReviewInFlightOrIndeterminateMayBeSeen_aRefusedOneMayNot() {
    Histories inFlight =
        iteration()
            .like("t0", "run-t0-0-l2", ALBUM, 170, 5_170, "SocketTimeoutException")
            .getReview("r0", ALBUM, 160, 175, 2, 0) // answered while the like was in flight
            .applied("run-t0-0-l2", ALBUM, true);
    assertThat(inFlight.check().violations()).isEmpty();

    Histories refused =
        iteration()
            .like("t0", "run-t0-0-l2", ALBUM, 170, 180, "400")
            .getReview("r0", ALBUM, 190, 200, 2, 0);
    assertThat(properties(refused.check())).containsExactly(Property.BOUNDED_COUNTS);
  }

  @Test
  void aHistoryWithLostAttemptsIsNotJudged() {
    History h = iteration().history();
    Verdict v =
        HistoryChecker.check(
            new History("test", 0, h.operations(), true, 3), iteration().database());
    assertThat(v.judged()).isFalse();
    assertThat(v.isClean()).isFalse();
    assertThat(v.why()).contains("3 attempts were not recorded");
  }

  @Test
  void withoutTheDatabaseOnlyTheReadsAreJudged() {
    Histories h = new Histories().create("t0", KEY, 0, 100, "200"); // not stored: unseen
    Verdict v = HistoryChecker.check(h.history(), null);
    assertThat(v.isClean()).isTrue();
    assertThat(v.databaseChecked()).isFalse();
  }
}
