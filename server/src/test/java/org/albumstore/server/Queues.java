package org.albumstore.server;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import java.util.ArrayList;
import java.util.List;
import org.albumstore.common.amqp.AmqpConnections;
import org.albumstore.common.config.AmqpSettings;
import org.albumstore.common.event.EventCodec;
import org.albumstore.common.event.WriteBundle;

/** Reads what the server published to a test's own queue, with basicGet. */
final class Queues {
  private Queues() {}

  /** Takes (and acks) every message now in the queue, decoded; at most {@code max}. */
  static List<WriteBundle> take(AmqpSettings s, int max) throws Exception {
    return take(s, s.queue(), max);
  }

  /** As {@link #take(AmqpSettings, int)}, from {@code queue} (e.g. a partition's). */
  static List<WriteBundle> take(AmqpSettings s, String queue, int max) throws Exception {
    List<WriteBundle> out = new ArrayList<>();
    try (Connection c = AmqpConnections.open(s, "it-reader");
        Channel ch = c.createChannel()) {
      for (int i = 0; i < max; i++) {
        GetResponse r = ch.basicGet(queue, true);
        if (r == null) {
          break;
        }
        out.add(EventCodec.decode(r.getBody()));
      }
    }
    return out;
  }
}
