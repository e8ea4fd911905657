package org.albumstore.server.internal.publish;

/**
 * How the publisher is sized, and what it writes. The server's settings carry these values; {@code
 * ServerComponents} hands them over, so that {@code publish/} does not depend on the package that
 * wires it.
 *
 * @param channels publisher threads, each owning one confirm-mode channel
 * @param queueMax most writes waiting for a publisher before new ones are refused
 * @param bundleMax most writes in one bundle (1: one broker message per request)
 * @param bundleBytes most (estimated) body bytes in one bundle
 * @param confirmTimeoutMs how long a write may wait in total, queue plus confirm
 * @param messageVersion the body version of the messages ({@code EventCodec}): 2, or 1 for
 *     consumers that read only 1
 */
public record PublisherSettings(
    int channels,
    int queueMax,
    int bundleMax,
    int bundleBytes,
    int confirmTimeoutMs,
    int messageVersion) {}
