import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.MessageProperties;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.albumstore.common.amqp.Topology;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.config.AmqpSettings.QueueType;
import org.albumstore.embedded.cluster.RabbitCluster;

/**
 * What a quorum queue of the installed RabbitMQ does with the unacknowledged deliveries of a
 * consumer whose broker node is SIGKILLed: with the consumer still registered, and after it was
 * cancelled ({@code basic.cancel}) but before its channel closed. The case behind the consumer's
 * stop that no longer cancels (consumer/README.md, ConsumerNodeLossIT).
 *
 * <p>{@code java -cp local/target/albumstore-local.jar bench/java/CancelledConsumerNodeLoss.java
 * [MESSAGES=50]}: starts a 3-node cluster of its own on loopback (under a temporary directory),
 * and for each case prints how many of the messages a consumer on another node gets back within
 * 30 s, and within 30 s of the killed node's restart. Exit code 0 whatever it finds: it measures.
 */
public final class CancelledConsumerNodeLoss {
  private static final long WAIT_SECONDS = 30;

  public static void main(String[] args) throws Exception {
    int messages = args.length > 0 ? Integer.parseInt(args[0]) : 50;
    String prefix = "albumstore-ccnl-" + UUID.randomUUID().toString().substring(0, 8);
    Path dir = Files.createTempDirectory(prefix);
    try (RabbitCluster cluster = RabbitCluster.start(prefix, 3, dir)) {
      System.out.println("RabbitMQ " + cluster.nodes().get(0).ctl("version").strip());
      for (String where : new String[] {"follower", "leader"}) {
        for (boolean cancelled : new boolean[] {false, true}) {
          measure(cluster, messages, where, cancelled);
        }
      }
    }
  }

  private static void measure(RabbitCluster cluster, int messages, String where, boolean cancelled)
      throws Exception {
    String queue = "ccnl." + where + "." + cancelled + "." + UUID.randomUUID().toString().substring(0, 6);
    AmqpSettings s =
        new AmqpSettings(cluster.uri(0), cluster.addresses(), queue, QueueType.QUORUM, 3);
    try (Connection c = connect(cluster, 0); Channel ch = c.createChannel()) {
      Topology.declare(ch, s);
    }
    int leader = cluster.indexOf(cluster.leaderOf(queue).orElseThrow());
    int victim = where.equals("leader") ? leader : (leader + 1) % 3;
    int other = where.equals("leader") ? (leader + 1) % 3 : (leader + 2) % 3;
    publish(cluster, other, s, messages);
    Connection doomed = connect(cluster, victim);
    Channel held = doomed.createChannel();
    held.basicQos(messages);
    Set<String> delivered = ConcurrentHashMap.newKeySet();
    String tag = held.basicConsume(queue, false, (t, d) -> delivered.add(body(d.getBody())), t -> {});
    awaitCount(delivered, messages);
    if (cancelled) {
      held.basicCancel(tag);
    }
    cluster.kill(victim);
    Set<String> back = ConcurrentHashMap.newKeySet();
    try (Connection c = connect(cluster, other); Channel ch = c.createChannel()) {
      ch.basicQos(messages);
      ch.basicConsume(queue, false, (t, d) -> back.add(body(d.getBody())), t -> {});
      awaitCount(back, messages);
      int beforeRestart = back.size();
      cluster.restart(victim);
      awaitCount(back, messages);
      System.out.printf(
          "consumer on the %s's node, %s: %d of %d delivered back, %d after the node's restart%n",
          where, cancelled ? "cancelled" : "registered", beforeRestart, messages, back.size());
      ch.queueDelete(queue);
    } finally {
      doomed.abort();
    }
  }

  private static void publish(RabbitCluster cluster, int node, AmqpSettings s, int messages)
      throws Exception {
    try (Connection c = connect(cluster, node); Channel ch = c.createChannel()) {
      ch.confirmSelect();
      for (int i = 0; i < messages; i++) {
        byte[] body = ("m" + i).getBytes(StandardCharsets.UTF_8);
        ch.basicPublish(
            s.exchange(), Topology.ROUTING_KEY, true, MessageProperties.PERSISTENT_BASIC, body);
      }
      ch.waitForConfirmsOrDie(10_000);
    }
  }

  private static void awaitCount(Set<String> seen, int wanted) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    while (seen.size() < wanted && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
  }

  private static String body(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static Connection connect(RabbitCluster cluster, int node) throws Exception {
    ConnectionFactory f = new ConnectionFactory();
    f.setUri(cluster.uri(node));
    f.setAutomaticRecoveryEnabled(false);
    return f.newConnection("ccnl-" + node);
  }
}
