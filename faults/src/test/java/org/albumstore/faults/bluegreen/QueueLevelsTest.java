package org.albumstore.faults.bluegreen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueueLevelsTest {
  private static final List<String> QUEUES = List.of("q", "q.1");
  private static final List<String> DEAD = List.of("q.dlq", "q.1.dlq");

  @Test
  void theStreamsQueuesAndDeadLettersAreSummedAndAnAbsentQueueHoldsNothing() throws IOException {
    String output = String.join("\n", "q 3 200", "q.1 0 17", "q.dlq 1 0", "q.1.dlq absent", "ok");
    QueueLevels l = QueueLevels.parse(output, QUEUES, DEAD);
    assertThat(l).isEqualTo(new QueueLevels(3, 217, 1));
    assertThat(l.empty()).isFalse();
    assertThat(QueueLevels.parse("q 0 0\nq.1 0 0\nq.dlq 0 0\nq.1.dlq 0 0\n", QUEUES, DEAD).empty())
        .isTrue();
  }

  @Test
  void aFigureTheLeaderDidNotGiveOrAQueueNotListedIsNoAnswer() {
    assertThatThrownBy(
            () -> QueueLevels.parse("q ? 0\nq.1 0 0\nq.dlq 0 0\nq.1.dlq 0 0", QUEUES, DEAD))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("no exact figures for q");
    assertThatThrownBy(() -> QueueLevels.parse("q 0 0\nq.dlq 0 0\nq.1.dlq 0 0", QUEUES, DEAD))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("not every queue answered");
  }
}
