package org.albumstore.client.internal.verify;

import java.util.List;

/**
 * @param albums albums checked
 * @param mismatches albums still disagreeing when the checks ended
 * @param firstMismatches up to {@link Verifier#SHOWN} of them
 * @param rounds passes made (1 = everything agreed at once)
 * @param seconds time the checks took
 */
public record VerificationResult(
    long albums, long mismatches, List<Mismatch> firstMismatches, int rounds, double seconds) {
  public boolean ok() {
    return mismatches == 0;
  }
}
