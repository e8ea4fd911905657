package org.albumstore.faults.nemesis;

import java.time.Duration;

/**
 * What the nemesis can break, each with how it is healed, the tier it hits, and how long it lasts
 * (drawn between the two bounds).
 */
public enum FaultKind {
  /** SIGKILL of a broker node; healed by starting it again. */
  NODE_KILL(Tier.BROKER, "SIGKILL of a broker node, restarted", 5, 20),
  /** SIGSTOP of a broker node (a GC pause, a noisy neighbour); healed by SIGCONT. */
  NODE_PAUSE(Tier.BROKER, "SIGSTOP of a broker node, then SIGCONT", 3, 15),
  /** A node cut off from the other two by iptables ({@code Partition}); healed by removing it. */
  PARTITION(Tier.BROKER, "a broker node partitioned from the others, healed", 10, 30),
  /** The broker's memory alarm: publishers blocked; healed by restoring the watermark. */
  MEMORY_ALARM(Tier.BROKER, "a broker memory alarm, cleared", 3, 12),
  /** SIGKILL of a server; healed by starting it again. */
  SERVER_KILL(Tier.SERVER, "SIGKILL of a server, restarted", 2, 10),
  /** SIGTERM of a server (drain, then exit); healed by starting it again. */
  SERVER_TERM(Tier.SERVER, "SIGTERM of a server, restarted", 2, 10),
  /** SIGKILL of a consumer; healed by starting it again. */
  CONSUMER_KILL(Tier.CONSUMER, "SIGKILL of a consumer, restarted", 2, 15),
  /**
   * A server added behind the balancer (an autoscaler's scale-out, an ALB registering an instance);
   * healed by stopping it with SIGTERM (scale-in: it drains, the balancer takes it out).
   */
  SERVER_ADD(Tier.SCALE, "a server added behind the balancer, then stopped", 10, 30),
  /** A consumer added on the queue; healed by stopping it with SIGTERM (scale-in). */
  CONSUMER_ADD(Tier.SCALE, "a consumer added, then stopped", 10, 30),
  /**
   * The PostgreSQL primary crashes, its synchronous standby is promoted and the endpoint switched
   * to it (RDS Multi-AZ's failover); healed by building a new standby in the crashed one's place.
   */
  DB_FAILOVER(
      Tier.DATABASE,
      "PostgreSQL primary crashed, standby promoted and switched in; a new standby built",
      5,
      20),
  /**
   * The broker's disk alarm: a node's {@code disk_free_limit} raised above the free space at run
   * time, so that it blocks every publisher of the cluster (the servers answer 503); healed by
   * restoring the limit. Nothing is written to the disk: the node is told its disk is full.
   */
  DISK_ALARM(
      Tier.DISK, "a broker disk alarm (disk_free_limit above the free space), cleared", 3, 12),
  /**
   * A slow database: every insert statement on the albums and the counters sleeps {@value
   * ClusterInjector#SLOW_STATEMENT_SECONDS} s first (a statement trigger calling {@code pg_sleep},
   * on the cluster's own database), so that the consumers' batches crawl and the queue grows;
   * healed by dropping the trigger.
   */
  SLOW_DATABASE(
      Tier.DATABASE_SPEED, "a slow database (each insert statement sleeps first), healed", 5, 20);

  /**
   * Where a fault lands: at most one fault per tier at a time, so every tier keeps serving. Adding
   * instances takes nothing away, so it is a lane of its own that overlaps the others freely. New
   * lanes come last, so that the older ones draw what they drew before the new ones existed.
   */
  public enum Tier {
    BROKER,
    SERVER,
    CONSUMER,
    SCALE,
    /** Drawn only on a stack whose database can fail over. */
    DATABASE,
    /** A node's disk, which blocks the whole cluster's publishers: a lane beside the nodes'. */
    DISK,
    /** The database's speed, a lane beside its failovers; only on a database of the stack's own. */
    DATABASE_SPEED
  }

  private final Tier tier;
  private final String description;
  private final Duration shortest;
  private final Duration longest;

  FaultKind(Tier tier, String description, int shortestSeconds, int longestSeconds) {
    this.tier = tier;
    this.description = description;
    this.shortest = Duration.ofSeconds(shortestSeconds);
    this.longest = Duration.ofSeconds(longestSeconds);
  }

  public Tier tier() {
    return tier;
  }

  public String description() {
    return description;
  }

  public Duration shortest() {
    return shortest;
  }

  public Duration longest() {
    return longest;
  }
}
