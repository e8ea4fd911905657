package org.albumstore.server.internal.read;

import java.util.Collection;
import java.util.Map;
import org.albumstore.common.event.AlbumProfile;

/** The one query {@link AlbumWaiters} runs per tick ({@link AlbumReads#albums} in the server). */
@FunctionalInterface
public interface AlbumLookup {
  /** The profiles of those of {@code albumIds} that exist, by ID. */
  Map<String, AlbumProfile> albums(Collection<String> albumIds) throws ReadFailedException;
}
