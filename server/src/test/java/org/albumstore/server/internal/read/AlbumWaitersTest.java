package org.albumstore.server.internal.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.albumstore.common.event.AlbumProfile;
import org.albumstore.server.internal.read.AlbumWaiters.Waiter;
import org.albumstore.server.internal.read.ReadWaitObserver.Outcome;
import org.junit.jupiter.api.Test;

/**
 * The waiting reads' bookkeeping, driven tick by tick with a clock of the test's own (no poller
 * thread, no real time): what is queried, who is answered what, the limit, and the stop.
 */
class AlbumWaitersTest {
  private static final int MAX_WAIT_MS = 1000;
  private static final AlbumProfile PROFILE = new AlbumProfile("a", "t", "1999");

  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final Map<String, AlbumProfile> database = new HashMap<>();
  private final Map<String, AlbumProfile> announced = new HashMap<>();
  private final List<Set<String>> queries = new ArrayList<>();
  private final List<Outcome> outcomes = new ArrayList<>();
  private int rejected;
  private boolean databaseDown;

  private final ReadWaitObserver observer =
      new ReadWaitObserver() {
        @Override
        public void waited(Outcome outcome, long nanos) {
          outcomes.add(outcome);
        }

        @Override
        public void rejected() {
          rejected++;
        }
      };

  private final AlbumWaiters waiters =
      new AlbumWaiters(
          ids -> {
            queries.add(Set.copyOf(ids));
            if (databaseDown) {
              throw new ReadFailedException("down", new SQLException("connection refused"));
            }
            Map<String, AlbumProfile> found = new HashMap<>();
            for (String id : ids) {
              if (database.containsKey(id)) {
                found.put(id, database.get(id));
              }
            }
            return found;
          },
          id -> Optional.ofNullable(announced.get(id)),
          new ReadWaitSettings(MAX_WAIT_MS, 60_000, 2000, 3, 5),
          observer,
          clock::get);

  /** What a read was answered, as text. */
  private static final class Recorded implements AlbumWaiters.Answer {
    final List<String> answers = new ArrayList<>();

    @Override
    public void found(AlbumProfile album) {
      answers.add("200 " + album.title());
    }

    @Override
    public void unavailable(String msg) {
      answers.add("503 " + msg);
    }
  }

