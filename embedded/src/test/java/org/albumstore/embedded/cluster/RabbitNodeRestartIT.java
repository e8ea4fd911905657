package org.albumstore.embedded.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.MessageProperties;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.albumstore.embedded.testing.ExternalTools;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A node SIGKILLed and started again, over and over, starts every time and keeps its data, whatever
 * its killed predecessor left in the PID file: the dead VM's PID, or a half-written file. The
 * restart once waited on that file ({@code rabbitmqctl wait <pidfile>}) and failed with {@code
 * garbage_in_pid_file} when it read the file while the new node rewrote it; a planted garbage file
 * made it fail every time.
 */
class RabbitNodeRestartIT {
  /**
   * Restarts in a row. {@code mvn verify} runs 4 (about 10 s each on a loaded 2-core machine); 20
   * in a row, which the race needed to show: {@code mvn -B -pl embedded -am verify
   * -Dit.test=RabbitNodeRestartIT -Dtest=NoSuch -Dsurefire.failIfNoSpecifiedTests=false
   * -Dalbumstore.restarts=20}.
   */
  private static final int RESTARTS = Integer.getInteger("albumstore.restarts", 4);

  private RabbitNode node;

  @AfterEach
  void stop() throws Exception {
    if (node != null) {
      node.close();
    }
  }

  @Test
  void aNodeKilledAndRestartedOverAndOverStartsEveryTimeWithItsData() throws Exception {
    ExternalTools.system()
        .requireThat(
            RabbitCluster.installed(),
            "RabbitMQ (rabbitmq-server, rabbitmqctl; apt-get install rabbitmq-server)",
            "the RabbitMQ node restart test");
    String id = UUID.randomUUID().toString().substring(0, 8);
    int amqpPort = RabbitNode.freePort();
    Path dir = Path.of("target", "rabbit-restart-it", id).toAbsolutePath();
    node =
        RabbitNode.builder("albumstore-restart-" + id, dir)
            .config(
                "listeners.tcp.default = 127.0.0.1:" + amqpPort, "disk_free_limit.absolute = 50MB")
            .start();
    String queue = "it.restart." + id;
    publishOnePersistent(amqpPort, queue);
    // The confirm puts the message on disk; the queue's definition is a Mnesia transaction, which
    // Mnesia does not flush (erlang/otp#3975): a SIGKILL a few ms after the declare can forget the
    // queue (a clean-clone CI run lost it on the first restart). Flush it, so that what the kills
    // test is what reached the disk.
    node.ctl("eval", "mnesia:sync_log().");

    for (int i = 1; i <= RESTARTS; i++) {
      node.kill();
      Path pidFile = dir.resolve(RabbitNode.PID_FILE);
      assertThat(pidFile).as("SIGKILL leaves the PID file behind").exists();
      if (i % 2 == 0) {
        // What a reader sees while a new node rewrites the file in place.
        Files.writeString(pidFile, "garbage", StandardCharsets.US_ASCII);
      }
      node = node.restart();
      assertThat(messagesIn(amqpPort, queue))
          .as(
              "restart %d of %d: the node answers AMQP and kept its persistent message",
              i, RESTARTS)
          .isEqualTo(1);
    }
  }

  private static ConnectionFactory factory(int port) {
    ConnectionFactory f = new ConnectionFactory();
    f.setHost("127.0.0.1");
    f.setPort(port);
    return f;
  }

  private static void publishOnePersistent(int port, String queue) throws Exception {
    try (Connection c = factory(port).newConnection("restart-it");
        Channel ch = c.createChannel()) {
      ch.queueDeclare(queue, true, false, false, Map.of("x-queue-type", "classic"));
      ch.confirmSelect();
      ch.basicPublish(
          "", queue, MessageProperties.PERSISTENT_BASIC, "kept".getBytes(StandardCharsets.UTF_8));
      ch.waitForConfirmsOrDie(10_000);
    }
  }

  private static long messagesIn(int port, String queue) throws Exception {
    try (Connection c = factory(port).newConnection("restart-it");
        Channel ch = c.createChannel()) {
      return ch.queueDeclarePassive(queue).getMessageCount();
    }
  }
}
