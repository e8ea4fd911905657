package org.albumstore.faults.planted;

import java.util.Arrays;
import org.albumstore.consumer.ConsumerMain;

/**
 * A test's consumer process with a bug planted: {@code java -cp albumstore-consumer.jar:<faults
 * test classes> org.albumstore.faults.planted.PlantedConsumerMain BUG [consumer flags]}. The
 * consumer's own command line ({@link ConsumerMain#execute}) with the batches applied by {@link
 * PlantedBug#writers}: the consumer jar's main cannot reach this, nor can any setting.
 */
public final class PlantedConsumerMain {
  private PlantedConsumerMain() {}

  public static void main(String[] args) {
    if (args.length == 0) {
      System.err.println(
          "usage: PlantedConsumerMain "
              + Arrays.toString(PlantedBug.values())
              + " [consumer flags]");
      System.exit(2);
    }
    PlantedBug bug = PlantedBug.valueOf(args[0]);
    System.err.println("planted bug: " + bug + " (" + bug.description() + ")");
    System.exit(ConsumerMain.execute(bug.writers(), Arrays.copyOfRange(args, 1, args.length)));
  }
}
