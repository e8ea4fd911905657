package org.albumstore.embedded.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Ports for child processes: in the window below the ephemeral range, and free when chosen. */
class LoopbackPortsTest {
  @Test
  void choosesListenablePortsBelowTheEphemeralRangeAndOutsideTheToolsPorts() throws Exception {
    int ephemeral = LoopbackPorts.ephemeralStart();
    for (int i = 0; i < 200; i++) {
      int port = LoopbackPorts.free();
      assertThat(port).isBetween(Math.max(1024, ephemeral - LoopbackPorts.WINDOW), ephemeral - 1);
      assertThat(port < LoopbackPorts.CTL_PORTS_FROM || port > LoopbackPorts.CTL_PORTS_TO)
          .as("%d outside rabbitmqctl's ports", port)
          .isTrue();
      try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
        assertThat(s.getLocalPort()).isEqualTo(port);
      }
    }
  }

  @Test
  void neverChoosesAPortSomethingListensOn() throws Exception {
    // Hold every port of a small slice of the window; none of them may come back.
    int ephemeral = LoopbackPorts.ephemeralStart();
    List<ServerSocket> held = new ArrayList<>();
    try {
      for (int port = ephemeral - 300; port < ephemeral; port++) {
        try {
          held.add(new ServerSocket(port, 1, InetAddress.getLoopbackAddress()));
        } catch (IOException taken) {
          // already someone else's: also never to be chosen
        }
      }
      for (int i = 0; i < 2_000; i++) {
        assertThat(LoopbackPorts.free()).isLessThan(ephemeral - 300);
      }
    } finally {
      for (ServerSocket s : held) {
        s.close();
      }
    }
  }
}