  private void advanceMs(long ms) {
    clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(ms));
  }

  @Test
  void oneQueryPerTickCoversEveryWaitingIdOnce() {
    Recorded a1 = new Recorded();
    Recorded a2 = new Recorded();
    Recorded b = new Recorded();
    waiters.park("a", a1);
    waiters.park("a", a2); // two reads of one album
    waiters.park("b", b);

    waiters.tick();

    assertThat(queries).containsExactly(Set.of("a", "b"));
    assertThat(a1.answers).isEmpty();
    assertThat(waiters.waiting()).isEqualTo(3);
  }

  @Test
  void readsWhoseAlbumAppearedAreAnsweredAndTheOthersWaitOn() {
    Recorded a1 = new Recorded();
    Recorded a2 = new Recorded();
    Recorded b = new Recorded();
    waiters.park("a", a1);
    waiters.park("a", a2);
    waiters.park("b", b);
    waiters.tick();

    database.put("a", PROFILE);
    waiters.tick();

    assertThat(a1.answers).containsExactly("200 t");
    assertThat(a2.answers).containsExactly("200 t");
    assertThat(b.answers).isEmpty();
    assertThat(waiters.waiting()).isEqualTo(1);
    assertThat(outcomes).containsExactly(Outcome.FOUND, Outcome.FOUND);
    waiters.tick();
    assertThat(queries.get(2)).containsExactly("b"); // answered reads are not queried again
  }

  @Test
  void anAnnouncedAlbumAnswersItsReadsAtOnceWithoutAQuery() {
    Recorded a1 = new Recorded();
    Recorded a2 = new Recorded();
    Recorded b = new Recorded();
    waiters.park("a", a1);
    waiters.park("a", a2);
    waiters.park("b", b);

    waiters.announced(Map.of("a", PROFILE, "c", PROFILE));

    assertThat(a1.answers).containsExactly("200 t");
    assertThat(a2.answers).containsExactly("200 t");
    assertThat(b.answers).isEmpty();
    assertThat(outcomes).containsExactly(Outcome.ANNOUNCED, Outcome.ANNOUNCED);
    assertThat(queries).isEmpty();
    waiters.tick(); // forgets the answered ones, queries the other
    assertThat(queries).containsExactly(Set.of("b"));
    assertThat(waiters.waiting()).isEqualTo(1);
    database.put("a", PROFILE);
    waiters.tick();
    assertThat(a1.answers).hasSize(1); // answered once
  }

  @Test
  void aReadParkedAfterItsAlbumWasAnnouncedIsAnsweredAsItParks() {
    announced.put("a", PROFILE); // came between the read's query and its parking
    Recorded r = new Recorded();

    waiters.park("a", r);

    assertThat(r.answers).containsExactly("200 t");
    assertThat(outcomes).containsExactly(Outcome.ANNOUNCED);
    waiters.tick();
    assertThat(waiters.waiting()).isZero();
    assertThat(queries).isEmpty();
  }

  @Test
  void aReadPastItsBoundGets503AndNoSooner() {
    Recorded r1 = new Recorded();
    Recorded r2 = new Recorded();
    waiters.park("acknowledged-not-applied", r1);
    advanceMs(1);
    waiters.park("another", r2);
    advanceMs(MAX_WAIT_MS - 2);
    waiters.tick();
    assertThat(r1.answers).isEmpty();

    advanceMs(1);
    waiters.tick();
    assertThat(r1.answers).containsExactly("503 " + AlbumWaiters.PENDING_MESSAGE);
    assertThat(r2.answers).isEmpty();
    assertThat(waiters.waiting()).isEqualTo(1);

    advanceMs(1);
    waiters.tick();
    assertThat(r2.answers).containsExactly("503 " + AlbumWaiters.PENDING_MESSAGE);
    assertThat(outcomes).containsExactly(Outcome.PENDING, Outcome.PENDING);
    assertThat(waiters.waiting()).isZero();
  }

  @Test
  void aDatabaseFailureAnswersTheWaitingReads503() {
    Recorded r1 = new Recorded();
    Recorded r2 = new Recorded();
    waiters.park("x", r1);
    waiters.park("y", r2);
    databaseDown = true;

    waiters.tick();

    assertThat(r1.answers).singleElement().asString().startsWith("503").contains("database");
    assertThat(r2.answers).singleElement().asString().startsWith("503");
    assertThat(outcomes).containsExactly(Outcome.FAILED, Outcome.FAILED);
    assertThat(waiters.waiting()).isZero();
  }

  @Test
  void beyondTheMostWaitingReadsParkRefusesAndCountsARejection() {
    for (int i = 0; i < 3; i++) {
      assertThat(waiters.park("id" + i, new Recorded())).isNotNull();
    }
    assertThat(waiters.park("one-too-many", new Recorded())).isNull();
    assertThat(rejected).isEqualTo(1);
    assertThat(waiters.waiting()).isEqualTo(3);

    database.put("id0", PROFILE);
    waiters.tick(); // one answered: room for one more
    assertThat(waiters.park("now-there-is-room", new Recorded())).isNotNull();
  }

  @Test
  void aReadClaimedByTheServletIsDroppedWithoutAnAnswer() {
    Recorded r = new Recorded();
    Waiter w = waiters.park("gone", r);
    assertThat(w.claim()).isTrue(); // e.g. the client closed the connection
    database.put("gone", PROFILE);

    waiters.tick();

    assertThat(r.answers).isEmpty();
    assertThat(outcomes).isEmpty();
    assertThat(waiters.waiting()).isZero();
    assertThat(w.claim()).isFalse(); // exactly one side answers
  }

  @Test
  void closingAnswersEveryWaitingRead503AndRefusesNewOnes() {
    Recorded r1 = new Recorded();
    Recorded r2 = new Recorded();
    waiters.park("p", r1);
    waiters.park("q", r2);

    waiters.close();

    assertThat(r1.answers).singleElement().asString().startsWith("503").contains("stopping");
    assertThat(r2.answers).singleElement().asString().startsWith("503");
    assertThat(waiters.waiting()).isZero();
    assertThat(waiters.stopping()).isTrue();
    assertThat(waiters.park("late", new Recorded())).isNull();
  }

  @Test
  void nothingIsQueriedWhileNobodyWaits() {
    waiters.tick();
    assertThat(queries).isEmpty();
  }
}
