package org.albumstore.common.event;

/**
 * An album to store. Inserting it is idempotent by {@code albumId}, which the server derives from
 * the idempotency key when there is one.
 */
public record NewAlbum(String albumId, AlbumProfile profile, byte[] image) {}
