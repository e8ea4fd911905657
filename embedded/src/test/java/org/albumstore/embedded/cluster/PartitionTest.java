package org.albumstore.embedded.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** How {@link Partition} reads {@code iptables -S INPUT}: only rules tagged by it, whole. */
class PartitionTest {
  @Test
  void aTaggedRuleIsReadWithItsTagAndTheSpecificationThatDeletesIt() {
    String line =
        "-A INPUT -s 127.0.42.11/32 -d 127.0.0.1/32 -p tcp -m tcp --dport 41234"
            + " -m comment --comment albumstore-4711-albumstore-faults-1a2b -j DROP";
    Partition.Rule rule = Partition.Rule.parse(line).orElseThrow();
    assertThat(rule.tag()).isEqualTo("albumstore-4711-albumstore-faults-1a2b");
    assertThat(rule.spec())
        .containsExactly(
            "INPUT",
            "-s",
            "127.0.42.11/32",
            "-d",
            "127.0.0.1/32",
            "-p",
            "tcp",
            "-m",
            "tcp",
            "--dport",
            "41234",
            "-m",
            "comment",
            "--comment",
            "albumstore-4711-albumstore-faults-1a2b",
            "-j",
            "DROP");
    assertThat(Partition.ownerOf(rule.tag())).contains(4711L);
  }

  @Test
  void aQuotedCommentIsReadToo() {
    String line = "-A INPUT -s 127.0.9.12/32 -m comment --comment \"albumstore-12-c\" -j DROP";
    assertThat(Partition.Rule.parse(line).orElseThrow().tag()).isEqualTo("albumstore-12-c");
  }

  @Test
  void rulesOfOthersAndPoliciesAreNotOurs() {
    for (String line :
        List.of(
            "-P INPUT ACCEPT",
            "-A INPUT -i lo -j ACCEPT",
            "-A INPUT -s 10.0.0.1/32 -m comment --comment other-123-x -j DROP",
            "-A OUTPUT -s 127.0.9.12/32 -m comment --comment albumstore-12-c -j DROP")) {
      assertThat(Partition.Rule.parse(line)).as(line).isEmpty();
    }
    assertThat(Partition.ownerOf("albumstore-probe")).isEmpty();
  }
}
